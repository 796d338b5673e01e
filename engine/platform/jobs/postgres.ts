// The queue on PostgreSQL: pg-boss owns the schema (created under its advisory lock, so several
// processes may start at once), queues, retries with backoff, lease expiry and archiving, over its
// own connection pool. Writes that must be atomic with something else run pg-boss's statements in a
// transaction on the engine's pool (store/pg-boss-db.ts, which also holds the statements added here):
// a job with the caller's writes, a claim with its lease, a failure with the check that the attempt is
// still current. pg-boss's own work() is not used: it sleeps a full polling interval after every batch
// and settles a batch as one.
import type PgBoss from 'pg-boss';
import type { PgBossTransaction } from '../../store/pg-boss-db';
import type { Store } from '../../store/store';
import { errorText, tally, type Backend, type Claimed, type ResolvedJobOptions } from './backend';
import { pgBoss } from '../../base/packages';
import { codeOf } from '../../base/thrown';

export interface PostgresOptions {
  schema: string;
  poolMax: number;
  keepCompletedMs: number;
  onError(error: Error): void;
}

const SCHEMA = /^[a-z_][a-z0-9_]{0,49}$/;
const FAILED_KEPT_SECONDS = 90 * 24 * 3600;
const DEADLOCK = '40P01';

export function postgresBackend(store: Pick<Store, 'url' | 'pgBoss'>, options: PostgresOptions): Backend {
  const { schema, onError } = options;
  if (!SCHEMA.test(schema)) throw new Error(`job schema ${JSON.stringify(schema)}: lower-case letters, digits, '_'`);
  const tables = store.pgBoss;
  let stopped = false;
  const boss = new (pgBoss())({
    connectionString: store.url,
    schema,
    max: options.poolMax,
    application_name: 'printpost-jobs',
    // No cron yet (its clock monitor polls), no state monitor; expiry runs from maintain() at the
    // lease's pace, archiving and clean-up from pg-boss's own supervisor.
    schedule: false,
    supervise: true,
    maintenanceIntervalSeconds: 60,
    archiveCompletedAfterSeconds: Math.max(60, Math.ceil(options.keepCompletedMs / 1000)),
    archiveFailedAfterSeconds: FAILED_KEPT_SECONDS,
  });
  // Without a listener an 'error' event would throw; once stopping, a late one is noise.
  boss.on('error', (error) => {
    if (!stopped) onError(error instanceof Error ? error : new Error(String(error)));
  });

  // pg-boss's create_queue can deadlock when two processes create queues at once (each holds a lock
  // the other's new partition needs); PostgreSQL then fails one of them, which simply tries again.
  const createQueue = async (name: string): Promise<void> => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await boss.createQueue(name, { name, policy: 'standard' });
      } catch (error) {
        if (codeOf(error) !== DEADLOCK || attempt === 5) throw error;
      }
    }
  };
  const queues = new Map<string, Promise<void>>();
  const ensureQueue = (name: string): Promise<void> => {
    let created = queues.get(name);
    if (!created) {
      created = createQueue(name);
      created.catch(() => queues.delete(name));
      queues.set(name, created);
    }
    return created;
  };

  /** The job's id, or null when its singleton key has a job queued or active. */
  const insert = async (
    trx: PgBossTransaction,
    name: string,
    data: object,
    o: ResolvedJobOptions,
  ): Promise<string | null> => {
    await ensureQueue(name);
    // pg-boss's policies would also bind jobs without a key; this lock and check bind keyed jobs
    // only. The lock is held to the caller's commit, so a racing send sees this job.
    if (o.singletonKey !== undefined && (await trx.singletonTaken(schema, name, o.singletonKey))) return null;
    const delaySeconds = Math.ceil(o.retryDelayMs / 1000);
    // Sent as JSON text: the driver would turn an array into a PostgreSQL array, not jsonb.
    return boss.send(name, JSON.stringify(data) as unknown as object, {
      retryLimit: o.retryLimit,
      retryDelay: delaySeconds,
      retryBackoff: delaySeconds > 0,
      startAfter: o.startAfter,
      singletonKey: o.singletonKey,
      priority: o.priority,
      db: trx.db,
    });
  };

  /**
   * Jobs without a singleton key sent in one transaction in the same turn (a group commit's pieces)
   * go out as one pg-boss insert: one statement for all of them rather than one each.
   */
  const together = new WeakMap<PgBossTransaction, { jobs: PgBoss.JobInsert[]; written: Promise<void> }>();
  /** the last keyed job sent in each transaction */
  const keyed = new WeakMap<PgBossTransaction, Promise<unknown>>();
  const insertTogether = async (trx: PgBossTransaction, name: string, data: object, o: ResolvedJobOptions) => {
    await ensureQueue(name);
    let batch = together.get(trx);
    if (!batch) {
      const jobs: PgBoss.JobInsert[] = [];
      const written = new Promise<void>((resolve, reject) =>
        setImmediate(() => {
          together.delete(trx);
          boss.insert(jobs, { db: trx.db }).then(() => resolve(), reject);
        }),
      );
      batch = { jobs, written };
      together.set(trx, batch);
    }
    const delaySeconds = Math.ceil(o.retryDelayMs / 1000);
    batch.jobs.push({
      name,
      data,
      retryLimit: o.retryLimit,
      retryDelay: delaySeconds,
      retryBackoff: delaySeconds > 0,
      startAfter: o.startAfter?.toISOString(),
      priority: o.priority,
    });
    await batch.written;
  };

  return {
    async start() {
      await boss.start();
    },

    enqueueWith: (name, data, o) => {
      // Created now, so the caller's transaction rarely waits for it.
      ensureQueue(name).catch(() => undefined);
      return {
        send: async (trx) => {
          if (o.singletonKey === undefined) return insertTogether(trx, name, data, o);
          // one after another in a transaction: each checks for the keyed jobs the ones before it sent
          const previous = keyed.get(trx) ?? Promise.resolve();
          const mine = previous.then(() => insert(trx, name, data, o));
          keyed.set(
            trx,
            mine.catch(() => undefined),
          );
          await mine;
        },
      };
    },

    async send(name, data, o) {
      await ensureQueue(name);
      return tables.inTransaction((trx) => insert(trx, name, data, o));
    },

    async claim(name, max, leaseMs) {
      const jobs = await tables.inTransaction(async (trx) => {
        const fetched = await boss.fetch<unknown>(name, { batchSize: max, includeMetadata: true, db: trx.db });
        // The lease is the worker's, so it is set as the job is taken (pg-boss reads it at expiry).
        if (fetched.length > 0)
          await trx.setLease(
            schema,
            name,
            fetched.map((j) => j.id),
            leaseMs,
          );
        return fetched;
      });
      return jobs.map((j): Claimed => ({
        id: j.id,
        name,
        data: j.data,
        attempt: j.retryCount + 1,
        retryLimit: j.retryLimit,
        retryDelayMs: j.retryDelay * 1000,
      }));
    },

    async complete(job) {
      await tables.completeAttempt(schema, job.name, job.id, job.attempt - 1);
    },

    async fail(job, error) {
      await tables.inTransaction(async (trx) => {
        // The row lock keeps expiry from retrying this attempt between the check and the failure.
        if (await trx.lockCurrentAttempt(schema, job.name, job.id, job.attempt - 1))
          await boss.fail(job.name, job.id, { message: errorText(error) }, { db: trx.db });
      });
    },

    async release(job) {
      await tables.releaseAttempt(schema, job.name, job.id, job.attempt - 1);
    },

    async maintain() {
      await boss.expire();
    },

    counts: async (name) => tally(await tables.countByState(schema, name)),

    async waiting() {
      return (await tables.waiting(schema)).map((r) => ({
        name: r.name,
        queued: Number(r.queued),
        oldestDueMs: r.oldest_due_ms === null ? 0 : Math.max(0, Math.round(Number(r.oldest_due_ms))),
      }));
    },

    async stop() {
      stopped = true;
      await boss.stop({ graceful: false });
    },
  };
}
