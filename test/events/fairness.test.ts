// One account's slow receivers do not delay another account's deliveries (both databases): account B
// has twelve webhooks whose receiver answers after 4 s, more than the process's 8 delivery slots; an
// event of account A still reaches A's receiver within a second or two, because B holds at most half
// the slots. Without the fair share, A waited for B's deliveries to end (4 s and more).
import { client } from '../helpers/http';
import { startReceiver } from '../helpers/receiver';
import { databaseSuite } from '../helpers/suite';
import { TO } from '../helpers/mail';

const { serial } = databaseSuite({ env: { ALLOWED_PRIVATE_NETWORKS: '127.0.0.0/8', WEBHOOK_TIMEOUT_MS: '8000' } });

serial("another account's slow receivers do not hold back this account's deliveries", async (t, { engine }) => {
  const slow = await startReceiver(() => ({ delayMs: 4_000 }));
  const fast = await startReceiver();
  t.teardown(async () => {
    await slow.close();
    await fast.close();
  });
  const noisy = client(engine.url, (await engine.createAccount()).test);
  for (let i = 0; i < 12; i++) {
    const hook = await noisy('POST', '/v1/webhooks', {
      json: { url: `${slow.url}?n=${i}`, event_types: ['address.created'] },
    });
    t.is(hook.status, 200, JSON.stringify(hook.body));
  }
  t.is((await noisy('POST', '/v1/addresses', { json: TO })).status, 200);
  // the noisy account's deliveries have taken their slots
  await slow.waitFor(4, 5_000);

  const quiet = client(engine.url, (await engine.createAccount()).test);
  t.is(
    (await quiet('POST', '/v1/webhooks', { json: { url: fast.url, event_types: ['address.created'] } })).status,
    200,
  );
  const sent = Date.now();
  t.is((await quiet('POST', '/v1/addresses', { json: TO })).status, 200);
  await fast.waitFor(1, 10_000);
  const waited = fast.received[0].at - sent;
  t.log(`the quiet account's delivery took ${waited} ms while the noisy one's receivers held theirs`);
  t.true(waited < 2_500, `${waited} ms`);
  t.true(slow.received.length < 12, 'the noisy deliveries were still going on');
});
