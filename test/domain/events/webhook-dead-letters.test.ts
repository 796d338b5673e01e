// Dead letters are visible and a disable is an event (both databases, real receivers on 127.0.0.1):
// every failed delivery is listed, attempted or not, with why; disabling a webhook (by the engine after
// WEBHOOK_DISABLE_AFTER_HOURS, 0.72 s here, or by an update) commits `webhook.disabled`, listed by
// GET /v1/events and delivered to the account's other enabled webhooks that take it, never to the
// disabled one.
import { databaseSuite, type SuiteContext } from '../../helpers/suite';
import { client } from '../../helpers/http';
import { startReceiver, type Received } from '../../helpers/receiver';
import { TO as ADDRESS } from '../../helpers/mail';

const { test } = databaseSuite({
  env: {
    ALLOWED_PRIVATE_NETWORKS: '127.0.0.1/32',
    WEBHOOK_RETRY_BASE_MS: '5',
    WEBHOOK_TIMEOUT_MS: '2000',
    WEBHOOK_DISABLE_AFTER_HOURS: '0.0002',
  },
});

interface Hook {
  id: string;
  enabled: boolean;
  disabled_reason: string | null;
}
interface Attempt {
  event_id: string;
  attempt: number;
  status: string;
  delivery_status: string;
  response_excerpt: string;
}
interface EventBody {
  id: string;
  event_type: { id: string };
  body: Record<string, unknown>;
}

async function account({ engine }: SuiteContext) {
  const name = `dead-${Math.random().toString(36).slice(2)}`;
  const keys = await engine.createAccount(name);
  await engine.setSetting('rate_limit_per_5s', 100_000, name);
  return client(engine.url, keys.test);
}

type Api = Awaited<ReturnType<typeof account>>;

async function disabledOnce(api: Api, id: string): Promise<Hook> {
  let seen = (await api<Hook>('GET', `/v1/webhooks/${id}`)).body;
  for (let i = 0; i < 150 && seen.enabled; i++) {
    await new Promise((r) => setTimeout(r, 100));
    seen = (await api<Hook>('GET', `/v1/webhooks/${id}`)).body;
  }
  return seen;
}

const typesOf = (received: readonly Received[]) => received.map((r) => (JSON.parse(r.body) as EventBody).event_type.id);

test('every failed delivery of a disabled webhook is listed, attempted or not, with its status and why', async (t, ctx) => {
  const api = await account(ctx);
  const receiver = await startReceiver(() => ({ status: 500 }));
  try {
    const hook = (
      await api<Hook>('POST', '/v1/webhooks', { json: { url: receiver.url, event_types: ['address.created'] } })
    ).body;
    // three events at once: the first one's 8 attempts outlast 0.72 s, so the webhook is disabled
    // while the other two wait, never attempted
    const ids = new Set<string>();
    for (let i = 0; i < 3; i++)
      ids.add((await api<{ id: string }>('POST', '/v1/addresses', { json: ADDRESS })).body.id);
    t.false((await disabledOnce(api, hook.id)).enabled, 'disabled by the engine');
    const page = await api<{ data: Attempt[] }>('GET', `/v1/webhooks/${hook.id}/deliveries?status=failed&limit=100`);
    t.is(page.status, 200, JSON.stringify(page.body));
    const events = new Set(page.body.data.map((a) => a.event_id));
    t.is(events.size, 3, `every dead-lettered event is listed: ${JSON.stringify(page.body.data)}`);
    t.true(page.body.data.every((a) => a.delivery_status === 'failed' && a.status === 'failed'));
    const setAside = page.body.data.filter((a) => a.attempt === 0);
    t.true(setAside.length >= 2, 'the two never attempted are there, as attempt 0');
    for (const a of setAside) t.regex(a.response_excerpt, /^not attempted: the webhook was disabled: every delivery/);
    // the events are those of the three addresses
    const listed = await api<{ data: EventBody[] }>('GET', '/v1/events?event_type=address.created&limit=100');
    const ofAddresses = listed.body.data.filter((e) => ids.has(String(e.body.id))).map((e) => e.id);
    t.deepEqual([...events].sort(), ofAddresses.sort());
  } finally {
    await receiver.close();
  }
});

test('disabling a webhook records webhook.disabled with why, delivered to the other enabled webhooks that take it', async (t, ctx) => {
  const api = await account(ctx);
  const failing = await startReceiver(() => ({ status: 500 }));
  const watcher = await startReceiver(() => ({ status: 200 }));
  try {
    // the failing webhook takes webhook.disabled too: it must never get its own
    const doomed = (
      await api<Hook>('POST', '/v1/webhooks', {
        json: { url: failing.url, event_types: ['address.created', 'webhook.disabled'] },
      })
    ).body;
    const watching = (
      await api<Hook>('POST', '/v1/webhooks', { json: { url: watcher.url, event_types: ['webhook.disabled'] } })
    ).body;
    t.truthy(watching.id);
    await api('POST', '/v1/addresses', { json: ADDRESS });
    const disabled = await disabledOnce(api, doomed.id);
    t.false(disabled.enabled);

    const [auto] = await watcher.waitFor(1);
    const sent = JSON.parse(auto.body) as EventBody;
    t.is(sent.event_type.id, 'webhook.disabled');
    t.like(sent.body, { id: doomed.id, enabled: false, disabled_reason: disabled.disabled_reason });
    t.false('secret' in sent.body, 'the event carries no secret');
    const listed = await api<{ data: EventBody[] }>('GET', '/v1/events?event_type=webhook.disabled&limit=100');
    t.deepEqual(
      listed.body.data.map((e) => e.body.id),
      [doomed.id],
      'listed by GET /v1/events',
    );

    // by an update: once, with why
    const other = (
      await api<Hook>('POST', '/v1/webhooks', { json: { url: watcher.url, event_types: ['address.created'] } })
    ).body;
    t.is((await api('POST', `/v1/webhooks/${other.id}`, { json: { enabled: false } })).status, 200);
    t.is((await api('POST', `/v1/webhooks/${other.id}`, { json: { enabled: false } })).status, 200);
    const got = await watcher.waitFor(2);
    const byUpdate = JSON.parse(got[1].body) as EventBody;
    t.like(byUpdate.body, { id: other.id, enabled: false, disabled_reason: 'disabled by an update (enabled: false)' });
    await new Promise((r) => setTimeout(r, 500));
    t.deepEqual(typesOf(watcher.received), ['webhook.disabled', 'webhook.disabled'], 'a second disable emits nothing');
    t.false(typesOf(failing.received).includes('webhook.disabled'), 'never sent to the disabled webhook');
  } finally {
    await failing.close();
    await watcher.close();
  }
});
