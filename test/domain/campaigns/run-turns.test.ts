// A campaign run shares the engine's event loop with its requests. On SQLite, Knex answers at once, so
// a run's pieces (and its audience's pages) could follow one another on microtasks alone and no request
// was answered until the run had ended. Here the test's own turns of the event loop (the engine runs
// in this process) read how many pieces exist: between two turns a run may make only a few.
// PostgreSQL answers over a socket, so a run there waits for I/O at every query anyway.
import Database from 'better-sqlite3';
import test from 'ava';
import { startEngine } from '../../helpers/engine';
import { client } from '../../helpers/http';
import { FROM, TO } from '../../helpers/mail';

const RECIPIENTS = 1_000;
/** Pieces made between two turns at most: the run gives a turn every few ms (IN_FLIGHT is 24). */
const MOST_BETWEEN_TURNS = 200;

test('sqlite: a run of 1,000 pieces lets the event loop turn while it goes on', async (t) => {
  t.timeout(240_000);
  const engine = await startEngine({ settings: { rate_limit_per_5s: 10_000_000 } });
  t.teardown(() => engine.close());
  const api = client(engine.url, engine.keys.test);
  for (let i = 0; i < RECIPIENTS; i += 50)
    await Promise.all(
      Array.from({ length: 50 }, (_, j) =>
        api('POST', '/v1/addresses', { json: { ...TO, name: `Recipient ${i + j}`, metadata: { list: 'turns' } } }),
      ),
    );
  const campaign = await api('POST', '/v1/campaigns', {
    json: {
      name: 'Turns',
      schedule_type: 'immediate',
      use_type: 'marketing',
      audience: { metadata: { list: 'turns' } },
    },
  });
  const front = '<html><body>Hi</body></html>';
  const creative = await api('POST', '/v1/creatives', {
    json: { resource_type: 'postcard', campaign_id: campaign.body.id, from: FROM, front, back: front, details: {} },
  });
  t.is(creative.status, 200, JSON.stringify(creative.body));

  let turning = true;
  const reader = new Database(engine.databaseUrl, { readonly: true });
  t.teardown(() => {
    turning = false;
    reader.close();
  });
  const count = reader.prepare("select count(*) as n from objects where kind = 'postcards'");
  const seen: number[] = [];
  const turn = () => {
    if (!turning) return;
    seen.push((count.get() as { n: number }).n);
    setImmediate(turn);
  };
  const run = await api('POST', `/v1/campaigns/${campaign.body.id}/send`);
  setImmediate(turn);
  let status = 'running';
  while (status === 'running') {
    await new Promise((resolve) => setTimeout(resolve, 50));
    status = (await api('GET', `/v1/campaigns/${campaign.body.id}/runs/${run.body.id}`)).body.status as string;
  }
  turning = false;
  t.is(status, 'completed');
  t.is(seen.at(-1), RECIPIENTS);
  const jumps = seen.slice(1).map((n, i) => n - seen[i]);
  const most = Math.max(...jumps);
  t.log(`at most ${most} pieces between two turns, ${seen.length} turns`);
  t.true(
    most <= MOST_BETWEEN_TURNS,
    `${most} pieces made between two turns of the event loop (${seen.length} turns during the run)`,
  );
});
