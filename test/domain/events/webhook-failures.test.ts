// No event lost in silence, with real receivers on 127.0.0.1 on both databases: a delivery that had
// every attempt is kept and listed as failed, and a replay (one, or all) delivers it once the receiver
// answers again; a URL delivery would never reach is refused at create and update, naming
// ALLOWED_PRIVATE_NETWORKS, and taken where the operator allows the network.
import { databaseSuite, type SuiteContext } from '../../helpers/suite';
import { startEngine } from '../../helpers/engine';
import { client } from '../../helpers/http';
import { startReceiver, type Received } from '../../helpers/receiver';
import { TO as ADDRESS } from '../../helpers/mail';
import { DELIVERY_ATTEMPTS } from '../../../engine/domain/events/delivery';

const { test } = databaseSuite({
  env: { ALLOWED_PRIVATE_NETWORKS: '127.0.0.1/32', WEBHOOK_RETRY_BASE_MS: '5', WEBHOOK_TIMEOUT_MS: '2000' },
});

async function account({ engine }: SuiteContext) {
  const name = `failures-${Math.random().toString(36).slice(2)}`;
  const keys = await engine.createAccount(name);
  await engine.setSetting('rate_limit_per_5s', 100_000, name);
  return client(engine.url, keys.test);
}

type Api = Awaited<ReturnType<typeof account>>;
interface Attempt {
  id: string;
  event_id: string;
  attempt: number;
  status: string;
  delivery_status: string;
}
interface ApiError {
  error: { message: string; code: string; status_code: number };
}

const eventIdOf = (r: Received) => (JSON.parse(r.body) as { id: string }).id;

async function address(api: Api): Promise<string> {
  const reply = await api<{ id: string }>('POST', '/v1/addresses', { json: ADDRESS });
  if (reply.status !== 200) throw new Error(`address: ${reply.status}`);
  return reply.body.id;
}

/** The webhook's attempts of deliveries in `status`, once there are `count` of them. */
async function attemptsOf(api: Api, hook: string, status: string, count: number): Promise<Attempt[]> {
  for (let i = 0; ; i++) {
    const page = await api<{ data: Attempt[] }>('GET', `/v1/webhooks/${hook}/deliveries?status=${status}&limit=100`);
    if (page.body.data.length >= count || i === 100) return page.body.data;
    await new Promise((r) => setTimeout(r, 100));
  }
}

test('a delivery out of attempts is listed as failed; a replay delivers it once the receiver answers (one, then all)', async (t, ctx) => {
  const api = await account(ctx);
  let failing = true;
  const receiver = await startReceiver(() => ({ status: failing ? 503 : 200 }));
  try {
    const created = await api<{ id: string }>('POST', '/v1/webhooks', {
      json: { url: receiver.url, event_types: ['address.created'] },
    });
    const hook = created.body.id;
    await address(api);
    const first = eventIdOf((await receiver.waitFor(DELIVERY_ATTEMPTS))[0]);
    await address(api);
    const second = eventIdOf((await receiver.waitFor(2 * DELIVERY_ATTEMPTS))[DELIVERY_ATTEMPTS]);
    const failed = await attemptsOf(api, hook, 'failed', 2 * DELIVERY_ATTEMPTS);
    t.is(failed.length, 2 * DELIVERY_ATTEMPTS, 'every attempt of both deliveries is listed');
    t.true(failed.every((a) => a.delivery_status === 'failed' && a.status === 'failed'));
    t.deepEqual([...new Set(failed.map((a) => a.event_id))].sort(), [first, second].sort());
    t.is((await attemptsOf(api, hook, 'pending', 0)).length, 0, 'nothing left pending: they are failed');
    await new Promise((r) => setTimeout(r, 300));
    t.is(receiver.received.length, 2 * DELIVERY_ATTEMPTS, 'no attempt after the last one');

    failing = false;
    const one = await api<{ queued: number; object: string }>(
      'POST',
      `/v1/webhooks/${hook}/deliveries/${first}/replay`,
    );
    t.deepEqual(one.body, { queued: 1, object: 'webhook_replay' });
    const replayed = await receiver.waitFor(2 * DELIVERY_ATTEMPTS + 1);
    t.is(eventIdOf(replayed[2 * DELIVERY_ATTEMPTS]), first);
    const delivered = await attemptsOf(api, hook, 'succeeded', DELIVERY_ATTEMPTS + 1);
    t.true(delivered.every((a) => a.event_id === first && a.delivery_status === 'succeeded'));
    t.like(delivered[0], { attempt: 1, status: 'succeeded' });
    const again = await api<ApiError>('POST', `/v1/webhooks/${hook}/deliveries/${first}/replay`);
    t.is(again.status, 422);
    t.regex(again.body.error.message, /is succeeded: only a failed delivery is replayed/);
    const unknown = await api<ApiError>('POST', `/v1/webhooks/${hook}/deliveries/evt_0000000000000000/replay`);
    t.is(unknown.status, 404);

    const all = await api<{ queued: number }>('POST', `/v1/webhooks/${hook}/replay`);
    t.is(all.body.queued, 1, 'the one still failed');
    t.is(eventIdOf((await receiver.waitFor(2 * DELIVERY_ATTEMPTS + 2))[2 * DELIVERY_ATTEMPTS + 1]), second);
    await attemptsOf(api, hook, 'succeeded', 2 * DELIVERY_ATTEMPTS + 2);
    t.is((await api<{ queued: number }>('POST', `/v1/webhooks/${hook}/replay`)).body.queued, 0);
    t.is((await attemptsOf(api, hook, 'failed', 0)).length, 0);
  } finally {
    await receiver.close();
  }
});

