// The queue on SQLite: the `jobs` table (migrations/007_jobs.ts) on the engine's one write
// connection, worked through the store (store/job-queue.ts holds its SQL: each claim a single
// statement, so even several processes on one file never take a job twice; an attempt settled only
// while it is still the job's current one, so a worker that overran its lease changes nothing).
import { randomUUID } from 'node:crypto';
import type { JobRow, JobWrite } from '../../store/commit';
import type { Store } from '../../store/store';
import { backoffMs, errorText, tally, type Backend, type Claimed, type ResolvedJobOptions } from './backend';

export function sqliteBackend(table: Store['jobTable'], keepCompletedMs: number): Backend {
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
      if (!(await table.exists())) throw new Error('the jobs table is missing: run the migrations first');
    },

    enqueueWith: (name, data, options): JobWrite => ({ row: row(name, data, options) }),

    send: (name, data, options) => table.insert(row(name, data, options)),

    async claim(name, max, leaseMs) {
      const now = Date.now();
      const rows = await table.claim({ name, max, now, leaseUntil: now + leaseMs, leaseLost: LEASE_LOST });
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
      await table.complete(job.id, job.attempt, Date.now());
    },

    async fail(job, error) {
      const retry = job.attempt <= job.retryLimit;
      const now = Date.now();
      await table.fail(job.id, job.attempt, {
        state: retry ? 'queued' : 'failed',
        runAt: retry ? now + backoffMs(job.retryDelayMs, job.attempt) : now,
        lastError: errorText(error).slice(0, 4000),
      });
    },

    async release(job) {
      await table.release(job.id, job.attempt, Date.now());
    },

    async maintain(names) {
      if (names.length === 0) return;
      await table.dropCompleted(names, Date.now() - keepCompletedMs);
    },

    counts: async (name) => tally(await table.countByState(name)),

    async waiting() {
      const now = Date.now();
      return (await table.waiting(now)).map((r) => ({
        name: r.name,
        queued: Number(r.queued),
        oldestDueMs: r.oldest_due === null ? 0 : Math.max(0, now - Number(r.oldest_due)),
      }));
    },

    async stop() {},
  };
}

const LEASE_LOST = 'the lease ran out before the job finished';
