// The S3 asset store against a real S3-compatible server (s3rver), through the AWS SDK: small and
// multipart writes hashed as they stream, whole and ranged reads, sizes, deletes, missing keys, and a
// write whose source fails leaving nothing a reader could see.
import test from 'ava';
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { openAssetStore } from '../../../engine/platform/assets/open';
import type { AssetStore } from '../../../engine/platform/assets/store';
import { startBucket, type TestBucket } from '../../helpers/s3';

let bucket: TestBucket;
let store: AssetStore;

test.before(async () => {
  bucket = await startBucket();
  const env = bucket.env('unit');
  store = openAssetStore(env.ASSET_STORE, env.S3_ENDPOINT, env);
});
test.after.always(async () => bucket?.close());

const text = async (stream: Readable) => {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
};

/** `count` MiB of bytes that differ per MiB, made as they are read. */
const mebibytes = (count: number) =>
  Readable.from(
    (function* () {
      for (let i = 0; i < count; i++) yield Buffer.alloc(1 << 20, i % 251);
    })(),
  );

test('a small file is put, read whole, read as a stream, sized and deleted; under its prefix', async (t) => {
  await store.put('postcards/psc_small.pdf', Buffer.from('%PDF-1.7 small'), 'application/pdf');
  t.deepEqual(await bucket.keys('unit/'), ['unit/postcards/psc_small.pdf']);
  const got = await store.get('postcards/psc_small.pdf');
  t.is(got?.bytes.toString(), '%PDF-1.7 small');
  t.is(got?.contentType, 'application/pdf');
  t.is(await store.size('postcards/psc_small.pdf'), 14);
  const streamed = await store.getStream('postcards/psc_small.pdf');
  t.is(streamed?.size, 14);
  t.is((await text(streamed!.stream)).toString(), '%PDF-1.7 small');
  await store.delete(['postcards/psc_small.pdf', 'postcards/psc_never.pdf']);
  t.is(await store.get('postcards/psc_small.pdf'), undefined);
  t.is(await store.getStream('postcards/psc_small.pdf'), undefined);
  t.is(await store.size('postcards/psc_small.pdf'), undefined);
});

test('a 12 MiB stream goes up in parts, counted and hashed on the way, and reads back by range', async (t) => {
  const expected = createHash('sha256');
  for (let i = 0; i < 12; i++) expected.update(Buffer.alloc(1 << 20, i % 251));
  const put = await store.putStream('uploads/blob_big', mebibytes(12), 'application/octet-stream');
  t.deepEqual(put, { size: 12 << 20, sha256: expected.digest('hex') });
  t.is(await store.size('uploads/blob_big'), 12 << 20);
  // a range across the first part boundary (5 MiB)
  const start = (5 << 20) - 3;
  const part = await store.getStream('uploads/blob_big', { start, end: start + 5 });
  t.is(part?.size, 6);
  t.deepEqual([...(await text(part!.stream))], [4, 4, 4, 5, 5, 5]);
  const whole = await store.getStream('uploads/blob_big');
  t.is(
    createHash('sha256')
      .update(await text(whole!.stream))
      .digest('hex'),
    put.sha256,
  );
});

test('a write whose source fails rejects and leaves no object behind', async (t) => {
  const failing = Readable.from(
    (async function* () {
      yield Buffer.alloc(6 << 20, 1);
      throw new Error('the client went away');
    })(),
  );
  await t.throwsAsync(store.putStream('uploads/blob_torn', failing, 'application/octet-stream'));
  t.is(await store.size('uploads/blob_torn'), undefined);
  t.false((await bucket.keys('unit/')).includes('unit/uploads/blob_torn'));
});

test('keys that could escape the prefix are refused before any request', async (t) => {
  for (const key of ['../etc/passwd', 'postcards/../x', '/abs', 'postcards/a b'])
    await t.throwsAsync(store.put(key, Buffer.from('x'), 'text/plain'), { message: /unsafe asset key/ });
});
