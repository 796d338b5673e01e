// The SQLite job queue's table (migrations/007_jobs.ts), worked on the engine's one write connection
// for engine/platform/jobs/sqlite.ts. Each claim is a single UPDATE ... WHERE id IN (SELECT ... LIMIT
// n), so even several processes on one file never take a job twice; an attempt is settled only while
// it is still the job's current one (state and attempt match), so a worker that overran its lease
// changes nothing.
import type { Knex } from 'knex';
import type BetterSqlite3 from 'better-sqlite3';
import type { JobRow } from './commit';
import { onConnection } from './sqlite-sync';

/** A job as a claim takes it from the table. */
export interface ClaimedJobRow {
  id: string;
  name: string;
  data: string;
  attempt: number;
  retry_limit: number;
  retry_delay_ms: number;
}

/** How a failed attempt leaves its job: queued again for `runAt`, or failed for good. */
export interface FailedAttempt {
  state: 'queued' | 'failed';
  runAt: number;
  lastError: string;
}

export async function jobTableExists(knex: Knex): Promise<boolean> {
  return knex.schema.hasTable('jobs');
}

/** The job's id, or null when its singleton key already has a job queued or active. */
export async function insertJob(knex: Knex, row: JobRow): Promise<string | null> {
  const inserted: { id: string }[] = await knex('jobs').insert(row).onConflict().ignore().returning('id');
  return inserted[0]?.id ?? null;
}

/**
 * Recovers `name`'s jobs whose lease ran out (an attempt counts; the last one fails the job, with
 * `leaseLost` as its error), then takes up to `max` due jobs, highest priority then oldest, leased until
 * `leaseUntil`.
 */
export async function claimJobs(
  knex: Knex,
  claim: { name: string; max: number; now: number; leaseUntil: number; leaseLost: string },
): Promise<ClaimedJobRow[]> {
  const { name, max, now, leaseUntil, leaseLost } = claim;
  return onConnection(knex, (connection) => {
    const { recover, take } = claimStatements(connection);
    // Synchronous, so the write lock is never held across a turn of the event loop (another
    // connection to the file would wait for it, and better-sqlite3 waits by blocking).
    return connection.transaction(() => {
      recover.run(leaseLost, now, name, now);
      return take.all(leaseUntil, name, now, max);
    })();
  });
}

/** Completes the attempt while it is still the job's current one. */
export async function completeJob(knex: Knex, id: string, attempt: number, now: number): Promise<void> {
  await knex('jobs')
    .where({ id, state: 'active', attempt })
    .update({ state: 'completed', run_at: now, last_error: null });
}

/** Fails the attempt while it is still the job's current one. */
export async function failJob(knex: Knex, id: string, attempt: number, outcome: FailedAttempt): Promise<void> {
  await knex('jobs')
    .where({ id, state: 'active', attempt })
    .update({ state: outcome.state, run_at: outcome.runAt, last_error: outcome.lastError });
}

/**
 * Hands a running attempt back, due now and not counted (its process is shutting down): another
 * worker takes it at once rather than after its lease. Only while it is still the job's current one.
 */
export async function releaseJob(knex: Knex, id: string, attempt: number, now: number): Promise<void> {
  await knex('jobs')
    .where({ id, state: 'active', attempt })
    .update({ state: 'queued', attempt: attempt - 1, run_at: now });
}

/** Forgets the completed jobs of `names` settled before `before`. */
export async function dropCompletedJobs(knex: Knex, names: readonly string[], before: number): Promise<void> {
  await knex('jobs').whereIn('name', names).where('state', 'completed').where('run_at', '<', before).delete();
}

/** Queued jobs by name: how many, and the run time of the oldest already due (null when none is). */
export async function waitingJobs(
  knex: Knex,
  now: number,
): Promise<{ name: string; queued: number | string; oldest_due: number | string | null }[]> {
  const rows = await knex<{ name: string; state: string; run_at: number }>('jobs')
    .select('name')
    .count({ queued: '*' })
    .min({ oldest_due: knex.raw('case when run_at <= ? then run_at end', [now]) })
    .where('state', 'queued')
    .groupBy('name');
  return rows.map((r) => ({ name: String(r.name), queued: Number(r.queued), oldest_due: r.oldest_due ?? null }));
}

/** Jobs by state, of one name or all. */
export async function countJobsByState(knex: Knex, name?: string): Promise<{ state: string; n: number | string }[]> {
  const query = knex('jobs').select('state').count({ n: '*' }).groupBy('state');
  if (name !== undefined) query.where({ name });
  return (await query) as { state: string; n: number | string }[];
}

interface ClaimStatements {
  /** lease recovery: an attempt whose lease ran out counts; the last one fails the job */
  recover: BetterSqlite3.Statement<[string, number, string, number]>;
  take: BetterSqlite3.Statement<[number, string, number, number], ClaimedJobRow>;
}

const prepared = new WeakMap<BetterSqlite3.Database, ClaimStatements>();

function claimStatements(connection: BetterSqlite3.Database): ClaimStatements {
  let statements = prepared.get(connection);
  if (!statements) {
    statements = {
      recover: connection.prepare(
        `update jobs set state = case when attempt > retry_limit then 'failed' else 'queued' end,
           last_error = ?, run_at = ?
         where name = ? and state = 'active' and run_at <= ?`,
      ),
      take: connection.prepare(
        `update jobs set state = 'active', attempt = attempt + 1, run_at = ?
         where id in (select id from jobs where name = ? and state = 'queued' and run_at <= ?
                      order by priority desc, run_at limit ?)
         returning id, name, data, attempt, retry_limit, retry_delay_ms`,
      ),
    };
    prepared.set(connection, statements);
  }
  return statements;
}
