// Webhooks over real HTTP, with real receivers on 127.0.0.1 (allowed by the engine's
// ALLOWED_PRIVATE_NETWORKS), on both databases: the secret shown once, deliveries signed with it,
// retried after 500s and time-outs with every attempt kept, in event order per endpoint, a slow
// endpoint holding up only itself, and nothing delivered across modes or accounts.
import { databaseSuite, type SuiteContext } from '../../helpers/suite';
import { client } from '../../helpers/http';
import { startReceiver, type Received } from '../../helpers/receiver';
import { verifySignature } from '../../../engine/protocol/webhook-signature';
import { TO as ADDRESS } from '../../helpers/mail';

// The receivers answer at once or after 400 ms; the engine's time limit must stay well above that even on
// a loaded CI machine, or a slow answer counts as a time-out and its event is (rightly) sent again.
const { test, serial } = databaseSuite({
  env: { ALLOWED_PRIVATE_NETWORKS: '127.0.0.0/8', WEBHOOK_RETRY_BASE_MS: '50', WEBHOOK_TIMEOUT_MS: '2000' },
});

/** An account of its own, so one test's events never reach another's webhooks. */
async function account({ engine }: SuiteContext) {
  const name = `hooks-${Math.random().toString(36).slice(2)}`;
  const keys = await engine.createAccount(name);
  await engine.setSetting('rate_limit_per_5s', 100_000, name);
  return { api: client(engine.url, keys.test), keys, name };
}

type Api = ReturnType<typeof client>;

async function hook(api: Api, url: string, eventTypes: string[] = ['address.created']) {
  const reply = await api<Record<string, unknown>>('POST', '/v1/webhooks', { json: { url, event_types: eventTypes } });
  if (reply.status !== 200) throw new Error(`webhook: ${reply.status} ${JSON.stringify(reply.body)}`);
  return reply.body as { id: string; secret: string };
}

async function address(api: Api, name = ADDRESS.name): Promise<string> {
  const reply = await api<{ id: string }>('POST', '/v1/addresses', { json: { ...ADDRESS, name } });
  if (reply.status !== 200) throw new Error(`address: ${reply.status}`);
  return reply.body.id;
}

const eventOf = (r: Received) =>
  JSON.parse(r.body) as { id: string; reference_id: string; event_type: { id: string }; object: string };

test('the secret is shown once; unknown event types, private addresses and publishable keys are refused', async (t, ctx) => {
  const { api, keys } = await account(ctx);
  const created = await api<Record<string, unknown>>('POST', '/v1/webhooks', {
    json: { url: 'https://example.com/hook', event_types: ['postcard.created', 'letter.certified.delivered'] },
  });
  t.is(created.status, 200, JSON.stringify(created.body));
  t.regex(String(created.body.secret), /^whsec_/);
  t.like(created.body, { object: 'webhook', enabled: true, url: 'https://example.com/hook' });
  const fetched = await api<Record<string, unknown>>('GET', `/v1/webhooks/${String(created.body.id)}`);
  t.is(fetched.status, 200);
  t.false('secret' in fetched.body, 'retrieve never shows the secret');
  const listed = await api<{ data: Record<string, unknown>[] }>('GET', '/v1/webhooks');
  t.false(
    listed.body.data.some((w) => 'secret' in w),
    'lists never show the secret',
  );
  const updated = await api<Record<string, unknown>>('POST', `/v1/webhooks/${String(created.body.id)}`, {
    json: { enabled: false },
  });
  t.like(updated.body, { enabled: false });
  t.false('secret' in updated.body);

  const refused = async (json: unknown, key = keys.test) =>
    (await client(ctx.engine.url, key)<{ error: { message: string; code: string } }>('POST', '/v1/webhooks', { json }))
      .body.error?.message ?? '';
  t.regex(await refused({ url: 'https://example.com', event_types: ['postcard.eaten'] }), /postcard\.eaten/);
  t.regex(await refused({ url: 'http://10.1.2.3/hook', event_types: ['*'] }), /ALLOWED_PRIVATE_NETWORKS/);
  t.regex(await refused({ url: 'ftp://example.com', event_types: ['*'] }), /url/);
  t.regex(await refused({ url: 'http://[::1', event_types: ['*'] }), /url must be an http\(s\) URL/);
  t.regex(await refused({ url: 'https://example.com', event_types: ['*', 'address.created'] }), /\*/);
  t.regex(await refused({ url: 'https://example.com', event_types: ['*'] }, keys.testPub), /secret API key/);
  const gone = await api('DELETE', `/v1/webhooks/${String(created.body.id)}`);
  t.deepEqual(gone.body, { id: created.body.id, deleted: true });
});

