// The built Zapier app's instant triggers against a real engine, through zapier-platform-core's
// appTester: subscribe registers a webhook for Zapier's target URL (its answer, with the secret, is the
// subscribeData Zapier keeps), unsubscribe removes it, perform accepts only deliveries signed with that
// secret (Zapier hands headers over as `Http-Service-Signature`), performList reads recent real events
// for the editor's test step, an event the engine delivers passes perform, and during a secret
// rotation a delivery passes with the old or the new secret (after it, the new one only).
import test from 'ava';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHmac } from 'node:crypto';
import { join } from 'node:path';
import { startEngine, type TestEngine } from '../helpers/engine';
import { client } from '../helpers/http';
import { builtPacks } from './build-once';
import { packCatalog } from '../../nodes/common/catalog-data';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const zapier = require('zapier-platform-core') as typeof import('zapier-platform-core');

type AnyObj = Record<string, any>;
/** A subscribe answer, as Zapier keeps it for the Zap. */
type Subscription = AnyObj & { id: string };
let engine: TestEngine;
let app: AnyObj;
let appTester: ReturnType<typeof zapier.createAppTester>;
let receiver: http.Server;
let targetBase: string;
/** What Zapier's hook URLs received: the raw request as Zapier hands it to perform. */
const received: { path: string; rawRequest: { headers: Record<string, string>; content: string } }[] = [];

const auth = () => ({ authData: { api_key: engine.keys.test, base_url: engine.url } });
const api = () => client(engine.url, engine.keys.test);
const hook = (key: string) => app.triggers[key].operation;

/** Zapier's form of an incoming header name: `service-signature` -> `Http-Service-Signature`. */
const zapierHeader = (name: string) =>
  `Http-${name.replace(/(^|-)(\w)/g, (_m, dash: string, c: string) => dash + c.toUpperCase())}`;

function signedRaw(content: string, secret: string, seconds = Math.floor(Date.now() / 1000)) {
  const timestamp = String(seconds);
  return {
    content,
    headers: {
      'Http-Content-Type': 'application/json',
      'Http-Service-Signature-Timestamp': timestamp,
      'Http-Service-Signature': createHmac('sha256', secret).update(`${timestamp}.${content}`).digest('hex'),
    },
  };
}

const address = (name: string) => ({
  name,
  address_line1: '210 King St',
  address_city: 'San Francisco',
  address_state: 'CA',
  address_zip: '94107',
});

test.before(async () => {
  engine = await startEngine({
    settings: { rate_limit_per_5s: 100000 },
    // a postcard's rendered_pdf event (its browser starts only with that first render)
    workers: true,
    // Zapier's hook URLs are stood in for by a server on loopback
    env: { ALLOWED_PRIVATE_NETWORKS: '127.0.0.0/8' },
  });
  const { zapierDir } = await builtPacks();
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  app = require(join(zapierDir, require(join(zapierDir, 'package.json')).main));
  appTester = zapier.createAppTester(app);
  receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(req.headers)) headers[zapierHeader(name)] = String(value);
      received.push({
        path: String(req.url),
        rawRequest: { headers, content: Buffer.concat(chunks).toString('utf8') },
      });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"success"}');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  targetBase = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks/catch`;
});

test.after.always(async () => {
  await engine?.close();
  await new Promise((resolve) => receiver?.close(resolve));
});

test('an instant trigger per event family, its event types to choose from', (t) => {
  for (const r of packCatalog.filter((x) => x.events.length > 0)) {
    const trigger = app.triggers[`${r.object}_event`];
    t.is(trigger?.operation.type, 'hook', r.name);
    t.deepEqual(
      trigger.operation.inputFields[0].choices.map((c: AnyObj) => c.value),
      r.events,
    );
    t.is(trigger.operation.sample.event_type.id, r.events[0]);
  }
  const label = (type: string) =>
    hook('letter_event').inputFields[0].choices.find((c: AnyObj) => c.value === type).label as string;
  t.is(label('letter.certified.delivered'), 'Certified Delivered (live mode; test mode only through simulate)');
  // every tracking exception and a rejection can be tried in test mode through simulate's `event`
  t.is(label('letter.re-routed'), 'Re-routed (live mode; test mode only through simulate)');
  t.is(
    label('letter.return_envelope.processed_for_delivery'),
    'Return Envelope Processed For Delivery (live mode; test mode only through simulate)',
  );
  t.is(label('letter.rejected'), 'Rejected (test and live mode; in test mode through simulate)');
  t.is(label('letter.created'), 'Created (test and live mode)');
});

