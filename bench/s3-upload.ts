// What a streamed upload to the S3 store holds: a file of N MiB is put through the store into a bucket
// on s3rver (in a child process, so only the engine's side is measured), with this process's resident
// memory sampled every 20 ms; the store's share is the peak over the baseline. The aim: flat in the
// file's size (the old store buffered the whole file).
// Run: node --expose-gc --import tsx bench/s3-upload.ts [MiB ...]
import { fork } from 'node:child_process';
import { Readable } from 'node:stream';
import { openAssetStore } from '../engine/platform/assets/open';
import { startBucket } from '../test/helpers/s3';

const mb = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MB`;

/** The bucket's server in a child process; its environment for a store, and how to stop it. */
async function bucketElsewhere(): Promise<{ env: Record<string, string>; stop(): void }> {
  const child = fork(__filename, ['--serve'], { execArgv: ['--import', 'tsx'] });
  const env = await new Promise<Record<string, string>>((resolve) => child.once('message', (m) => resolve(m as never)));
  Object.assign(process.env, env);
  return { env, stop: () => child.kill() };
}

async function putOnce(env: Record<string, string>, mib: number): Promise<void> {
  const store = openAssetStore(env.ASSET_STORE, env.S3_ENDPOINT, env);
  await store.put('warm/up.bin', Buffer.alloc(1024), 'application/octet-stream');
  global.gc?.();
  const baseline = process.memoryUsage().rss;
  let peak = baseline;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
  const source = Readable.from(
    (function* () {
      for (let i = 0; i < mib; i++) yield Buffer.alloc(1 << 20, i % 251);
    })(),
  );
  const started = Date.now();
  const put = await store.putStream('uploads/blob_bench', source, 'application/octet-stream');
  const seconds = (Date.now() - started) / 1000;
  clearInterval(sampler);
  process.stdout.write(
    `S3 putStream: ${mb(put.size)} in ${seconds.toFixed(1)} s (${(mib / seconds).toFixed(0)} MiB/s); ` +
      `RSS baseline ${mb(baseline)}, peak ${mb(peak)}, held ${mb(peak - baseline)}\n`,
  );
}

async function main(): Promise<void> {
  if (process.argv.includes('--serve')) {
    const bucket = await startBucket();
    process.send?.({ ...bucket.env('bench'), AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER' });
    return;
  }
  const sizes = process.argv.slice(2).map(Number);
  const bucket = await bucketElsewhere();
  try {
    for (const mib of sizes.length ? sizes : [32, 256]) await putOnce(bucket.env, mib);
  } finally {
    bucket.stop();
  }
}

void main();
