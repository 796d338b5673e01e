// openJobQueue: the engine's durable jobs on its own database (see types.ts).
import type { Store } from '../../store/store';
import { Queue } from './queue';
import { postgresBackend } from './postgres';
import { sqliteBackend } from './sqlite';
import type { JobQueue, QueueOptions } from './types';

export type * from './types';

/** The queue in the store's database: pg-boss on PostgreSQL, the `jobs` table on SQLite. */
export function openJobQueue(
  store: Pick<Store, 'dialect' | 'url' | 'pgBoss' | 'jobTable'>,
  options: QueueOptions = {},
): JobQueue {
  const {
    stopTimeoutMs = 10_000,
    keepCompletedMs = 3_600_000,
    schema = 'pgboss',
    poolMax = 3,
    onError = (error: Error) => process.stderr.write(`job queue: ${error.message}\n`),
  } = options;
  const backend =
    store.dialect === 'postgres'
      ? postgresBackend(store, { schema, poolMax, keepCompletedMs, onError })
      : sqliteBackend(store.jobTable, keepCompletedMs);
  return new Queue(backend, stopTimeoutMs, onError);
}
