// Rotating a webhook's secret over real HTTP, on both databases, with a real receiver that checks the
// signatures as the README tells receivers to (computed here, not with the engine's code): the new
// secret is answered once; until the overlap ends each delivery carries the old secret's signature in
// Service-Signature and the new one's in Service-Signature-New; after it, the new secret alone signs.
import { createHmac } from 'node:crypto';
import { databaseSuite, type SuiteContext } from '../../helpers/suite';
import { client } from '../../helpers/http';
import { startReceiver, type Received } from '../../helpers/receiver';
import { TO as ADDRESS } from '../../helpers/mail';

const { test } = databaseSuite({
  env: { ALLOWED_PRIVATE_NETWORKS: '127.0.0.0/8', WEBHOOK_RETRY_BASE_MS: '50', WEBHOOK_TIMEOUT_MS: '2000' },
});

async function account({ engine }: SuiteContext) {
  const name = `rotation-${Math.random().toString(36).slice(2)}`;
  const keys = await engine.createAccount(name);
  await engine.setSetting('rate_limit_per_5s', 100_000, name);
  return { api: client(engine.url, keys.test), keys };
}

type Api = ReturnType<typeof client>;

interface Rotated {
  id: string;
  secret: string;
  previous_secret_expires_at: string | null;
  [field: string]: unknown;
}

const sign = (secret: string, timestamp: string, body: string) =>
  createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');

/** Which of `secrets` signed the delivery, header by header. */
function signers(delivery: Received, secrets: Record<string, string>) {
  const timestamp = String(delivery.headers['service-signature-timestamp']);
  const by = (header: string) => {
    const given = delivery.headers[header];
    if (given === undefined) return undefined;
    return Object.keys(secrets).find((name) => sign(secrets[name], timestamp, delivery.body) === given) ?? 'none';
  };
  return { signature: by('service-signature'), new: by('service-signature-new') };
}

async function deliverOne(api: Api, receiver: Awaited<ReturnType<typeof startReceiver>>): Promise<Received> {
  const count = receiver.received.length;
  const reply = await api('POST', '/v1/addresses', { json: ADDRESS });
  if (reply.status !== 200) throw new Error(`address: ${reply.status}`);
  return (await receiver.waitFor(count + 1))[count];
}

const rotate = (api: Api, id: string, json: unknown) =>
  api<Rotated>('POST', `/v1/webhooks/${id}/rotate_secret`, { json });

test('a rotated secret signs beside the old one until the overlap ends, then alone', async (t, ctx) => {
  const { api } = await account(ctx);
  const receiver = await startReceiver();
  try {
    const created = await api<Rotated>('POST', '/v1/webhooks', {
      json: { url: receiver.url, event_types: ['address.created'] },
    });
    const { id, secret: old } = created.body;
    t.deepEqual(signers(await deliverOne(api, receiver), { old }), { signature: 'old', new: undefined });

    // long enough for the checks and a delivery inside it on a loaded machine
    const OVERLAP_S = 12;
    const before = Date.now();
    const rotated = await rotate(api, id, { expires_in_hours: OVERLAP_S / 3600 });
    t.is(rotated.status, 200, JSON.stringify(rotated.body));
    const fresh = rotated.body.secret;
    t.regex(fresh, /^whsec_/);
    t.not(fresh, old);
    t.false('previous_secret' in rotated.body, 'the old secret is never answered');
    const until = Date.parse(String(rotated.body.previous_secret_expires_at));
    t.true(until >= before + OVERLAP_S * 1000 - 1000 && until <= Date.now() + OVERLAP_S * 1000 + 1000);
    const shown = await api<Record<string, unknown>>('GET', `/v1/webhooks/${id}`);
    t.false('secret' in shown.body || 'previous_secret' in shown.body, 'retrieve shows neither secret');
    t.is(shown.body.previous_secret_expires_at, rotated.body.previous_secret_expires_at);
    const listed = await api<{ data: Record<string, unknown>[] }>('GET', '/v1/webhooks');
    t.false(
      listed.body.data.some((w) => 'secret' in w || 'previous_secret' in w),
      'nor does a list',
    );

    // during the overlap: a receiver that knows only the old secret and reads Service-Signature alone
    // still checks it; one that knows the new secret finds it in Service-Signature-New
    t.deepEqual(signers(await deliverOne(api, receiver), { old, fresh }), { signature: 'old', new: 'fresh' });

    await new Promise((resolve) => setTimeout(resolve, Math.max(0, until - Date.now() + 200)));
    t.deepEqual(
      signers(await deliverOne(api, receiver), { old, fresh }),
      { signature: 'fresh', new: undefined },
      'after the overlap the old secret signs nothing',
    );
  } finally {
    await receiver.close();
  }
});

