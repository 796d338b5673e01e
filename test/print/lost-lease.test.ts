// A render job whose last attempt loses its lease (its process was killed mid-render) is not the end of
// its piece: the piece ends `failed` with a reason and its `*.failed` event, rather than `processed` for
// ever. One engine (no workers) creates the piece; its job row is then made to look like a third attempt
// whose worker died, and a second engine with workers on the same database takes it from there.
import test from 'ava';
import knex, { type Knex } from 'knex';
import { DATABASES } from '../helpers/matrix';
import { startEngine, type TestEngine } from '../helpers/engine';
import { client } from '../helpers/http';
import { postcard } from '../helpers/mail';
import { settled } from './helpers';

function database(engine: TestEngine): Knex {
  return knex(
    engine.db === 'sqlite'
      ? { client: 'better-sqlite3', connection: { filename: engine.databaseUrl }, useNullAsDefault: true }
      : { client: 'pg', connection: engine.databaseUrl, pool: { min: 0, max: 1 } },
  );
}

/** The piece's render job as its third attempt left it when its process was killed: active, lease over. */
async function killedOnThirdAttempt(db: Knex, engine: TestEngine, pieceId: string): Promise<void> {
  if (engine.db === 'sqlite') {
    const updated = await db('jobs')
      .where({ name: 'render-piece', state: 'queued' })
      .whereLike('data', `%${pieceId}%`)
      .update({ state: 'active', attempt: 3, run_at: Date.now() - 1 });
    if (updated !== 1) throw new Error(`render job of ${pieceId}: ${updated} rows`);
    return;
  }
  const updated = await db.raw(
    `update pgboss.job set state = 'active', retry_count = 2, started_on = now() - interval '1 hour',
       expire_in = interval '1 second'
     where name = 'render-piece' and state = 'created' and data->>'piece' = ?`,
    [pieceId],
  );
  if (updated.rowCount !== 1) throw new Error(`render job of ${pieceId}: ${updated.rowCount} rows`);
}

for (const db of DATABASES) {
  test(`${db}: a render whose last attempt lost its lease fails its piece with a reason and its event`, async (t) => {
    const creator = await startEngine({ db });
    const rows = database(creator);
    let worker: TestEngine | undefined;
    try {
      const api = client(creator.url, creator.keys.test);
      const created = (await api('POST', '/v1/postcards', { json: postcard() })).body as { id: string };
      await killedOnThirdAttempt(rows, creator, created.id);
      // PostgreSQL finds lost leases in the job queue's upkeep, which runs at half the shortest lease of
      // its workers (engine/platform/jobs/queue.ts): a short campaign run lease (no run here) makes it every 1 s
      // rather than every 15 s
      worker = await startEngine({ db, shareWith: creator, workers: true, env: { CAMPAIGN_RUN_LEASE_MS: '2000' } });
      const piece = await settled(api, '/v1/postcards', created.id, 90_000, true);
      t.is(piece.status, 'failed');
      t.regex(piece.failure_reason?.failure_reason ?? '', /^render_timeout: /);
      const events = await rows('events').where({ reference_id: created.id }).select('event_type');
      t.true(events.some((e: { event_type: string }) => e.event_type === 'postcard.failed'));
    } finally {
      await worker?.close();
      await rows.destroy();
      await creator.close();
    }
  });
}
