// A webhook whose deliveries keep failing is disabled after WEBHOOK_DISABLE_AFTER_HOURS (0.72 s here)
// with its reason on it, in GET /health and in `printpost webhooks disabled`; enabling it again clears
// the reason, and a replay then delivers what failed meanwhile, in the order it happened.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { databaseSuite } from '../../helpers/suite';
import { client } from '../../helpers/http';
import { BIN } from '../../helpers/cli';
import { startReceiver, type Received } from '../../helpers/receiver';
import { TO as ADDRESS } from '../../helpers/mail';
import { DELIVERY_ATTEMPTS } from '../../../engine/domain/events/delivery';

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
interface Health {
  webhooks: { disabled: { id: string; disabled_reason: string; failed_deliveries: number }[] } | null;
}

const referenceOf = (r: Received) => (JSON.parse(r.body) as { reference_id: string }).reference_id;

test('a webhook failing past WEBHOOK_DISABLE_AFTER_HOURS is disabled with its reason, shown by /health and the CLI', async (t, ctx) => {
  const keys = await ctx.engine.createAccount(`disable-${Math.random().toString(36).slice(2)}`);
  const api = client(ctx.engine.url, keys.test);
  let failing = true;
  const receiver = await startReceiver(() => ({ status: failing ? 500 : 200 }));
  const address = async () => (await api<{ id: string }>('POST', '/v1/addresses', { json: ADDRESS })).body.id;
  try {
    const hook = (await api<Hook>('POST', '/v1/webhooks', { json: { url: receiver.url, event_types: ['*'] } })).body;
    // two events at once: their 2 x 8 attempts take longer than 0.72 s, so the webhook is disabled
    // while one of them is still being tried, whatever the database's pace
    const first = await address();
    const second = await address();
    let seen = hook;
    for (let i = 0; i < 100 && seen.enabled; i++) {
      await new Promise((r) => setTimeout(r, 100));
      seen = (await api<Hook>('GET', `/v1/webhooks/${hook.id}`)).body;
    }
    t.false(seen.enabled, 'disabled by the engine');
    t.regex(String(seen.disabled_reason), /every delivery has failed since .*WEBHOOK_DISABLE_AFTER_HOURS/);
    const attemptsSoFar = receiver.received.length;
    t.true(attemptsSoFar < 2 * DELIVERY_ATTEMPTS, 'the second delivery stopped with the webhook');

    const health = (await (await fetch(`${ctx.engine.url}/health`)).json()) as Health;
    const shown = health.webhooks?.disabled.find((h) => h.id === hook.id);
    t.like(shown, { disabled_reason: seen.disabled_reason!, failed_deliveries: 2 });
    const env = { ...process.env, DATABASE_URL: ctx.engine.databaseUrl, LOG_LEVEL: 'silent' };
    const { stdout } = await promisify(execFile)(BIN, ['webhooks', 'disabled'], { env });
    t.regex(stdout, new RegExp(`^${hook.id}\\t\\S+\\ttest\\t2 failed\\tevery delivery has failed since`, 'm'));

    const refused = await api<{ error: { message: string } }>('POST', `/v1/webhooks/${hook.id}/replay`);
    t.is(refused.status, 422);
    t.regex(refused.body.error.message, /is disabled: enable it/);

    failing = false;
    const enabled = await api<Hook>('POST', `/v1/webhooks/${hook.id}`, { json: { enabled: true } });
    t.like(enabled.body, { enabled: true, disabled_reason: null });
    const replay = await api<{ queued: number }>('POST', `/v1/webhooks/${hook.id}/replay`);
    t.is(replay.body.queued, 2);
    const got = await receiver.waitFor(attemptsSoFar + 2);
    t.deepEqual(got.slice(attemptsSoFar).map(referenceOf), [first, second], 'in the order they happened');
    const after = (await (await fetch(`${ctx.engine.url}/health`)).json()) as Health;
    t.false(Boolean(after.webhooks?.disabled.some((h) => h.id === hook.id)), 'no longer shown');
  } finally {
    await receiver.close();
  }
});
