// The engine's durable job runner, one interface over SQLite (a `jobs` table) and PostgreSQL (pg-boss).
// A job is done at least once and, barring a worker that outlives its lease, exactly once; a worker
// that dies mid-job loses nothing: its lease runs out and the job is taken again.
import type { JobWrite } from '../../store/commit';

export type { JobWrite } from '../../store/commit';

export interface JobOptions {
  /** retries after the first attempt (default 2); a job out of retries is kept as failed */
  retryLimit?: number;
  /** base of the exponential backoff (default 1000): retry n waits base * 2^(n-1), up to twice that
   * (jitter); PostgreSQL counts whole seconds */
  retryDelayMs?: number;
  /** not taken before this time */
  startAfter?: Date;
  /** at most one queued-or-active job per name and key: a second is dropped (send gives null) */
  singletonKey?: string;
  /**
   * due jobs are taken highest first, then oldest (default 0): the jobs of a long batch (a campaign's
   * pieces) count down, so another account's single job does not wait behind all of them
   */
  priority?: number;
}

export interface Job<T> {
  id: string;
  name: string;
  data: T;
  /** 1-based; an attempt whose worker died counts */
  attempt: number;
  /** a failure now fails the job for good */
  lastAttempt: boolean;
  /** aborted when the lease runs out or stop() stops waiting: the job will be taken again */
  signal: AbortSignal;
}

export interface WorkOptions {
  /** handlers running at once in this process */
  concurrency: number;
  /** a job not finished within it is taken again (its worker died); its handler is abandoned */
  leaseMs: number;
  /** how often an idle worker looks for jobs (default 200) */
  pollMs?: number;
}

export interface JobCounts {
  /** waiting, including delayed jobs and jobs waiting for a retry */
  queued: number;
  active: number;
  failed: number;
  /** completed recently (they are cleared after `keepCompletedMs`) */
  completed: number;
}

/** Jobs of one name waiting to be taken. */
export interface WaitingJobs {
  name: string;
  /** queued, due or not */
  queued: number;
  /** how long the oldest due one has waited (0 when none is due) */
  oldestDueMs: number;
}

export interface JobQueue {
  /** prepares storage (pg-boss's schema); safe when several processes start at once */
  start(): Promise<void>;
  /** the job as a write that commits with the caller's own (the `jobs` of an insert's or a transition's commit) */
  enqueueWith(name: string, data: object, options?: JobOptions): JobWrite;
  /** the job's id, or null when its singleton key already has one queued or active */
  send(name: string, data: object, options?: JobOptions): Promise<string | null>;
  /** works `name` until stop(): a handler that resolves completes the job, one that throws fails the attempt */
  work<T>(name: string, options: WorkOptions, handler: (job: Job<T>) => Promise<void>): Promise<void>;
  /**
   * stops taking jobs and waits (bounded) for running handlers; unfinished ones are handed back, due
   * at once. Sends still go: a request answered while its process drains may queue its job.
   */
  stopWorking(): Promise<void>;
  /** stopWorking(), then closes the queue: sends are refused from then on */
  stop(): Promise<void>;
  /** jobs by state, for one name or all */
  counts(name?: string): Promise<JobCounts>;
  /** queued jobs by name, with the wait of the oldest due one (the whole shared queue) */
  waiting(): Promise<WaitingJobs[]>;
}

export interface QueueOptions {
  /** how long stop() waits for running handlers (default 10 s) */
  stopTimeoutMs?: number;
  /** completed jobs stay countable this long (default 1 hour); failed jobs are kept */
  keepCompletedMs?: number;
  /** PostgreSQL: the schema of pg-boss's tables (default `pgboss`) */
  schema?: string;
  /** PostgreSQL: connections of pg-boss's own pool (default 3) */
  poolMax?: number;
  /** failures of the queue's own machinery (a poll, maintenance); default: written to stderr */
  onError?(error: Error): void;
}