test('subscribe registers a webhook for the target URL and the types chosen; unsubscribe removes it', async (t) => {
  const targetUrl = `${targetBase}/subscribe-test`;
  const subscription = (await appTester(hook('postcard_event').performSubscribe, {
    ...auth(),
    targetUrl,
    inputData: { event_types: ['postcard.created', 'postcard.rendered_pdf'] },
  })) as Subscription;
  t.regex(subscription.id, /^wh_/);
  t.regex(subscription.secret, /^whsec_/);
  const stored = await api()('GET', `/v1/webhooks/${subscription.id}`);
  t.is(stored.body.url, targetUrl);
  t.deepEqual([...stored.body.event_types].sort(), ['postcard.created', 'postcard.rendered_pdf']);

  await appTester(hook('postcard_event').performUnsubscribe, {
    ...auth(),
    subscribeData: subscription,
  });
  t.is((await api()('GET', `/v1/webhooks/${subscription.id}`)).status, 404);
  t.deepEqual(
    await appTester(hook('postcard_event').performUnsubscribe, {
      ...auth(),
      subscribeData: subscription,
    }),
    { id: subscription.id, deleted: true },
    'already gone is unsubscribed',
  );
});

test('no types chosen subscribes every type of the family', async (t) => {
  const subscription = (await appTester(hook('bank_account_event').performSubscribe, {
    ...auth(),
    targetUrl: `${targetBase}/all-types`,
    inputData: {},
  })) as Subscription;
  const family = packCatalog.find((r) => r.name === 'bank_accounts')!.events;
  t.deepEqual([...subscription.event_types].sort(), [...family].sort());
  await appTester(hook('bank_account_event').performUnsubscribe, {
    ...auth(),
    subscribeData: subscription,
  });
});

test('perform passes a delivery signed with the subscription secret, and halts any other', async (t) => {
  const secret = 'whsec_zapier_test_secret';
  const event = {
    id: 'evt_0a1b2c3d4e5f6a7b',
    body: { id: 'adr_0a1b2c3d4e5f6a7b', object: 'address' },
    reference_id: 'adr_0a1b2c3d4e5f6a7b',
    event_type: { id: 'address.created', enabled_for_test: true, resource: 'addresses', object: 'event_type' },
    date_created: '2026-11-20T18:39:45.123Z',
    object: 'event',
  };
  const content = JSON.stringify(event);
  const bundle = (rawRequest: AnyObj) => ({
    ...auth(),
    subscribeData: { id: 'wh_0a1b2c3d4e5f6a7b', secret },
    cleanedRequest: JSON.parse(rawRequest.content),
    rawRequest,
  });
  t.deepEqual(await appTester(hook('address_event').perform, bundle(signedRaw(content, secret))), [event]);
  const refusals: [string, AnyObj][] = [
    ['tampered', { ...signedRaw(content, secret), content: content.replace('adr_0a1b', 'adr_ffff') }],
    ['stale', signedRaw(content, secret, Math.floor(Date.now() / 1000) - 301)],
    ['other secret', signedRaw(content, 'whsec_other')],
    ['unsigned', { content, headers: {} }],
  ];
  for (const [why, raw] of refusals) {
    // Zapier's errors are not Error instances
    const error = (await t.throwsAsync(appTester(hook('address_event').perform, bundle(raw)), { any: true }, why)) as
      AnyObj | undefined;
    t.is(error?.name, 'HaltedError', why);
    t.regex(String(error?.message), /Delivery refused/, why);
  }
});

// serial: the file's other tests create addresses on the same account, which would come between
test.serial("performList returns the account's recent real events of the types chosen, newest first", async (t) => {
  const first = await api()('POST', '/v1/addresses', { json: address('List One') });
  // events are ordered by their millisecond stamps (ties by id): two creates in one millisecond have no order
  await new Promise((resolve) => setTimeout(resolve, 5));
  const second = await api()('POST', '/v1/addresses', { json: address('List Two') });
  const events = (await appTester(hook('address_event').performList, {
    ...auth(),
    inputData: { event_types: ['address.created'] },
  })) as AnyObj[];
  t.true(events.length > 0 && events.length <= 3);
  t.true(events.every((e) => e.object === 'event' && e.event_type.id === 'address.created'));
  t.is(events[0].reference_id, second.body.id);
  t.true(events.some((e) => e.reference_id === first.body.id));
  t.is(events[0].body.name, 'LIST TWO');
  // several types in one request: a delete after the creates comes first
  await new Promise((resolve) => setTimeout(resolve, 5));
  await api()('DELETE', `/v1/addresses/${first.body.id}`);
  const both = (await appTester(hook('address_event').performList, {
    ...auth(),
    inputData: { event_types: ['address.created', 'address.deleted'] },
  })) as AnyObj[];
  t.is(both[0].event_type.id, 'address.deleted');
  t.is(both[0].reference_id, first.body.id);
  t.true(both.some((e) => e.event_type.id === 'address.created'));
});

