// A fresh, migrated database with a job queue over it, and small waiting helpers for the job tests.
import { connect, type Database } from '../../../engine/store/connection';
import { storeOn } from '../../../engine/store/store';
import { migrateLatest } from '../../../engine/store/migrate';
import { openJobQueue, type JobQueue, type QueueOptions } from '../../../engine/platform/jobs';
import { freshDatabase, type Db } from '../../helpers/engine';

export interface JobsBed {
  url: string;
  db: Database;
  /** a queue over `db` (stopped by close) */
  queue: JobQueue;
  /** errors the queues reported */
  errors: Error[];
  /** another queue on the same database, on its own connections (like another process) */
  another(options?: QueueOptions): Promise<{ db: Database; queue: JobQueue }>;
  close(): Promise<void>;
}

export async function openBed(kind: Db, options: QueueOptions = {}): Promise<JobsBed> {
  const fresh = await freshDatabase(kind);
  const db = connect(fresh.url);
  await migrateLatest(db.knex);
  const errors: Error[] = [];
  const queueOptions = { stopTimeoutMs: 2000, onError: (e: Error) => errors.push(e), ...options };
  const queue = openJobQueue(storeOn(db), queueOptions);
  await queue.start();
  const others: { db: Database; queue: JobQueue }[] = [];
  return {
    url: fresh.url,
    db,
    queue,
    errors,
    async another(more = {}) {
      const other = connect(fresh.url);
      const q = openJobQueue(storeOn(other), { ...queueOptions, ...more });
      await q.start();
      others.push({ db: other, queue: q });
      return { db: other, queue: q };
    },
    async close() {
      for (const o of others) {
        await o.queue.stop();
        await o.db.knex.destroy();
      }
      await queue.stop();
      await db.knex.destroy();
      await fresh.drop();
    },
  };
}

/** Resolves once `check` holds, polling; rejects after `timeoutMs`. */
export async function until(
  check: () => boolean | Promise<boolean>,
  timeoutMs = 15_000,
  what = 'condition',
): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Whole-second retry delays on PostgreSQL (pg-boss), shorter on SQLite. */
export const retryBase = (kind: Db) => (kind === 'postgres' ? 1000 : 150);
