// Two engine processes, as on two machines: one PostgreSQL, one bucket (s3rver), and each its own
// local folders (UPLOAD_DIR, outbox, inbox). PostgreSQL only: a SQLite file is not shared between
// machines. A renders nothing (WORKERS=0), so a piece made through A is rendered by B's workers and
// its links answer from both; both deliver events, and a webhook gets each of them once; a CSV
// uploaded through B is run by A after B has stopped, from the bucket alone.
import test from 'ava';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freshDatabase } from '../../helpers/engine';
import { serve, type Served } from '../../helpers/cli';
import { client } from '../../helpers/http';
import { DATABASES } from '../../helpers/matrix';
import { TO } from '../../helpers/mail';
import { CSV_HEADER, createUpload, csvRow, sendFile, uploadCampaign } from '../../helpers/audience';
import { startReceiver } from '../../helpers/receiver';
import { download, settled } from '../../print/helpers';
import { startBucket } from '../../helpers/s3';

const HTML = '<html><body style="margin:0"><h1>Two machines</h1></body></html>';

/** A process's own folders, as another machine's would be. */
function machineFolders(name: string) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), `printpost-${name}-`));
  const folder = (sub: string) => path.join(root, sub);
  return {
    root,
    env: { UPLOAD_DIR: folder('uploads'), PRINT_OUTBOX: folder('outbox'), TRACKING_INBOX: folder('inbox') },
  };
}

const stopped = (served: Served) =>
  new Promise<void>((resolve) => {
    if (served.child.exitCode !== null) return resolve();
    served.child.once('exit', () => resolve());
    served.child.kill('SIGTERM');
  });

if (DATABASES.includes('postgres')) {
  test('postgres: two processes share one database and one bucket, with their own folders', async (t) => {
    t.timeout(120_000);
    const bucket = await startBucket();
    const database = await freshDatabase('postgres');
    const receiver = await startReceiver();
    const folders = { a: machineFolders('a'), b: machineFolders('b') };
    const common = {
      DATABASE_URL: database.url,
      ...bucket.env('shared'),
      ALLOWED_PRIVATE_NETWORKS: '127.0.0.0/8',
      LOG_LEVEL: 'silent',
    };
    const servers: Served[] = [];
    try {
      const a = await serve({ ...common, ...folders.a.env, WORKERS: '0' });
      servers.push(a);
      const b = await serve({ ...common, ...folders.b.env, WORKERS: '2' });
      servers.push(b);
      const key = a.keys['test secret'];
      t.truthy(key, a.lines.join('\n'));
      const viaA = client(a.url, key);
      const viaB = client(b.url, key);

      const hook = await viaA('POST', '/v1/webhooks', {
        json: { url: receiver.url, event_types: ['postcard.created', 'postcard.rendered_pdf'] },
      });
      t.is(hook.status, 200, JSON.stringify(hook.body));

      // made through A, rendered by B (A has no renderer), its links good on either
      const created = await viaA('POST', '/v1/postcards', {
        json: { to: TO, from: TO, front: HTML, back: HTML, use_type: 'marketing' },
      });
      t.is(created.status, 200, JSON.stringify(created.body));
      const piece = await settled(viaA, '/v1/postcards', String(created.body.id));
      t.is(piece.status, 'rendered');
      const fromA = await download(String(piece.url));
      const fromB = await download(String(piece.url).replace(a.url, b.url));
      t.is(fromA.status, 200);
      t.is(fromA.bytes.subarray(0, 5).toString(), '%PDF-');
      t.deepEqual(fromB.bytes, fromA.bytes);
      const shownByB = (await viaB('GET', `/v1/postcards/${piece.id}`)).body;
      t.is((await download(String(shownByB.url))).status, 200);

      // each event once, though both processes deliver
      await receiver.waitFor(2, 60_000);
      await new Promise((resolve) => setTimeout(resolve, 1500)); // time enough for a second copy to show
      const ids = receiver.received.map((r) => (JSON.parse(r.body) as { id: string }).id);
      t.is(new Set(ids).size, ids.length, `no event twice: ${ids.join(' ')}`);
      t.deepEqual(
        receiver.received.map((r) => (JSON.parse(r.body) as { event_type: { id: string } }).event_type.id).sort(),
        ['postcard.created', 'postcard.rendered_pdf'],
      );

      // a CSV uploaded through B, run by A once B is gone: the file is in the bucket, not in B's folder
      const campaignId = await uploadCampaign(t, viaB);
      const uploadId = await createUpload(t, viaB, campaignId);
      const sent = await sendFile(
        b.url,
        key,
        uploadId,
        `${[CSV_HEADER, csvRow(1), csvRow(2), csvRow(3)].join('\n')}\n`,
      );
      t.is(sent.status, 200, JSON.stringify(sent.body));
      t.deepEqual(fs.readdirSync(folders.b.env.UPLOAD_DIR, { recursive: true }), [], "B's upload folder keeps nothing");
      await stopped(b);
      const run = await viaA('POST', `/v1/campaigns/${campaignId}/send`);
      t.is(run.status, 200, JSON.stringify(run.body));
      let body: Record<string, unknown> = {};
      for (let i = 0; i < 240; i++) {
        body = (await viaA('GET', `/v1/campaigns/${campaignId}/runs/${run.body.id}`)).body;
        if (body.status !== 'running') break;
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
      t.like(body, { status: 'completed', pieces_created: 3 });
    } finally {
      await Promise.all(servers.map(stopped));
      await receiver.close();
      await database.drop();
      await bucket.close();
      for (const f of Object.values(folders)) fs.rmSync(f.root, { recursive: true, force: true });
    }
  });
}
