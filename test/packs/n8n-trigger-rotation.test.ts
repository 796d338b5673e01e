// The built Printpost Trigger and secret rotation, against a real engine: an activation that finds its
// webhook in place rotates the secret, keeping the old one for the overlap; a delivery signed with the
// old or the new secret (in either signature header) is taken meanwhile, and the engine's own delivery,
// carrying both, starts the workflow; once the overlap is over the old secret is refused.
import test from 'ava';
import { createHmac } from 'node:crypto';
import { startEngine, type TestEngine } from '../helpers/engine';
import { client } from '../helpers/http';
import { TO as ADDRESS } from '../helpers/mail';
import { builtPacks } from './build-once';
import { loadPackage, shutdownN8n } from './n8n-harness';
import { TriggerHarness } from './n8n-trigger-harness';

let engine: TestEngine;
let loader: Awaited<ReturnType<typeof loadPackage>>;
const open: TriggerHarness[] = [];
const api = () => client(engine.url, engine.keys.test);

interface Kept {
  webhookId: string;
  webhookSecret: string;
  previousWebhookSecret?: string;
  previousWebhookSecretExpiresAt?: string;
}

/** Signature headers computed here, as a receiver's docs say, not with the packs' code. */
function signed(body: string, signatures: { old?: string; new?: string }) {
  const timestamp = String(Math.floor(Date.now() / 1000));
  const sign = (secret: string) => createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
  return {
    'content-type': 'application/json',
    'service-signature-timestamp': timestamp,
    ...(signatures.old && { 'service-signature': sign(signatures.old) }),
    ...(signatures.new && { 'service-signature-new': sign(signatures.new) }),
  };
}

const post = (url: string, body: string, headers: Record<string, string>) =>
  fetch(url, { method: 'POST', body, headers }).then((r) => r.status);

test.before(async () => {
  engine = await startEngine({
    settings: { rate_limit_per_5s: 100000 },
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

test('reactivation rotates the secret; during the overlap a delivery signed with either is taken', async (t) => {
  const harness = await TriggerHarness.start(
    loader,
    { apiKey: engine.keys.test, baseUrl: engine.url },
    { resource: 'addresses', events: ['address.created'] },
  );
  open.push(harness);
  await harness.activate();
  const first = { ...harness.staticData } as unknown as Kept;
  t.regex(first.webhookSecret, /^whsec_/);

  // activated again (n8n restarted, the workflow turned off and on): the same webhook, a new secret
  t.true(await harness.hook('checkExists'));
  const kept = harness.staticData as unknown as Kept;
  t.is(kept.webhookId, first.webhookId);
  t.not(kept.webhookSecret, first.webhookSecret);
  t.is(kept.previousWebhookSecret, first.webhookSecret);
  const until = Date.parse(String(kept.previousWebhookSecretExpiresAt));
  t.true(until > Date.now() + 59 * 60_000 && until <= Date.now() + 60 * 60_000, 'an hour of overlap');
  const hook = await api()<Record<string, unknown>>('GET', `/v1/webhooks/${kept.webhookId}`);
  t.is(hook.body.previous_secret_expires_at, kept.previousWebhookSecretExpiresAt);

  // the engine's delivery carries both signatures
  const created = await api()<{ id: string }>('POST', '/v1/addresses', { json: ADDRESS });
  const [delivered] = await harness.waitForDeliveries(1);
  t.is(delivered.status, 200);
  t.like(delivered.emitted?.[0], { reference_id: created.body.id });

  // a receiver's view of each form a delivery may take
  const body = JSON.stringify({ id: 'evt_0123456789abcdef', object: 'event', body: {} });
  const [oldSecret, newSecret] = [first.webhookSecret, kept.webhookSecret];
  t.is(await post(harness.webhookUrl, body, signed(body, { old: oldSecret })), 200, 'the old secret alone');
  t.is(await post(harness.webhookUrl, body, signed(body, { old: newSecret })), 200, 'the new secret alone');
  t.is(await post(harness.webhookUrl, body, signed(body, { old: 'whsec_x', new: newSecret })), 200, 'the new header');
  t.is(await post(harness.webhookUrl, body, signed(body, { old: 'whsec_someone_else' })), 401, 'another secret');

  // the overlap over, the old secret is refused
  kept.previousWebhookSecretExpiresAt = new Date(Date.now() - 1000).toISOString();
  t.is(await post(harness.webhookUrl, body, signed(body, { old: oldSecret })), 401, 'the expired secret');
  t.is(await post(harness.webhookUrl, body, signed(body, { old: newSecret })), 200);
});
