// openJobQueue: the engine's durable jobs on its own database (see types.ts).
import type { Database } from '../../store/connection';
import { Queue } from './queue';
import { postgresBackend } from './postgres';
import { sqliteBackend } from './sqlite';
import type { JobQueue, QueueOptions } from './types';

export type * from './types';

export function openJobQueue(db: Database, options: QueueOptions = {}): JobQueue {
  const {
    stopTimeoutMs = 10_000,
    keepCompletedMs = 3_600_000,
    schema = 'pgboss',
    poolMax = 3,
    onError = (error: Error) => process.stderr.write(`job queue: ${error.message}\n`),
  } = options;
  const backend =
    db.dialect === 'postgres'
      ? postgresBackend(db, { schema, poolMax, keepCompletedMs, onError })
      : sqliteBackend(db.knex, keepCompletedMs);
  return new Queue(backend, stopTimeoutMs, onError);
}