test('a rotation during an overlap ends the oldest secret; 0 hours ends the old one at once', async (t, ctx) => {
  const { api } = await account(ctx);
  const receiver = await startReceiver();
  try {
    const created = await api<Rotated>('POST', '/v1/webhooks', {
      json: { url: receiver.url, event_types: ['address.created'] },
    });
    const { id, secret: first } = created.body;
    const second = (await rotate(api, id, {})).body;
    t.true(Date.parse(String(second.previous_secret_expires_at)) > Date.now() + 23.9 * 3_600_000, 'the default: 24 h');
    const third = (await rotate(api, id, { expires_in_hours: 1 })).body;
    const secrets = { first, second: second.secret, third: third.secret };
    t.deepEqual(signers(await deliverOne(api, receiver), secrets), { signature: 'second', new: 'third' });

    const now = (await rotate(api, id, { expires_in_hours: 0 })).body;
    t.is(now.previous_secret_expires_at, null);
    t.deepEqual(signers(await deliverOne(api, receiver), { ...secrets, now: now.secret }), {
      signature: 'now',
      new: undefined,
    });
  } finally {
    await receiver.close();
  }
});

test("a rotation made while a delivery job runs signs that job's next delivery with the new secret", async (t, ctx) => {
  const { api } = await account(ctx);
  // the first delivery is held by the receiver, so the job that sends it is still running when the
  // secret rotates and the next event is queued behind it
  const receiver = await startReceiver((call) => (call === 1 ? { delayMs: 1500 } : {}));
  try {
    const created = await api<Rotated>('POST', '/v1/webhooks', {
      json: { url: receiver.url, event_types: ['address.created'] },
    });
    const { id, secret: old } = created.body;
    t.is((await api('POST', '/v1/addresses', { json: ADDRESS })).status, 200);
    await receiver.waitFor(1);
    t.is((await api('POST', '/v1/addresses', { json: ADDRESS })).status, 200);
    const now = (await rotate(api, id, { expires_in_hours: 0 })).body;
    const [held, next] = await receiver.waitFor(2);
    t.deepEqual(signers(held, { old, now: now.secret }), { signature: 'old', new: undefined });
    t.deepEqual(
      signers(next, { old, now: now.secret }),
      { signature: 'now', new: undefined },
      'a leaked secret ended at once signs nothing more, even in the job that was running',
    );
  } finally {
    await receiver.close();
  }
});

test('a rotation is refused with the spec error for a bad window, an unknown webhook or a publishable key', async (t, ctx) => {
  const { api, keys } = await account(ctx);
  const created = await api<Rotated>('POST', '/v1/webhooks', {
    json: { url: 'https://example.com/hook', event_types: ['*'] },
  });
  const { id } = created.body;
  for (const expires_in_hours of [-1, 73, 'soon']) {
    const reply = await rotate(api, id, { expires_in_hours });
    t.is(reply.status, 422, String(expires_in_hours));
    t.like(reply.body, { error: { status_code: 422 } });
    t.regex(String((reply.body as unknown as { error: { message: string } }).error.message), /expires_in_hours/);
  }
  const unknown = await rotate(api, 'wh_0123456789abcdef', {});
  t.is(unknown.status, 404);
  const publishable = await client(ctx.engine.url, keys.testPub)('POST', `/v1/webhooks/${id}/rotate_secret`, {
    json: {},
  });
  t.is(publishable.status, 403);
});
