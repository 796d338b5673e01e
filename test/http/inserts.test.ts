// Cards and buckslips (letter inserts) and their orders over HTTP on both databases, every answer
// checked against the vendor's schema; letters and campaign creatives may only name inserts that exist
// in the account and mode, and a refused letter writes nothing.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ExecutionContext } from 'ava';
import { databaseSuite } from '../helpers/suite';
import { vendorResponseErrors } from '../helpers/vendorSchema';
import { FROM, TO, letter } from '../helpers/mail';
import { pdfOf } from '../domain/artwork/pdf-fixtures';
import type { TestEngine } from '../helpers/engine';
import { printpost } from '../domain/production/production-helpers';

// remote sides are fetched from a server on loopback
const { test } = databaseSuite({
  settings: { rate_limit_per_5s: 100_000 },
  env: { ALLOWED_PRIVATE_NETWORKS: '127.0.0.0/8' },
});

type Api = Parameters<Parameters<typeof test>[1]>[1]['api'];

const FRONT = '<html><body><h1>Member card</h1></body></html>';

async function made(t: ExecutionContext, api: Api, path: string, json: Record<string, unknown>) {
  const reply = await api('POST', path, { json });
  t.is(reply.status, 200, JSON.stringify(reply.body));
  t.deepEqual(vendorResponseErrors('POST', path, 200, reply.body), [], `POST ${path}`);
  return reply.body;
}

async function upload(engine: TestEngine, path: string, fields: Record<string, string>, files: Record<string, Buffer>) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  for (const [k, bytes] of Object.entries(files)) form.append(k, new Blob([bytes]), `${k}.pdf`);
  const response = await fetch(`${engine.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Basic ${Buffer.from(`${engine.keys.test}:`).toString('base64')}` },
    body: form,
  });
  return { status: response.status, body: (await response.json()) as any };
}

/** Every answer of the path validates against the vendor's schema. */
async function vendorGet(t: ExecutionContext, api: Api, path: string) {
  const reply = await api('GET', path);
  t.is(reply.status, 200, JSON.stringify(reply.body));
  t.deepEqual(vendorResponseErrors('GET', path, 200, reply.body), [], `GET ${path}`);
  return reply.body;
}

test('a card is created, read, updated, listed and deleted as the vendor shapes it; its artwork is served', async (t, {
  api,
}) => {
  const card = await made(t, api, '/v1/cards', { front: FRONT, description: 'Loyalty' });
  t.regex(card.id, /^card_/);
  t.like(card, {
    object: 'card',
    size: '2.125x3.375',
    orientation: 'horizontal',
    status: 'processed',
    description: 'Loyalty',
    available_quantity: 0,
    pending_quantity: 0,
    auto_reorder: false,
    reorder_quantity: null,
  });
  const front = await fetch(card.front_original_url);
  t.is(front.status, 200);
  t.is(await front.text(), FRONT, 'the front as given');
  t.true((await (await fetch(card.back_original_url)).text()).startsWith('<html>'), 'a blank back');

  t.like(await vendorGet(t, api, `/v1/cards/${card.id}`), { id: card.id, description: 'Loyalty' });
  const vertical = await made(t, api, '/v1/cards', { front: FRONT, size: '3.375x2.125' });
  t.is(vertical.orientation, 'vertical');

  const refused = await api('POST', `/v1/cards/${card.id}`, { json: { auto_reorder: true } });
  t.is(refused.status, 422);
  t.is(refused.body.error.message, 'reorder_quantity is required when auto_reorder is true');
  t.is((await api('POST', `/v1/cards/${card.id}`, { json: { reorder_quantity: 9_999 } })).status, 422, 'below 10,000');
  const linked = await api('POST', `/v1/cards/${card.id}`, { json: { url: 'letters/ltr_other.pdf' } });
  t.is(linked.status, 422, 'an update names no file');
  const updated = await api('POST', `/v1/cards/${card.id}`, {
    json: { description: 'Gold', auto_reorder: true, reorder_quantity: 20_000 },
  });
  t.is(updated.status, 200, JSON.stringify(updated.body));
  t.like(updated.body, { description: 'Gold', auto_reorder: true, reorder_quantity: 20_000 });
  t.deepEqual(vendorResponseErrors('POST', `/v1/cards/${card.id}`, 200, updated.body), []);

  const listed = await vendorGet(t, api, '/v1/cards?limit=100');
  t.true(listed.data.some((c: { id: string }) => c.id === card.id));

  const deleted = await api('DELETE', `/v1/cards/${card.id}`);
  t.deepEqual(deleted.body, { id: card.id, deleted: true });
  t.deepEqual(vendorResponseErrors('DELETE', `/v1/cards/${card.id}`, 200, deleted.body), []);
  t.is((await api('GET', `/v1/cards/${card.id}`)).status, 404);
  const keyed = () => api('POST', '/v1/cards', { json: { front: FRONT }, headers: { 'Idempotency-Key': card.id } });
  const [once, again] = [await keyed(), await keyed()];
  t.is(again.body.id, once.body.id, 'one card for one Idempotency-Key');
  t.like(again.body, { available_quantity: 0, pending_quantity: 0 }, 'answered whole again');
  t.deepEqual(vendorResponseErrors('POST', '/v1/cards', 200, again.body), []);
  t.is((await api('POST', '/v1/cards', { json: { front: 'just words' } })).status, 422, 'neither HTML nor a URL');
  const broken = await api('POST', '/v1/cards', { json: { front: 'https://[broken' } });
  t.like(broken.body.error, { code: 'invalid_file_url', status_code: 422 });
  t.is((await api('POST', '/v1/cards', { json: {} })).body.error.message, 'front is required');
});

