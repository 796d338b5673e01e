// What a database must do for the queue; the work loop, shutdown and options are shared (queue.ts).
import type { JobWrite } from '../../store/commit';
import type { JobCounts, JobOptions, WaitingJobs } from './types';

/** A job as claimed: `attempt` doubles as the fence, so a late worker cannot settle a newer attempt. */
export interface Claimed {
  id: string;
  name: string;
  data: unknown;
  attempt: number;
  retryLimit: number;
  retryDelayMs: number;
}

export interface Backend {
  start(): Promise<void>;
  enqueueWith(name: string, data: object, options: ResolvedJobOptions): JobWrite;
  send(name: string, data: object, options: ResolvedJobOptions): Promise<string | null>;
  /** takes up to `max` due jobs for one lease (and recovers jobs whose lease ran out) */
  claim(name: string, max: number, leaseMs: number): Promise<Claimed[]>;
  /** both are no-ops when the attempt is no longer the job's current one */
  complete(job: Claimed): Promise<void>;
  fail(job: Claimed, error: Error): Promise<void>;
  /** hands the attempt back, due now and not counted (a no-op when it is no longer current) */
  release(job: Claimed): Promise<void>;
  /** periodic upkeep while workers run: lease recovery where claim does not do it, clean-up */
  maintain(names: string[]): Promise<void>;
  counts(name?: string): Promise<JobCounts>;
  waiting(): Promise<WaitingJobs[]>;
  stop(): Promise<void>;
}

export interface ResolvedJobOptions {
  retryLimit: number;
  retryDelayMs: number;
  startAfter?: Date;
  singletonKey?: string;
  priority: number;
}

const NAME = /^[A-Za-z0-9][\w.-]{0,99}$/;

/** Checks a send's arguments up front, so a bad job fails the caller rather than its commit. */
export function resolveJob(name: string, data: object, options: JobOptions = {}): ResolvedJobOptions {
  if (!NAME.test(name)) throw new Error(`job name ${JSON.stringify(name)}: letters, digits, '_', '.', '-'`);
  if (data === null || typeof data !== 'object') throw new Error('job data must be an object');
  const { retryLimit = 2, retryDelayMs = 1000, startAfter, singletonKey, priority = 0 } = options;
  if (!Number.isInteger(retryLimit) || retryLimit < 0) throw new Error('retryLimit must be an integer >= 0');
  if (!Number.isInteger(retryDelayMs) || retryDelayMs < 0) throw new Error('retryDelayMs must be an integer >= 0');
  if (startAfter && Number.isNaN(startAfter.getTime())) throw new Error('startAfter is not a valid date');
  if (singletonKey !== undefined && (singletonKey.length === 0 || singletonKey.length > 200))
    throw new Error('singletonKey must be 1 to 200 characters');
  // pg-boss keeps it in an integer column
  if (!Number.isInteger(priority) || Math.abs(priority) > 2 ** 31 - 1) throw new Error('priority must be an int32');
  return { retryLimit, retryDelayMs, startAfter, singletonKey, priority };
}

/** Retry n (1-based) waits base * 2^(n-1), stretched by up to as much again so retries spread out. */
export function backoffMs(baseMs: number, retry: number): number {
  return Math.round(baseMs * 2 ** Math.min(16, retry - 1) * (1 + Math.random()));
}

export function errorText(error: unknown): string {
  return error instanceof Error ? error.message || error.name : String(error);
}

/** Sums rows of (state, count) into the four counts; other states (pg-boss's `cancelled`) are left out. */
export function tally(rows: { state: string; n: number | string }[]): JobCounts {
  const counts: JobCounts = { queued: 0, active: 0, failed: 0, completed: 0 };
  for (const { state, n } of rows) {
    const key = state === 'created' || state === 'retry' ? 'queued' : state;
    if (key in counts) counts[key as keyof JobCounts] += Number(n);
  }
  return counts;
}
