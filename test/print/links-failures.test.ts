// What surrounds a render: signed links (fresh on every GET, 403 when altered, moved to another file or
// expired), the events it records in the outbox, and designs that cannot render failing their piece
// with a reason while the engine keeps serving.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import test from 'ava';
import knex from 'knex';
import { startEngine, type TestEngine } from '../helpers/engine';
import { client } from '../helpers/http';
import { postcard } from '../helpers/mail';
import { AssetSigner } from '../../engine/platform/assets/signing';
import { create, download, settled } from './helpers';

const SIGNING_KEY = 'test-signing-key-0123456789';
let engine: TestEngine;
let call: ReturnType<typeof client>;

test.before(async () => {
  engine = await startEngine({
    workers: true,
    env: { ASSET_SIGNING_KEY: SIGNING_KEY, RENDER_TIMEOUT_MS: '3000' },
  });
  call = client(engine.url, engine.keys.test);
});
test.after.always(() => engine?.close());

test.serial('links are signed afresh on every GET; altered, moved or expired links are 403', async (t) => {
  const piece = await settled(call, '/v1/postcards', (await create(call, '/v1/postcards', postcard())).id);
  t.is(piece.status, 'rendered');
  const url = new URL(piece.url!);
  t.regex(url.pathname, new RegExp(`^/assets/postcards/${piece.id}\\.pdf$`));
  const expires = Number(url.searchParams.get('expires'));
  const thirtyDays = 30 * 86_400;
  t.true(Math.abs(expires - (Date.now() / 1000 + thirtyDays)) < 60, 'expires in 30 days');
  t.is((await download(url.href)).status, 200);

  await new Promise((r) => setTimeout(r, 1100));
  const again = (await call('GET', `/v1/postcards/${piece.id}`)).body as { url: string };
  t.not(again.url, piece.url, 'a later GET signs a new link');
  t.is((await download(again.url)).status, 200, 'and the earlier link still works until it expires');

  const tampered = new URL(url.href);
  tampered.searchParams.set('signature', `${url.searchParams.get('signature')!.slice(0, -2)}xx`);
  const refused = await fetch(tampered);
  t.is(refused.status, 403);
  const body = (await refused.json()) as { error: { code: string; status_code: number } };
  t.is(body.error.status_code, 403);

  const later = new URL(url.href);
  later.searchParams.set('expires', String(expires + 86_400));
  t.is((await fetch(later)).status, 403, 'a longer life is not for the taking');

  const moved = new URL(url.href);
  moved.pathname = piece.thumbnails[0].small.replace(/^https?:\/\/[^/]+/, '').replace(/\?.*$/, '');
  t.is((await fetch(moved)).status, 403, "one file's signature does not open another");

  const signer = new AssetSigner(Buffer.from(SIGNING_KEY));
  const expired = signer.sign(url.pathname, Math.floor(Date.now() / 1000) - thirtyDays - 10);
  t.is((await fetch(`${url.origin}${expired}`)).status, 403, 'an expired link is refused');
  const valid = signer.sign(url.pathname);
  t.is((await fetch(`${url.origin}${valid}`)).status, 200, 'the same key signs what the engine accepts');
  t.is((await fetch(`${url.origin}/assets/postcards/..%2F..%2Fetc%2Fpasswd?expires=1&signature=x`)).status, 403);
});

test.serial('a render records rendered_pdf then rendered_thumbnails in the outbox', async (t) => {
  const piece = await settled(call, '/v1/postcards', (await create(call, '/v1/postcards', postcard())).id);
  const db = /^postgres/.test(engine.databaseUrl)
    ? knex({ client: 'pg', connection: engine.databaseUrl })
    : knex({ client: 'better-sqlite3', connection: { filename: engine.databaseUrl }, useNullAsDefault: true });
  try {
    const events = (await db('events')
      .where({ reference_id: piece.id })
      .orderBy([{ column: 'date_created' }, { column: 'id' }])
      .select('event_type', 'body')) as { event_type: string; body: string }[];
    t.deepEqual(
      events.map((e) => e.event_type).filter((type) => type !== 'postcard.created'),
      ['postcard.rendered_pdf', 'postcard.rendered_thumbnails'],
    );
    type Body = { body: { status: string; url: string | null; thumbnails: unknown[] } };
    const [pdf, thumbnails] = events
      .filter((e) => e.event_type !== 'postcard.created')
      .map((e) => JSON.parse(e.body) as Body);
    t.is(pdf.body.status, 'rendered');
    t.truthy(pdf.body.url, 'rendered_pdf carries the PDF');
    t.deepEqual(pdf.body.thumbnails, [], 'the thumbnails are the second step');
    t.is(thumbnails.body.status, 'rendered');
    t.is(thumbnails.body.thumbnails.length, 2, 'rendered_thumbnails carries a set per side');
  } finally {
    await db.destroy();
  }
});