/** Serves `bytes` once on loopback; the URL it is at. */
async function servedOnce(bytes: Buffer): Promise<{ url: string; close(): void }> {
  const server = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/pdf' }).end(bytes));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/card.pdf`, close: () => server.close() };
}

test("an uploaded or remote card PDF must be one page at the card's size", async (t, { engine, api }) => {
  const pdf = await pdfOf([[3.625, 2.375]]);
  const remote = await servedOnce(pdf);
  try {
    const fetched = await made(t, api, '/v1/cards', { front: remote.url });
    const kept = await fetch(fetched.front_original_url);
    t.deepEqual(Buffer.from(await kept.arrayBuffer()), pdf, 'fetched at create and kept');
    t.is(kept.headers.get('content-type'), 'application/octet-stream', 'a download, never a page of the origin');
  } finally {
    remote.close();
  }
  const good = await upload(engine, '/v1/cards', { description: 'PDF' }, { front: await pdfOf([[3.625, 2.375]]) });
  t.is(good.status, 200, JSON.stringify(good.body));
  t.deepEqual(vendorResponseErrors('POST', '/v1/cards', 200, good.body), []);
  const trim = await upload(engine, '/v1/cards', { size: '3.375x2.125' }, { front: await pdfOf([[2.125, 3.375]]) });
  t.is(trim.status, 200, 'a vertical card at trim size');
  const wrong = await upload(engine, '/v1/cards', {}, { front: await pdfOf([[6.25, 4.25]]) });
  t.is(wrong.status, 422);
  t.is(wrong.body.error.code, 'invalid_file_dimensions');
  const twoPages = await upload(
    engine,
    '/v1/cards',
    {},
    {
      back: await pdfOf([
        [3.625, 2.375],
        [3.625, 2.375],
      ]),
    },
  );
  t.is(twoPages.status, 422, 'front is required, and a side is one page');
});

test("card orders: at least 10,000, pending, counted in the card's pending stock; listed under the card", async (t, {
  api,
}) => {
  const card = await made(t, api, '/v1/cards', { front: FRONT });
  const small = await api('POST', `/v1/cards/${card.id}/orders`, { json: { quantity: 9_999 } });
  t.is(small.status, 422);
  const order = await made(t, api, `/v1/cards/${card.id}/orders`, { quantity: 10_000 });
  t.regex(order.id, /^co_/);
  t.like(order, { card_id: card.id, status: 'pending', quantity_ordered: 10_000, inventory: 0, object: 'card_order' });
  await made(t, api, `/v1/cards/${card.id}/orders`, { quantity: 15_000 });
  t.like(await vendorGet(t, api, `/v1/cards/${card.id}`), { pending_quantity: 25_000, available_quantity: 0 });
  const orders = await vendorGet(t, api, `/v1/cards/${card.id}/orders`);
  t.is(orders.data.length, 2);
  t.is((await api('GET', '/v1/cards/card_nothere/orders')).status, 404);
  t.is((await api('POST', '/v1/cards/card_nothere/orders', { json: { quantity: 10_000 } })).status, 404);
  await api('DELETE', `/v1/cards/${card.id}`);
  t.is((await api('POST', `/v1/cards/${card.id}/orders`, { json: { quantity: 10_000 } })).status, 404, 'deleted');
});

