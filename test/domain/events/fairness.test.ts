// One account's slow receivers do not delay another account's deliveries (both databases): account B
// has twelve webhooks whose receiver never answers, more than the process's 8 delivery slots; an event
// of account A still reaches A's receiver while every one of B's deliveries is in flight (none of
// their attempts has ended), because B holds at most half the slots. Without the fair share, A's
// delivery waited for B's attempts to time out. (Latencies are measured in bench/fairness.ts.)
import { client } from '../../helpers/http';
import { startReceiver } from '../../helpers/receiver';
import { databaseSuite } from '../../helpers/suite';
import { TO } from '../../helpers/mail';

const { serial } = databaseSuite({ env: { ALLOWED_PRIVATE_NETWORKS: '127.0.0.0/8', WEBHOOK_TIMEOUT_MS: '6000' } });

serial("another account's slow receivers do not hold back this account's deliveries", async (t, { engine }) => {
  const slow = await startReceiver(() => ({ hang: true }));
  const fast = await startReceiver();
  t.teardown(async () => {
    await slow.close();
    await fast.close();
  });
  const noisy = client(engine.url, (await engine.createAccount()).test);
  const hooks: string[] = [];
  for (let i = 0; i < 12; i++) {
    const hook = await noisy('POST', '/v1/webhooks', {
      json: { url: `${slow.url}?n=${i}`, event_types: ['address.created'] },
    });
    t.is(hook.status, 200, JSON.stringify(hook.body));
    hooks.push(hook.body.id as string);
  }
  t.is((await noisy('POST', '/v1/addresses', { json: TO })).status, 200);
  // the noisy account's deliveries have taken their slots
  await slow.waitFor(4, 5_000);

  const quiet = client(engine.url, (await engine.createAccount()).test);
  t.is(
    (await quiet('POST', '/v1/webhooks', { json: { url: fast.url, event_types: ['address.created'] } })).status,
    200,
  );
  t.is((await quiet('POST', '/v1/addresses', { json: TO })).status, 200);
  await fast.waitFor(1, 30_000);
  // every attempt of the noisy account is still waiting for its receiver: none has been recorded
  let ended = 0;
  for (const id of hooks)
    ended += ((await noisy('GET', `/v1/webhooks/${id}/deliveries`)).body.data as unknown[]).length;
  t.is(ended, 0, "the quiet account's event went out while the noisy one's deliveries were all in flight");
  t.true(slow.received.length >= 4 && slow.received.length < 12, `${slow.received.length} noisy deliveries in flight`);
});