test('a URL delivery never reaches is refused at create and update, naming ALLOWED_PRIVATE_NETWORKS', async (t, ctx) => {
  // an engine of its own (its workers must not take this suite's deliveries) allowing no private network
  const strict = await startEngine({ db: ctx.db });
  try {
    const keys = await strict.createAccount(`strict-${Math.random().toString(36).slice(2)}`);
    const api = client(strict.url, keys.test);
    const create = (url: string) => api<ApiError>('POST', '/v1/webhooks', { json: { url, event_types: ['*'] } });
    for (const url of [
      'http://localhost:9/hook',
      'http://LOCALHOST./hook',
      'http://127.0.0.1:9/hook',
      'http://10.1.2.3/hook',
      'http://192.168.0.10:8080/hook',
      'http://169.254.169.254/latest',
      'http://[::1]/hook',
      'http://[fd00::1]/hook',
      'http://[::ffff:10.0.0.1]/hook',
      'http://receiver.invalid/hook',
      'http://app.localhost/hook',
      'http://intranet/hook',
    ]) {
      const refused = await create(url);
      t.is(refused.status, 422, url);
      t.like(refused.body.error, { code: 'invalid', status_code: 422 }, url);
      t.regex(refused.body.error.message, /ALLOWED_PRIVATE_NETWORKS/, url);
    }
    t.regex((await create('http://localhost:9/hook')).body.error.message, /localhost, which resolves to 127\.0\.0\.1/);
    t.regex((await create('http://[::1]/hook')).body.error.message, /loopback/);
    t.regex((await create('http://nowhere.test/hook')).body.error.message, /does not resolve/);
    t.is((await create('https://93.184.215.14/hook')).status, 200, 'a public address is taken');
    const publicHook = await api<{ id: string }>('POST', '/v1/webhooks', {
      json: { url: 'https://93.184.215.14/hook', event_types: ['*'] },
    });
    for (const url of ['http://localhost/hook', 'http://10.0.0.1/hook', 'http://receiver.invalid/hook']) {
      const refused = await api<ApiError>('POST', `/v1/webhooks/${publicHook.body.id}`, { json: { url } });
      t.is(refused.status, 422, url);
      t.regex(refused.body.error.message, /ALLOWED_PRIVATE_NETWORKS/, url);
    }
  } finally {
    await strict.close();
  }

  // where the operator allows 127.0.0.1, it is taken, by address and by name; the rest of loopback is not
  const api = await account(ctx);
  const create = (url: string) => api<ApiError>('POST', '/v1/webhooks', { json: { url, event_types: ['*'] } });
  const allowed = await api<{ id: string; disabled_reason: null }>('POST', '/v1/webhooks', {
    json: { url: 'http://127.0.0.1:9/hook', event_types: ['*'] },
  });
  t.is(allowed.status, 200);
  t.is(allowed.body.disabled_reason, null);
  t.is((await create('http://localhost:9/hook')).status, 200);
  t.is((await create('http://127.0.0.2:9/hook')).status, 422);
  const moved = await api<ApiError>('POST', `/v1/webhooks/${allowed.body.id}`, {
    json: { url: 'http://localhost:10/hook' },
  });
  t.is(moved.status, 200);
});