test("printpost order records a run's progress: printing, available with its inventory (the insert's stock), depleted; refused out of order", async (t, {
  api,
  engine,
}) => {
  const card = await made(t, api, '/v1/cards', { front: FRONT });
  const first = await made(t, api, `/v1/cards/${card.id}/orders`, { quantity: 10_000 });
  const second = await made(t, api, `/v1/cards/${card.id}/orders`, { quantity: 12_000 });
  const order = (...args: string[]) => printpost(engine.databaseUrl, ['order', ...args]);
  const stock = async () => {
    const shown = await vendorGet(t, api, `/v1/cards/${card.id}`);
    return [shown.available_quantity, shown.pending_quantity];
  };
  t.is(order(first.id, 'printing').stdout, `${first.id}\tprinting\t0\n`);
  t.deepEqual(await stock(), [0, 22_000], 'printing is still pending stock');
  t.is(order(first.id, 'available', '--inventory', '9500').stdout, `${first.id}\tavailable\t9500\n`);
  t.deepEqual(await stock(), [9_500, 12_000]);
  const listed = await vendorGet(t, api, `/v1/cards/${card.id}/orders`);
  t.like(
    listed.data.find((o: { id: string }) => o.id === first.id),
    { status: 'available', inventory: 9_500 },
  );
  t.truthy(listed.data.find((o: { id: string }) => o.id === first.id).availability_date);

  const refused = order(first.id, 'cancelled');
  t.is(refused.status, 1);
  t.regex(refused.stderr, /is available: it cannot become cancelled/);
  t.is(order(second.id, 'available', '--inventory', '12001').status, 1, 'more than was ordered');
  t.is(order(second.id, 'cancelled', '--reason', 'artwork changed').status, 0);
  t.is(order(first.id, 'depleted').status, 0);
  t.deepEqual(await stock(), [0, 0]);
  const cancelled = (await vendorGet(t, api, `/v1/cards/${card.id}/orders`)).data.find(
    (o: { id: string }) => o.id === second.id,
  );
  t.like(cancelled, { status: 'cancelled', cancelled_reason: 'artwork changed' });
  t.is(order(first.id, 'shipped').status, 1, 'no such status');
});

test('a buckslip and its orders as the vendor shapes them; updated with PATCH', async (t, { api }) => {
  const slip = await made(t, api, '/v1/buckslips', { front: FRONT, back: FRONT, description: 'Offer' });
  t.regex(slip.id, /^bck_/);
  t.like(slip, { object: 'buckslip', size: '8.75x3.75', stock: 'text', weight: '80#', finish: 'gloss' });
  t.deepEqual(slip.buckslip_orders, []);
  t.is((await api('POST', `/v1/buckslips/${slip.id}/orders`, { json: { quantity: 4_999 } })).status, 422);
  const order = await made(t, api, `/v1/buckslips/${slip.id}/orders`, { quantity: 5_000 });
  t.like(order, { buckslip_id: slip.id, status: 'pending', object: 'buckslip_order' });
  const shown = await vendorGet(t, api, `/v1/buckslips/${slip.id}`);
  t.like(shown, { pending_quantity: 5_000, projected_quantity: 5_000, onhand_quantity: 0 });
  t.deepEqual(
    shown.buckslip_orders.map((o: { id: string }) => o.id),
    [order.id],
  );
  const patched = await api('PATCH', `/v1/buckslips/${slip.id}`, { json: { description: 'Summer' } });
  t.is(patched.status, 200, JSON.stringify(patched.body));
  t.deepEqual(vendorResponseErrors('PATCH', `/v1/buckslips/${slip.id}`, 200, patched.body), []);
  t.is((await api('POST', `/v1/buckslips/${slip.id}`, { json: { description: 'x' } })).status, 405);
  await vendorGet(t, api, '/v1/buckslips?limit=5');
  await vendorGet(t, api, `/v1/buckslips/${slip.id}/orders`);
  t.is((await api('DELETE', `/v1/buckslips/${slip.id}`)).status, 200);
  t.is((await api('GET', `/v1/buckslips/${slip.id}/orders`)).status, 404);
});

