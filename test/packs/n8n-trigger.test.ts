// The built Printpost Trigger in n8n's own contexts: its webhook methods against a real engine
// (activation registers a webhook for n8n's URL of the node and keeps its id and secret; a changed
// choice of events replaces it; deactivation removes it), deliveries signed with the secret it kept
// (a valid one emits the event, or only its body; a tampered body, a stale timestamp, another secret
// are answered 401 and start nothing), and an event the engine delivers itself.
import test from 'ava';
import { createHmac } from 'node:crypto';
import type { IDataObject, INodeParameters, INodeProperties, INodeTypeDescription } from 'n8n-workflow';
import { startEngine, type TestEngine } from '../helpers/engine';
import { client } from '../helpers/http';
import { builtPacks } from './build-once';
import { loadPackage, shutdownN8n } from './n8n-harness';
import { TriggerHarness } from './n8n-trigger-harness';
import { packCatalog } from '../../nodes/common/catalog-data';

let engine: TestEngine;
let loader: Awaited<ReturnType<typeof loadPackage>>;
const open: TriggerHarness[] = [];
const creds = () => ({ apiKey: engine.keys.test, baseUrl: engine.url });
const api = () => client(engine.url, engine.keys.test);

const SECRET = 'whsec_trigger_test_secret';
const EVENT = {
  id: 'evt_1a2b3c4d5e6f7a8b',
  body: { id: 'adr_0123456789abcdef', name: 'HARRY ZHANG', object: 'address' },
  reference_id: 'adr_0123456789abcdef',
  event_type: { id: 'address.created', enabled_for_test: true, resource: 'addresses', object: 'event_type' },
  date_created: '2026-11-20T18:39:45.123Z',
  object: 'event',
};

/** The signature headers of docs/compat-notes.md, computed here rather than by the engine's code. */
function signed(body: string, secret = SECRET, seconds = Math.floor(Date.now() / 1000)) {
  const timestamp = String(seconds);
  const signature = createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
  return {
    'content-type': 'application/json',
    'service-signature-timestamp': timestamp,
    'service-signature': signature,
  };
}

async function trigger(parameters: INodeParameters, staticData: IDataObject = {}) {
  const harness = await TriggerHarness.start(loader, creds(), parameters, staticData);
  open.push(harness);
  return harness;
}

/** A trigger that registered a webhook earlier: its static data holds the id and secret. */
const registered = (parameters: INodeParameters = {}) =>
  trigger(
    { resource: 'addresses', events: ['address.created'], ...parameters },
    { 'node:Printpost Trigger': { webhookId: 'wh_0123456789abcdef', webhookSecret: SECRET } },
  );

const post = (url: string, body: string, headers: Record<string, string>) =>
  fetch(url, { method: 'POST', body, headers });

test.before(async () => {
  engine = await startEngine({
    settings: { rate_limit_per_5s: 100000 },
    // a postcard's rendered_pdf event (its browser starts only with that first render)
    workers: true,
    // the stand-in n8n webhook server listens on loopback
    env: { ALLOWED_PRIVATE_NETWORKS: '127.0.0.0/8' },
  });
  const { n8nDir } = await builtPacks();
  loader = await loadPackage(n8nDir);
});

test.after.always(async () => {
  await Promise.all(open.map((h) => h.close()));
  await engine?.close();
  shutdownN8n();
});