test.serial('an image on a private network fails the piece with the reason; nothing is fetched', async (t) => {
  let hits = 0;
  const server = http.createServer((_req, res) => {
    hits += 1;
    res.end('x');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = server.address() as AddressInfo;
    const front = `<html><body><img src="http://127.0.0.1:${port}/logo.png"></body></html>`;
    const piece = await settled(call, '/v1/postcards', (await create(call, '/v1/postcards', postcard({ front }))).id);
    t.is(piece.status, 'failed');
    t.regex(piece.failure_reason!.failure_reason, new RegExp(`127\\.0\\.0\\.1:${port}/logo\\.png`));
    t.is((await download(piece.url!)).status, 404, 'a failed piece has no file behind its link');
    t.is(hits, 0);
  } finally {
    server.close();
  }
});

test.serial('a design too heavy to lay out in time fails its piece, and the engine renders the next', async (t) => {
  // A million table cells: no script, yet layout alone runs far past RENDER_TIMEOUT_MS.
  const rows = '<tr><td>a</td><td>b</td><td>c</td><td>d</td><td>e</td></tr>'.repeat(200_000);
  const html = Buffer.from(`<html><body><table>${rows}</table></body></html>`);
  const form = new FormData();
  for (const [k, v] of Object.entries(postcard({ front: undefined, merge_variables: undefined })))
    if (v !== undefined && typeof v !== 'object') form.append(k, String(v));
  for (const [k, v] of Object.entries(postcard().to)) form.append(`to[${k}]`, v);
  for (const [k, v] of Object.entries(postcard().from)) form.append(`from[${k}]`, v);
  form.append('front', new Blob([html], { type: 'text/html' }), 'heavy.html');
  const reply = await fetch(`${engine.url}/v1/postcards`, {
    method: 'POST',
    headers: { authorization: `Basic ${Buffer.from(`${engine.keys.test}:`).toString('base64')}` },
    body: form,
  });
  const created = (await reply.json()) as { id: string };
  t.is(reply.status, 200, JSON.stringify(created));
  const piece = await settled(call, '/v1/postcards', created.id, 120_000);
  t.is(piece.status, 'failed');
  t.regex(piece.failure_reason!.failure_reason, /render_timeout/);
  const next = await settled(call, '/v1/postcards', (await create(call, '/v1/postcards', postcard())).id);
  t.is(next.status, 'rendered');
});

test.serial(
  'a merge that multiplies without end fails its piece with render_timeout; the engine answers meanwhile',
  async (t) => {
    // four nested loops over 300 items: 8.1 billion iterations, half an hour on the engine's own thread
    const loops = '{{#each a}}{{#each ../a}}{{#each ../../a}}{{#each ../../../a}}x{{/each}}{{/each}}{{/each}}{{/each}}';
    const a = Array.from({ length: 300 }, (_, i) => i);
    const created = await create(call, '/v1/postcards', postcard({ front: `<p>${loops}</p>`, merge_variables: { a } }));
    // a read while the merge runs is answered before the piece settles: the merge is off the event loop
    await new Promise((r) => setTimeout(r, 1_000));
    const during = await call<{ status: string }>('GET', `/v1/postcards/${created.id}`);
    t.is(during.status, 200);
    t.is(during.body.status, 'processed', 'answered while the merge was still running');
    const piece = await settled(call, '/v1/postcards', created.id, 60_000);
    t.is(piece.status, 'failed');
    t.regex(piece.failure_reason!.failure_reason, /render_timeout/);
    t.regex(piece.failure_reason!.failure_reason, /merging the artwork took longer than 3000 ms/);
    const next = await settled(call, '/v1/postcards', (await create(call, '/v1/postcards', postcard())).id);
    t.is(next.status, 'rendered', 'the next piece merges on a new thread');
  },
);