test('a letter naming an existing card and buckslip is accepted; an unknown or deleted one is refused and writes nothing', async (t, {
  api,
  engine,
}) => {
  const card = await made(t, api, '/v1/cards', { front: FRONT });
  const slip = await made(t, api, '/v1/buckslips', { front: FRONT });
  const accepted = await api('POST', '/v1/letters', { json: letter({ cards: [card.id], buckslips: [slip.id] }) });
  t.is(accepted.status, 200, JSON.stringify(accepted.body));
  t.like(accepted.body, { cards: [card.id], buckslips: [slip.id] });

  const description = `refused-${Math.random().toString(36).slice(2)}`;
  const refused = async (extra: Record<string, unknown>, message: string) => {
    const reply = await api('POST', '/v1/letters', { json: letter({ description, ...extra }) });
    t.is(reply.status, 404, JSON.stringify(reply.body));
    t.deepEqual(reply.body.error, { message, code: 'not_found', status_code: 404 });
  };
  await refused({ cards: ['card_nothere'] }, 'cards: card card_nothere not found');
  await refused({ buckslips: ['bck_nothere'] }, 'buckslips: buckslip bck_nothere not found');
  const other = await engine.createAccount(`inserts-${Math.random().toString(36).slice(2)}`);
  const theirs = await api('POST', '/v1/cards', { json: { front: FRONT }, key: other.test });
  await refused({ cards: [theirs.body.id] }, `cards: card ${theirs.body.id} not found`);
  await refused({ cards: [card.id], buckslips: ['bck_nothere'] }, 'buckslips: buckslip bck_nothere not found');
  await api('DELETE', `/v1/cards/${card.id}`);
  await refused({ cards: [card.id] }, `cards: card ${card.id} not found`);
  const live = await api('POST', '/v1/letters', { json: letter({ cards: [slip.id] }) });
  t.is(live.status, 422, 'a buckslip id is no card id');
  t.is((await api('POST', '/v1/letters', { json: letter({ cards: [card.id, card.id] }) })).status, 422, 'one card');

  const written = await api('GET', '/v1/letters?limit=100');
  t.false(
    written.body.data.some((l: { description: string }) => l.description === description),
    'no refused letter was written',
  );
});

test('a campaign creative naming an unknown card is refused; once its card is deleted, a run skips its recipients', async (t, {
  api,
}) => {
  const segment = `inserts-${Math.random().toString(36).slice(2)}`;
  t.is((await api('POST', '/v1/addresses', { json: { ...TO, metadata: { segment } } })).status, 200);
  const campaign = (
    await api('POST', '/v1/campaigns', {
      json: { name: 'Inserts', schedule_type: 'immediate', use_type: 'marketing', audience: { metadata: { segment } } },
    })
  ).body;
  const creative = (cards: string[]) =>
    api('POST', '/v1/creatives', {
      json: {
        resource_type: 'letter',
        campaign_id: campaign.id,
        from: FROM,
        file: FRONT,
        details: { cards, color: false },
      },
    });
  const unknown = await creative(['card_nothere']);
  t.is(unknown.status, 404, JSON.stringify(unknown.body));
  t.is(unknown.body.error.message, 'cards: card card_nothere not found');
  const card = await made(t, api, '/v1/cards', { front: FRONT });
  const taken = await creative([card.id]);
  t.is(taken.status, 200, JSON.stringify(taken.body));
  t.deepEqual(taken.body.details.cards, [card.id]);
  const shown = await api('GET', `/v1/campaigns/${campaign.id}`);
  t.is(shown.body.creatives.length, 1, 'only the creative with a known card');

  // the card deleted since: each run's pieces are checked again, and the recipient is skipped, with why
  await api('DELETE', `/v1/cards/${card.id}`);
  const send = await api('POST', `/v1/campaigns/${campaign.id}/send`);
  t.is(send.status, 200, JSON.stringify(send.body));
  let run = send.body;
  for (let i = 0; i < 300 && run.status === 'running'; i++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    run = (await api('GET', `/v1/campaigns/${campaign.id}/runs/${run.id}`)).body;
  }
  t.like(run, { status: 'completed', pieces_created: 0, skipped_count: 1 });
  t.is(run.skipped[0].reason, `cards: card ${card.id} not found`);
});