test('the trigger: no inputs, one POST webhook, an event choice per event family of the catalog', (t) => {
  const description = loader.types.nodes.find((d) => d.name === 'printpostTrigger') as INodeTypeDescription;
  t.truthy(description);
  t.deepEqual(description.inputs, []);
  t.deepEqual(
    description.webhooks?.map((w) => [w.name, w.httpMethod]),
    [['default', 'POST']],
  );
  const families = packCatalog.filter((r) => r.events.length > 0);
  const resource = description.properties.find((p) => p.name === 'resource') as INodeProperties;
  t.deepEqual(
    resource.options?.map((o) => (o as { value: string }).value),
    families.map((r) => r.name),
  );
  for (const r of families) {
    const events = description.properties.find(
      (p) => p.name === 'events' && (p.displayOptions?.show?.resource as string[]).includes(r.name),
    );
    t.deepEqual(
      events?.options?.map((o) => (o as { value: string }).value),
      r.events,
      r.name,
    );
  }
  const letters = description.properties.find(
    (p) => p.name === 'events' && (p.displayOptions?.show?.resource as string[]).includes('letters'),
  );
  const option = (type: string) => letters?.options?.find((o) => (o as { value: string }).value === type);
  // tracking types are live-only, but simulate walks a test piece's normal life: the label says so
  t.like(option('letter.certified.delivered'), {
    name: 'Certified Delivered',
    description: 'letter.certified.delivered, in live mode; test mode only through simulate',
  });
  // so are the exceptions, a certified letter's own events and a return envelope's (simulate's `event`)
  t.like(option('letter.certified.issue'), {
    description: 'letter.certified.issue, in live mode; test mode only through simulate',
  });
  t.like(option('letter.return_envelope.in_transit'), {
    name: 'Return Envelope In Transit',
    description: 'letter.return_envelope.in_transit, in live mode; test mode only through simulate',
  });
  t.like(option('letter.rejected'), {
    description: 'letter.rejected, in test and live mode; in test mode through simulate',
  });
  t.like(option('letter.return_envelope.created'), {
    description: 'letter.return_envelope.created, in test and live mode',
  });
});

test('a delivery signed with the kept secret emits the event; with Output "Object Only", its body', async (t) => {
  const body = JSON.stringify(EVENT);
  const whole = await registered();
  const answer = await post(whole.webhookUrl, body, signed(body));
  t.is(answer.status, 200);
  const [delivery] = await whole.waitForDeliveries(1);
  t.deepEqual(delivery.emitted, [EVENT]);

  const bodyOnly = await registered({ options: { output: 'body' } });
  t.is((await post(bodyOnly.webhookUrl, body, signed(body))).status, 200);
  t.deepEqual((await bodyOnly.waitForDeliveries(1))[0].emitted, [EVENT.body]);
});

test('a tampered body, a stale or missing timestamp, another secret: 401, and nothing starts', async (t) => {
  const harness = await registered();
  const body = JSON.stringify(EVENT);
  const tampered = body.replace('HARRY ZHANG', 'MALLORY');
  const cases: [string, string, Record<string, string>][] = [
    ['tampered body', tampered, signed(body)],
    ['stale timestamp', body, signed(body, SECRET, Math.floor(Date.now() / 1000) - 301)],
    ['timestamp from the future', body, signed(body, SECRET, Math.floor(Date.now() / 1000) + 310)],
    ['another secret', body, signed(body, 'whsec_someone_else')],
    ['no signature', body, { 'content-type': 'application/json' }],
  ];
  for (const [why, sent, headers] of cases) {
    const answer = await post(harness.webhookUrl, sent, headers);
    t.is(answer.status, 401, why);
    t.regex(((await answer.json()) as { error: { message: string } }).error.message, /^Signature refused/, why);
  }
  const deliveries = await harness.waitForDeliveries(cases.length);
  t.true(deliveries.every((d) => d.status === 401 && d.emitted === undefined));
});

test('a trigger that registered nothing refuses every delivery', async (t) => {
  const harness = await trigger({ resource: 'addresses', events: ['address.created'] });
  const body = JSON.stringify(EVENT);
  t.is((await post(harness.webhookUrl, body, signed(body))).status, 401);
});

test('activation registers a webhook for the node URL and the events; checkExists finds it; deactivation removes it', async (t) => {
  const harness = await trigger({ resource: 'postcards', events: ['postcard.created', 'postcard.rendered_pdf'] });
  t.false(await harness.hook('checkExists'));
  t.true(await harness.hook('create'));
  const { webhookId, webhookSecret } = harness.staticData as { webhookId: string; webhookSecret: string };
  t.regex(webhookId, /^wh_/);
  t.regex(webhookSecret, /^whsec_/);
  const stored = await api()('GET', `/v1/webhooks/${webhookId}`);
  t.is(stored.status, 200);
  t.is(stored.body.url, harness.webhookUrl);
  t.deepEqual([...stored.body.event_types].sort(), ['postcard.created', 'postcard.rendered_pdf']);
  t.true(stored.body.enabled);
  t.is(stored.body.secret, undefined, 'the secret is in the create answer only');
  t.true(await harness.hook('checkExists'));

  t.true(await harness.hook('delete'));
  t.is((await api()('GET', `/v1/webhooks/${webhookId}`)).status, 404);
  t.deepEqual({ ...harness.staticData }, {});
  t.false(await harness.hook('checkExists'));
  t.true(await harness.hook('delete'), 'nothing left to remove');
});

