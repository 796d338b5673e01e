// An engine whose ASSET_STORE is a bucket on a real S3-compatible server (s3rver), on both databases:
// every kind of file it keeps goes to the bucket and none to its local folder (rendered PDFs,
// thumbnails, uploaded artwork, audience CSVs, their exports), signed links stream them back, ranges
// included, and a cancel removes a piece's files from the bucket.
import test from 'ava';
import fs from 'node:fs';
import { startEngine, type TestEngine } from '../../helpers/engine';
import { client } from '../../helpers/http';
import { DATABASES } from '../../helpers/matrix';
import { TO, minimalPdf } from '../../helpers/mail';
import { CSV_HEADER, createUpload, csvRow, sendFile, uploadCampaign } from '../../helpers/audience';
import { download, settled } from '../../print/helpers';
import { startBucket, type TestBucket } from '../../helpers/s3';

let bucket: TestBucket;
const engines = new Map<string, TestEngine>();

test.before(async () => {
  bucket = await startBucket();
  for (const db of DATABASES)
    engines.set(db, await startEngine({ db, workers: true, env: bucket.env(`engine-${db}`) }));
});
test.after.always(async () => {
  for (const engine of engines.values()) await engine.close();
  await bucket?.close();
});

const HTML = '<html><body style="margin:0"><h1>Kept in a bucket</h1></body></html>';
/** Files the engine left in its local asset folder (none, when the bucket keeps them). */
const localFiles = (engine: TestEngine) => fs.readdirSync(engine.assets, { recursive: true });

for (const db of DATABASES) {
  test.serial(
    `${db}: a rendered postcard's PDF and thumbnails are in the bucket and served from it, by range too`,
    async (t) => {
      const engine = engines.get(db)!;
      const api = client(engine.url, engine.keys.test);
      const created = await api('POST', '/v1/postcards', {
        json: { to: TO, from: TO, front: HTML, back: HTML, use_type: 'marketing' },
      });
      t.is(created.status, 200, JSON.stringify(created.body));
      const piece = await settled(api, '/v1/postcards', String(created.body.id));
      const keys = await bucket.keys(`engine-${db}/`);
      t.true(keys.includes(`engine-${db}/postcards/${piece.id}.pdf`), keys.join(' '));
      t.true(
        keys.filter((k) => k.includes(`${piece.id}_thumb`) || k.includes(`thumbnails/${piece.id}`)).length >= 3,
        keys.join(' '),
      );
      t.deepEqual(localFiles(engine), []);

      const pdf = await download(String(piece.url));
      t.is(pdf.status, 200);
      t.is(pdf.bytes.subarray(0, 5).toString(), '%PDF-');
      const ranged = await fetch(String(piece.url), { headers: { range: 'bytes=0-4' } });
      t.is(ranged.status, 206);
      t.is(ranged.headers.get('content-range'), `bytes 0-4/${pdf.bytes.length}`);
      t.is(Buffer.from(await ranged.arrayBuffer()).toString(), '%PDF-');
      const tail = await fetch(String(piece.url), { headers: { range: 'bytes=-6' } });
      t.is(tail.status, 206);
      t.deepEqual(Buffer.from(await tail.arrayBuffer()), pdf.bytes.subarray(pdf.bytes.length - 6));
      const beyond = await fetch(String(piece.url), { headers: { range: `bytes=${pdf.bytes.length}-` } });
      t.is(beyond.status, 416);
      t.is(beyond.headers.get('content-range'), `bytes */${pdf.bytes.length}`);
      t.like(await beyond.json(), { error: { status_code: 416, code: 'range_not_satisfiable' } });
      for (const thumbnail of (piece.thumbnails as Record<string, string>[]).flatMap((side) => Object.values(side))) {
        const png = await download(thumbnail);
        t.is(png.status, 200);
        t.is(png.bytes.subarray(1, 4).toString(), 'PNG');
      }

      const cancelled = await api('DELETE', `/v1/postcards/${piece.id}`);
      t.is(cancelled.status, 200, JSON.stringify(cancelled.body));
      t.false(
        (await bucket.keys(`engine-${db}/`)).some((k) => k.includes(String(piece.id))),
        'a cancel removes its files',
      );
      t.is((await download(String(piece.url))).status, 404);
    },
  );

  test.serial(`${db}: uploaded artwork goes to the bucket and the piece renders from it`, async (t) => {
    const engine = engines.get(db)!;
    const api = client(engine.url, engine.keys.test);
    const form = new FormData();
    for (const [k, v] of Object.entries(TO)) form.append(`to[${k}]`, v);
    form.append('use_type', 'marketing');
    const side = minimalPdf('From a bucket');
    form.append('front', new Blob([side]), 'front.pdf');
    form.append('back', new Blob([side]), 'back.pdf');
    const response = await fetch(`${engine.url}/v1/postcards`, {
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from(`${engine.keys.test}:`).toString('base64')}` },
      body: form,
    });
    const created = (await response.json()) as Record<string, unknown>;
    t.is(response.status, 200, JSON.stringify(created));
    t.true((await bucket.keys(`engine-${db}/uploads/`)).some((k) => k.includes(String(created.id))));
    const piece = await settled(api, '/v1/postcards', String(created.id));
    t.is((await download(String(piece.url))).bytes.subarray(0, 5).toString(), '%PDF-');
    t.deepEqual(localFiles(engine), []);
  });

  test.serial(`${db}: an audience CSV and its export are kept in the bucket`, async (t) => {
    const engine = engines.get(db)!;
    const api = client(engine.url, engine.keys.test);
    const campaignId = await uploadCampaign(t, api);
    const uploadId = await createUpload(t, api, campaignId);
    const csv = `${[CSV_HEADER, csvRow(1), csvRow(2), 'Ragged,row'].join('\n')}\n`;
    const sent = await sendFile(engine.url, engine.keys.test, uploadId, csv);
    t.is(sent.status, 200, JSON.stringify(sent.body));
    const before = await bucket.keys(`engine-${db}/`);
    t.true(
      before.some((k) => k.includes(uploadId)),
      before.join(' '),
    );
    const exported = await api('POST', `/v1/uploads/${uploadId}/exports`, { json: { type: 'all' } });
    t.is(exported.status, 200, JSON.stringify(exported.body));
    const shown = (await api('GET', `/v1/uploads/${uploadId}/exports/${exported.body.exportId}`)).body;
    t.like(shown, { state: 'succeeded' });
    const file = await (await fetch(shown.s3Url)).text();
    t.regex(file, /Recipient 1/);
    t.true((await bucket.keys(`engine-${db}/`)).length > before.length, 'the export is a file in the bucket');
    t.deepEqual(localFiles(engine), []);
  });
}
