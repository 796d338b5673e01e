// The database's rate-limit counter: exact counts for hits arriving one event-loop turn apart, with at
// most one upsert of a bucket's window in flight, so a busy bucket does not cost a round trip a turn.
// The bound is checked rather than a number of upserts, which depends on how fast the machine is.
import test from 'ava';
import { migrateLatest } from '../../engine/store/migrate';
import { DatabaseHitCounter } from '../../engine/store/rate-windows';
import { nextTurn } from '../../engine/base/next-turn';
import type { Db } from '../helpers/engine';
import { freshStore } from '../helpers/store';
import { DATABASES } from '../helpers/matrix';

const HITS = 200;

for (const db of DATABASES) {
  test(`${db}: ${HITS} hits a turn apart are counted 1..${HITS}, one upsert of a bucket in flight at a time`, async (t) => {
    const { knex } = await freshStore(t, db as Db);
    await migrateLatest(knex);
    // upserts in flight per bucket, by knex's query events: the most at once is what the counter bounds
    const inFlight = new Map<string, number>();
    const bucketOf = new Map<string, string>();
    let most = 0;
    knex.on('query', (query: { sql: string; bindings: unknown[]; __knexQueryUid: string }) => {
      if (!/^insert into [`"]?rate_windows/.test(query.sql)) return;
      const bucket = String(query.bindings[0]);
      bucketOf.set(query.__knexQueryUid, bucket);
      inFlight.set(bucket, (inFlight.get(bucket) ?? 0) + 1);
      most = Math.max(most, inFlight.get(bucket)!);
    });
    knex.on('query-response', (_response: unknown, query: { __knexQueryUid: string }) => {
      const bucket = bucketOf.get(query.__knexQueryUid);
      if (bucket !== undefined) inFlight.set(bucket, inFlight.get(bucket)! - 1);
    });
    const counter = new DatabaseHitCounter(knex);
    const windowStart = Date.now();
    const counts: Promise<number>[] = [];
    for (let i = 0; i < HITS; i++) {
      counts.push(counter.add('key:GET /v1/addresses', windowStart));
      // another bucket's window alongside: counted apart
      if (i % 4 === 0) counts.push(counter.add('key:POST /v1/addresses', windowStart));
      await nextTurn();
    }
    const all = await Promise.all(counts);
    const mine = all.filter((_, i) => i % 5 !== 1);
    const others = all.filter((_, i) => i % 5 === 1);
    t.deepEqual(
      [...mine].sort((a, b) => a - b),
      Array.from({ length: HITS }, (_, i) => i + 1),
    );
    t.deepEqual(
      [...others].sort((a, b) => a - b),
      Array.from({ length: HITS / 4 }, (_, i) => i + 1),
    );
    const stored = await knex('rate_windows').orderBy('bucket').select('bucket', 'count');
    t.deepEqual(
      stored.map((r: { bucket: string; count: number | string }) => [r.bucket, Number(r.count)]),
      [
        ['key:GET /v1/addresses', HITS],
        ['key:POST /v1/addresses', HITS / 4],
      ],
    );
    // a round trip spans many turns (on PostgreSQL): one upsert a turn would have had several out at once
    t.is(most, 1, 'one upsert of a bucket in flight at a time');
  });
}