test('another choice of events replaces the webhook; one deleted on the engine is registered again', async (t) => {
  const first = await trigger({ resource: 'addresses', events: ['address.created'] });
  await first.activate();
  const kept = { ...first.staticData } as { webhookId: string; webhookSecret: string };
  // the same node, its events changed while the workflow was off: n8n keeps its static data
  const changed = await trigger(
    { resource: 'addresses', events: ['address.created', 'address.deleted'] },
    {
      'node:Printpost Trigger': { ...kept },
    },
  );
  t.false(await changed.hook('checkExists'));
  t.is((await api()('GET', `/v1/webhooks/${kept.webhookId}`)).status, 404, 'the old webhook is removed');
  t.true(await changed.hook('create'));
  const now = changed.staticData as { webhookId: string };
  t.not(now.webhookId, kept.webhookId);
  t.true(await changed.hook('checkExists'));

  t.is((await api()('DELETE', `/v1/webhooks/${now.webhookId}`)).status, 200);
  t.false(await changed.hook('checkExists'), 'gone from the engine: created again on activation');
  t.deepEqual({ ...changed.staticData }, {});
});

test('registering with a publishable key fails with the engine message', async (t) => {
  const harness = await TriggerHarness.start(
    loader,
    { apiKey: engine.keys.testPub, baseUrl: engine.url },
    { resource: 'addresses', events: ['address.created'] },
  );
  open.push(harness);
  const error = await t.throwsAsync(harness.hook('create'));
  t.is((error as { httpCode?: string }).httpCode, '403');
});

test('an activation the engine refuses carries the engine message and code in the error message and description', async (t) => {
  const harness = await trigger({ resource: 'addresses', events: ['address.exploded'] });
  const error = (await t.throwsAsync(harness.activate())) as Error & { description?: string; httpCode?: string };
  const said = /event_types names address\.exploded, which is not an event type/;
  t.regex(error.message, said);
  t.regex(error.message, /\binvalid\b/, 'the code');
  t.regex(String(error.description), said);
  t.regex(String(error.description), /\binvalid\b.*422/);
  t.is(error.httpCode, '422');
  t.deepEqual({ ...harness.staticData }, {}, 'nothing registered');
});

test('the engine delivers an event to the activated trigger, which emits it', async (t) => {
  const harness = await trigger({ resource: 'addresses', events: ['address.created'] });
  await harness.activate();
  const created = await api()('POST', '/v1/addresses', {
    json: {
      name: 'Trigger Test',
      address_line1: '210 King St',
      address_city: 'San Francisco',
      address_state: 'CA',
      address_zip: '94107',
    },
  });
  t.is(created.status, 200);
  const [delivery] = await harness.waitForDeliveries(1);
  t.is(delivery.status, 200);
  const [event] = delivery.emitted ?? [];
  t.like(event, { object: 'event', reference_id: created.body.id, event_type: { id: 'address.created' } });
  t.is((event.body as IDataObject).id, created.body.id);
});

test("a postcard's rendered_pdf event reaches the trigger with a link that fetches the PDF", async (t) => {
  const harness = await trigger({ resource: 'postcards', events: ['postcard.rendered_pdf'] });
  await harness.activate();
  const to = {
    name: 'Pdf Trigger',
    address_line1: '210 King St',
    address_city: 'San Francisco',
    address_state: 'CA',
    address_zip: '94107',
  };
  const html = '<html><body>Hi</body></html>';
  const created = await api()('POST', '/v1/postcards', {
    json: { to, from: { ...to, name: 'Pdf Sender' }, front: html, back: html, use_type: 'marketing' },
  });
  t.is(created.status, 200, JSON.stringify(created.body));
  const [delivery] = await harness.waitForDeliveries(1, 60_000);
  const [event] = delivery.emitted ?? [];
  t.like(event, { reference_id: created.body.id, event_type: { id: 'postcard.rendered_pdf' } });
  const pdf = await fetch(String((event.body as IDataObject).url));
  t.is(pdf.status, 200);
  t.is(
    Buffer.from(await pdf.arrayBuffer())
      .subarray(0, 5)
      .toString(),
    '%PDF-',
  );
});
