// The queue on SQLite: the `jobs` table (migrations/007_jobs.ts) on the engine's one write
// connection. Each claim is a single UPDATE ... WHERE id IN (SELECT ... LIMIT n), so even several
// processes on one file never take a job twice; an attempt is settled only while it is still the
// job's current one (state and attempt match), so a worker that overran its lease changes nothing.
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type BetterSqlite3 from 'better-sqlite3';
import type { JobRow, JobWrite } from '../../store/commit';
import { onConnection } from '../../store/sqlite-sync';
import { backoffMs, errorText, tally, type Backend, type Claimed, type ResolvedJobOptions } from './backend';

interface ClaimRow {
  id: string;
  name: string;
  data: string;
  attempt: number;
  retry_limit: number;
  retry_delay_ms: number;
}

export function sqliteBackend(knex: Knex, keepCompletedMs: number): Backend {
  // A second job under a singleton key that has one queued or active is dropped, not an error (the
  // commit inserts job rows or-ignore; so does send).
  const row = (name: string, data: object, o: ResolvedJobOptions): JobRow => {
    const now = Date.now();
    // Every job row has the same columns, so the group commit prepares one statement for all.
    return {
      id: randomUUID(),
      name,
      data: JSON.stringify(data),
      state: 'queued',
      attempt: 0,
      retry_limit: o.retryLimit,
      retry_delay_ms: o.retryDelayMs,
      run_at: o.startAfter?.getTime() ?? now,
      singleton_key: o.singletonKey ?? null,
      priority: o.priority,
      last_error: null,
      created_at: now,
    };
  };

  return {
    async start() {
      if (!(await knex.schema.hasTable('jobs'))) throw new Error('the jobs table is missing: run the migrations first');
    },

    enqueueWith: (name, data, options): JobWrite => ({ row: row(name, data, options) }),

    async send(name, data, options) {
      const inserted: { id: string }[] = await knex('jobs')
        .insert(row(name, data, options))
        .onConflict()
        .ignore()
        .returning('id');
      return inserted[0]?.id ?? null;
    },

    async claim(name, max, leaseMs) {
      const now = Date.now();
      const rows = await onConnection(knex, (connection) => {
        const { recover, take } = claimStatements(connection);
        // Synchronous, so the write lock is never held across a turn of the event loop (another
        // connection to the file would wait for it, and better-sqlite3 waits by blocking).
        return connection.transaction(() => {
          recover.run(LEASE_LOST, now, name, now);
          return take.all(now + leaseMs, name, now, max);
        })();
      });
      return rows.map((r): Claimed => ({
        id: r.id,
        name: r.name,
        data: JSON.parse(r.data),
        attempt: r.attempt,
        retryLimit: r.retry_limit,
        retryDelayMs: r.retry_delay_ms,
      }));
    },

    async complete(job) {
      await knex('jobs')
        .where({ id: job.id, state: 'active', attempt: job.attempt })
        .update({ state: 'completed', run_at: Date.now(), last_error: null });
    },

    async fail(job, error) {
      const retry = job.attempt <= job.retryLimit;
      const now = Date.now();
      await knex('jobs')
        .where({ id: job.id, state: 'active', attempt: job.attempt })
        .update({
          state: retry ? 'queued' : 'failed',
          run_at: retry ? now + backoffMs(job.retryDelayMs, job.attempt) : now,
          last_error: errorText(error).slice(0, 4000),
        });
    },

    async maintain(names) {
      if (names.length === 0) return;
      await knex('jobs')
        .whereIn('name', names)
        .where('state', 'completed')
        .where('run_at', '<', Date.now() - keepCompletedMs)
        .delete();
    },

    async counts(name) {
      const query = knex('jobs').select('state').count({ n: '*' }).groupBy('state');
      if (name !== undefined) query.where({ name });
      return tally((await query) as { state: string; n: number | string }[]);
    },

    async stop() {},
  };
}

const LEASE_LOST = 'the lease ran out before the job finished';

interface ClaimStatements {
  /** lease recovery: an attempt whose lease ran out counts; the last one fails the job */
  recover: BetterSqlite3.Statement<[string, number, string, number]>;
  take: BetterSqlite3.Statement<[number, string, number, number], ClaimRow>;
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