test('an event the engine delivers to the target URL passes perform', async (t) => {
  const targetUrl = `${targetBase}/delivery-test`;
  const subscription = (await appTester(hook('address_event').performSubscribe, {
    ...auth(),
    targetUrl,
    inputData: { event_types: ['address.created'] },
  })) as Subscription;
  const created = await api()('POST', '/v1/addresses', { json: address('Hook Delivery') });
  // addresses other tests create may be delivered to it too: the one made here is waited for
  const ours = (r: (typeof received)[number]) =>
    r.path === '/hooks/catch/delivery-test' && r.rawRequest.content.includes(String(created.body.id));
  const until = Date.now() + 30_000;
  while (!received.some(ours) && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 100));
  const delivery = received.find(ours);
  t.truthy(delivery, 'the engine delivered');
  const [event] = (await appTester(hook('address_event').perform, {
    ...auth(),
    subscribeData: subscription,
    cleanedRequest: JSON.parse(delivery!.rawRequest.content),
    rawRequest: delivery!.rawRequest,
  })) as AnyObj[];
  t.is(event.reference_id, created.body.id);
  t.is(event.body.id, created.body.id);
  await appTester(hook('address_event').performUnsubscribe, {
    ...auth(),
    subscribeData: subscription,
  });
});

test("a postcard's rendered_pdf event passes perform with a link that fetches the PDF", async (t) => {
  const targetUrl = `${targetBase}/pdf-test`;
  const subscription = (await appTester(hook('postcard_event').performSubscribe, {
    ...auth(),
    targetUrl,
    inputData: { event_types: ['postcard.rendered_pdf'] },
  })) as Subscription;
  const html = '<html><body>Hi</body></html>';
  const created = await api()('POST', '/v1/postcards', {
    json: { to: address('Pdf Hook'), from: address('Pdf Sender'), front: html, back: html, use_type: 'marketing' },
  });
  t.is(created.status, 200, JSON.stringify(created.body));
  const ours = (r: (typeof received)[number]) =>
    r.path === '/hooks/catch/pdf-test' && r.rawRequest.content.includes(String(created.body.id));
  const until = Date.now() + 60_000;
  while (!received.some(ours) && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 100));
  const delivery = received.find(ours);
  t.truthy(delivery, 'the engine delivered');
  const [event] = (await appTester(hook('postcard_event').perform, {
    ...auth(),
    subscribeData: subscription,
    cleanedRequest: JSON.parse(delivery!.rawRequest.content),
    rawRequest: delivery!.rawRequest,
  })) as AnyObj[];
  t.is(event.event_type.id, 'postcard.rendered_pdf');
  const pdf = await fetch(String(event.body.url));
  t.is(pdf.status, 200);
  t.is(
    Buffer.from(await pdf.arrayBuffer())
      .subarray(0, 5)
      .toString(),
    '%PDF-',
  );
  await appTester(hook('postcard_event').performUnsubscribe, { ...auth(), subscribeData: subscription });
});

test('during a rotation perform passes deliveries with the old or the new secret; after it, the new one only', async (t) => {
  const targetUrl = `${targetBase}/rotation-test`;
  const subscription = (await appTester(hook('address_event').performSubscribe, {
    ...auth(),
    targetUrl,
    inputData: { event_types: ['address.created'] },
  })) as Subscription;
  // long enough for the first delivery to arrive inside it on a loaded machine (3 s was not, under CI)
  const OVERLAP_S = 12;
  const rotated = await api()<{ secret: string; previous_secret_expires_at: string }>(
    'POST',
    `/v1/webhooks/${subscription.id}/rotate_secret`,
    { json: { expires_in_hours: OVERLAP_S / 3600 } },
  );
  t.is(rotated.status, 200);
  const delivered = async (name: string) => {
    const created = await api()('POST', '/v1/addresses', { json: address(name) });
    const ours = (r: (typeof received)[number]) =>
      r.path === '/hooks/catch/rotation-test' && r.rawRequest.content.includes(String(created.body.id));
    const until = Date.now() + 30_000;
    while (!received.some(ours) && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 100));
    return received.find(ours)!.rawRequest;
  };
  const perform = (secret: string, rawRequest: AnyObj) =>
    appTester(hook('address_event').perform, {
      ...auth(),
      subscribeData: { ...subscription, secret } as Subscription,
      cleanedRequest: JSON.parse(rawRequest.content),
      rawRequest,
    }) as Promise<AnyObj[]>;

  const during = await delivered('Rotation During');
  t.is((await perform(subscription.secret, during))[0].body.name, 'ROTATION DURING', 'the Zap, with the old secret');
  t.is((await perform(rotated.body.secret, during))[0].body.name, 'ROTATION DURING', 'a Zap with the new secret');

  const until = Date.parse(rotated.body.previous_secret_expires_at);
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, until - Date.now() + 200)));
  const after = await delivered('Rotation After');
  t.is((await perform(rotated.body.secret, after))[0].body.name, 'ROTATION AFTER');
  const error = (await t.throwsAsync(perform(subscription.secret, after), { any: true })) as AnyObj | undefined;
  t.is(error?.name, 'HaltedError', 'the old secret signs nothing after the overlap');
  await appTester(hook('address_event').performUnsubscribe, { ...auth(), subscribeData: subscription });
});
