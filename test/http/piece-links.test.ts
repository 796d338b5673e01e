// Every mailpiece answers the signed link of the PDF it will have from its create answer on, as the
// vendor does: the link is made from the piece's id before the file exists, answers 404 (in the spec's
// error body) until the render stores the file, and then the very same link serves it.
import test from 'ava';
import { databaseSuite } from '../helpers/suite';
import { startEngine, type TestEngine } from '../helpers/engine';
import { client } from '../helpers/http';
import { check, letter, pieceVendorErrors, postcard, selfMailer, snapPack, verifiedBankAccount } from '../helpers/mail';
import { settled } from '../print/helpers';
import { startReceiver } from '../helpers/receiver';

const suite = databaseSuite();

const KINDS: [string, string, (bank: string) => Record<string, unknown>][] = [
  ['/v1/postcards', 'postcards', () => postcard()],
  ['/v1/letters', 'letters', () => letter()],
  ['/v1/self_mailers', 'self-mailers', () => selfMailer()],
  ['/v1/snap_packs', 'snap-packs', () => snapPack()],
  ['/v1/checks', 'checks', (bank) => check(bank)],
];

suite.test('every kind answers its PDF link from create on; the link is 404 until rendered', async (t, { api }) => {
  const bank = await verifiedBankAccount(api);
  for (const [path, folder, body] of KINDS) {
    const created = await api('POST', path, { json: body(bank) });
    t.is(created.status, 200, JSON.stringify(created.body));
    const { id, url, thumbnails, status } = created.body as Record<string, unknown>;
    t.is(status, 'processed');
    t.deepEqual(thumbnails, [], `${path}: no thumbnail exists before the render draws them`);
    t.is(typeof url, 'string', `${path}: url from the create answer on`);
    const link = new URL(String(url));
    t.is(link.pathname, `/assets/${folder}/${String(id)}.pdf`);
    t.regex(link.search, /^\?expires=\d{10}&signature=[\w-]+$/);
    t.deepEqual(pieceVendorErrors('POST', path, created.body), [], path);

    const early = await fetch(link);
    t.is(early.status, 404, path);
    t.deepEqual(await early.json(), {
      error: {
        message: 'This asset does not exist yet: the piece is not rendered.',
        code: 'not_found',
        status_code: 404,
      },
    });
    const again = (await api('GET', `${path}/${String(id)}`)).body as { url: string };
    t.is(new URL(again.url).pathname, link.pathname, 'every answer links the same file');
    const altered = new URL(link.href);
    altered.searchParams.set('signature', 'x');
    t.is((await fetch(altered)).status, 403, 'a link the engine did not sign is still refused first');
  }
});

let renderer: TestEngine;
test.before(async () => {
  renderer = await startEngine({ workers: true });
});
test.after.always(() => renderer?.close());

test('the link of the create answer serves the PDF once rendered, and the piece keeps it', async (t) => {
  const call = client(renderer.url, renderer.keys.test);
  const created = (await call('POST', '/v1/postcards', { json: postcard() })).body as { id: string; url: string };
  t.is((await fetch(created.url)).status, 404);
  const piece = await settled(call, '/v1/postcards', created.id);
  t.is(piece.status, 'rendered');
  t.is(new URL(piece.url!).pathname, new URL(created.url).pathname);
  const served = await fetch(created.url);
  t.is(served.status, 200);
  t.is(served.headers.get('content-type'), 'application/pdf');
  t.is(piece.thumbnails.length, 2);
});

test('a rendered_pdf event carries a link that fetches the PDF, in a webhook delivery and in GET /v1/events', async (t) => {
  const receiver = await startReceiver();
  const engine = await startEngine({ workers: true, env: { ALLOWED_PRIVATE_NETWORKS: '127.0.0.0/8' } });
  t.teardown(async () => {
    await engine.close();
    await receiver.close();
  });
  const call = client(engine.url, engine.keys.test);
  const hook = await call('POST', '/v1/webhooks', {
    json: { url: receiver.url, event_types: ['postcard.rendered_pdf', 'postcard.deleted'] },
  });
  t.is(hook.status, 200, JSON.stringify(hook.body));
  const created = (await call('POST', '/v1/postcards', { json: postcard() })).body as { id: string };
  await settled(call, '/v1/postcards', created.id, 60_000, true);
  const [delivery] = await receiver.waitFor(1, 30_000);
  const event = JSON.parse(delivery.body) as { event_type: { id: string }; body: { id: string; url: string } };
  t.is(event.event_type.id, 'postcard.rendered_pdf');
  t.is(event.body.id, created.id);
  const fetchPdf = async (url: string) => {
    const link = new URL(url);
    t.is(link.origin, engine.url, 'a link to this engine');
    t.regex(link.search, /^\?expires=\d{10}&signature=[\w-]+$/);
    const served = await fetch(link);
    t.is(served.status, 200, url);
    t.is(
      Buffer.from(await served.arrayBuffer())
        .subarray(0, 5)
        .toString(),
      '%PDF-',
    );
  };
  await fetchPdf(event.body.url);
  const listed = await call('GET', `/v1/events?event_type=postcard.rendered_pdf&reference_id=${created.id}`);
  t.is(listed.body.data.length, 1);
  await fetchPdf(listed.body.data[0].body.url);
  await fetchPdf((await call('GET', `/v1/events/${listed.body.data[0].id}`)).body.body.url);
});