test('a delivery is the event, signed with the webhook secret, and listed among the events', async (t, ctx) => {
  const { api } = await account(ctx);
  const receiver = await startReceiver();
  try {
    const { secret } = await hook(api, receiver.url);
    const id = await address(api);
    const [delivery] = await receiver.waitFor(1);
    const event = eventOf(delivery);
    t.like(event, { object: 'event', reference_id: id, event_type: { id: 'address.created' } });
    t.is(delivery.headers['content-type'], 'application/json');
    const timestamp = String(delivery.headers['service-signature-timestamp']);
    const given = String(delivery.headers['service-signature']);
    t.true(verifySignature(secret, delivery.body, timestamp, given), 'signed with the secret');
    t.false(verifySignature(`${secret}x`, delivery.body, timestamp, given), 'and not with another');
    t.false(verifySignature(secret, `${delivery.body} `, timestamp, given), 'nor over another body');
    const listed = await api<{ data: { id: string }[] }>('GET', '/v1/events?event_type=address.created');
    t.true(listed.body.data.some((e) => e.id === event.id));
    const one = await api<{ id: string }>('GET', `/v1/events/${event.id}`);
    t.is(one.body.id, event.id);
  } finally {
    await receiver.close();
  }
});

serial('500s and time-outs are retried with backoff, every attempt kept, until one succeeds', async (t, ctx) => {
  const { api } = await account(ctx);
  // 500, no answer within WEBHOOK_TIMEOUT_MS, 500, then 200
  const receiver = await startReceiver((call) => (call === 2 ? { hang: true } : { status: call <= 3 ? 500 : 200 }));
  try {
    const { id } = await hook(api, receiver.url);
    await address(api);
    const attempts = await receiver.waitFor(4);
    t.is(new Set(attempts.map((r) => eventOf(r).id)).size, 1, 'the same event each time');
    const kept = await api<{ data: { attempt: number; status: string; response_status: number | null }[] }>(
      'GET',
      `/v1/webhooks/${id}/deliveries?limit=10`,
    );
    for (let i = 0; i < 50 && kept.body.data.length < 4; i++) {
      await new Promise((r) => setTimeout(r, 100));
      Object.assign(kept, await api('GET', `/v1/webhooks/${id}/deliveries?limit=10`));
    }
    const byAttempt = [...kept.body.data].sort((a, b) => a.attempt - b.attempt);
    t.deepEqual(
      byAttempt.map((a) => [a.attempt, a.status, a.response_status]),
      [
        [1, 'failed', 500],
        [2, 'failed', null],
        [3, 'failed', 500],
        [4, 'succeeded', 200],
      ],
    );
  } finally {
    await receiver.close();
  }
});

test('events reach each endpoint in the order they happened; a slow endpoint holds up only itself', async (t, ctx) => {
  const { api } = await account(ctx);
  const slow = await startReceiver(() => ({ delayMs: 400 }));
  const fast = await startReceiver();
  try {
    await hook(api, slow.url);
    await hook(api, fast.url);
    const created: string[] = [];
    for (let i = 0; i < 8; i++) created.push(await address(api, `Person ${i}`));
    const quick = await fast.waitFor(8);
    t.true(slow.received.length < 8, `the fast endpoint had all 8 while the slow one had ${slow.received.length}`);
    const logged = await api<{ data: { reference_id: string }[] }>(
      'GET',
      '/v1/events?event_type=address.created&limit=20',
    );
    const order = logged.body.data.map((e) => e.reference_id).reverse();
    t.deepEqual(
      quick.map((r) => eventOf(r).reference_id),
      order,
    );
    const late = await slow.waitFor(8);
    t.deepEqual(
      late.map((r) => eventOf(r).reference_id),
      order,
    );
    t.deepEqual([...order].sort(), [...created].sort());
  } finally {
    await Promise.all([slow.close(), fast.close()]);
  }
});

test("nothing reaches another mode's or another account's webhooks", async (t, ctx) => {
  const mine = await account(ctx);
  const theirs = await account(ctx);
  await ctx.engine.setSetting('payment_method_verified', true, mine.name);
  await ctx.engine.setSetting('email_verified', true, mine.name);
  const live = client(ctx.engine.url, mine.keys.live);
  const testReceiver = await startReceiver();
  const liveReceiver = await startReceiver();
  try {
    await hook(mine.api, testReceiver.url, ['*']);
    await hook(live, liveReceiver.url, ['*']);
    await address(theirs.api);
    const own = await address(mine.api);
    const ownLive = await address(live);
    const [gotTest] = await testReceiver.waitFor(1);
    const [gotLive] = await liveReceiver.waitFor(1);
    t.is(eventOf(gotTest).reference_id, own);
    t.is(eventOf(gotLive).reference_id, ownLive);
    await new Promise((r) => setTimeout(r, 600));
    t.is(testReceiver.received.length, 1, 'only its own account and mode');
    t.is(liveReceiver.received.length, 1, 'only its own account and mode');
  } finally {
    await Promise.all([testReceiver.close(), liveReceiver.close()]);
  }
});
