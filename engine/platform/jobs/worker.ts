// One name's work loop in one process: claim up to the free slots, run each handler under its lease,
// settle it, and poll again (at once when a slot frees or a send in this process wakes it).
import type { Backend, Claimed } from './backend';
import type { Job, WorkOptions } from './types';
import { nextTurn } from '../../base/next-turn';

export type Handler = (job: Job<unknown>) => Promise<void>;

type Outcome = { ok: true } | { ok: false; error: unknown };

export class Worker {
  private readonly running = new Set<Promise<void>>();
  /** the running jobs' leases, with what was claimed, so a stop can hand them back */
  private readonly leases = new Map<AbortController, Claimed>();
  private stopping = false;
  private woken = false;
  private wake: (() => void) | undefined;
  private loop: Promise<void> = Promise.resolve();

  constructor(
    private readonly backend: Backend,
    readonly name: string,
    private readonly options: Required<WorkOptions>,
    private readonly handler: Handler,
    private readonly onError: (error: Error) => void,
  ) {}

  get leaseMs(): number {
    return this.options.leaseMs;
  }

  start(): void {
    this.loop = this.run();
  }

  /** Ends waiting now (a job was sent, a slot freed, stop). */
  notify(): void {
    this.woken = true;
    this.wake?.();
  }

  /**
   * Stops claiming and waits up to `timeoutMs` for running handlers; the jobs of those still running
   * then are handed back, due at once, so another process takes them now rather than when their
   * leases run out (their handlers are abandoned, as after a lost lease).
   */
  async stop(timeoutMs: number): Promise<void> {
    this.stopping = true;
    this.notify();
    await this.loop;
    let timer: NodeJS.Timeout | undefined;
    const timedOut = await Promise.race([
      Promise.allSettled([...this.running]).then(() => false),
      new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), timeoutMs))),
    ]);
    clearTimeout(timer);
    if (timedOut) {
      const held = [...this.leases];
      for (const [lease] of held) lease.abort(new Error('the job queue stopped'));
      await Promise.allSettled(
        held.map(([, claimed]) => this.backend.release(claimed).catch((e) => this.onError(asError(e)))),
      );
    }
    await Promise.allSettled([...this.running]);
  }

  private async run(): Promise<void> {
    const { concurrency, leaseMs, pollMs } = this.options;
    while (!this.stopping) {
      const free = concurrency - this.running.size;
      let claimed = 0;
      let failed = false;
      if (free > 0) {
        try {
          const jobs = await this.backend.claim(this.name, free, leaseMs);
          for (const job of jobs) this.track(this.execute(job));
          claimed = jobs.length;
        } catch (error) {
          this.onError(asError(error));
          failed = true;
        }
      }
      // A full claim suggests more are due: claim again once a slot frees, without a poll's delay.
      if (free > 0 && claimed === free) continue;
      // A database that is down is asked again at most every second, and reported as often.
      await this.pause(failed ? Math.max(pollMs, 1000) : pollMs);
    }
  }

  private pause(ms: number): Promise<void> {
    if (this.woken) {
      this.woken = false;
      // a turn, not a microtask: short jobs on SQLite would otherwise chain claim to claim unanswered
      return nextTurn();
    }
    return new Promise((resolve) => {
      const finish = () => {
        clearTimeout(timer);
        this.wake = undefined;
        this.woken = false;
        resolve();
      };
      const timer = setTimeout(finish, ms);
      this.wake = finish;
    });
  }

  private track(execution: Promise<void>): void {
    this.running.add(execution);
    void execution.finally(() => {
      this.running.delete(execution);
      this.notify();
    });
  }

  private async execute(claimed: Claimed): Promise<void> {
    const { leaseMs } = this.options;
    const lease = new AbortController();
    this.leases.set(lease, claimed);
    // The handler must settle a little before the lease ends, or expiry may already hand the job on.
    const timer = setTimeout(
      () => lease.abort(new Error(`the lease of ${leaseMs} ms ran out`)),
      leaseMs - Math.min(leaseMs / 10, 5000),
    );
    const job: Job<unknown> = {
      id: claimed.id,
      name: claimed.name,
      data: claimed.data,
      attempt: claimed.attempt,
      lastAttempt: claimed.attempt > claimed.retryLimit,
      signal: lease.signal,
    };
    try {
      const outcome = await Promise.race([
        this.handler(job).then(
          (): Outcome => ({ ok: true }),
          (error: unknown): Outcome => ({ ok: false, error }),
        ),
        aborted(lease.signal),
      ]);
      if (lease.signal.aborted) {
        // Abandoned (lease out or stopped): the job stays active until its lease ends, then is retried.
        this.onError(new Error(`job ${claimed.name} ${claimed.id} abandoned: ${String(lease.signal.reason)}`));
        return;
      }
      if (outcome?.ok) await this.backend.complete(claimed);
      else await this.backend.fail(claimed, asError(outcome?.error));
    } catch (error) {
      this.onError(asError(error));
    } finally {
      clearTimeout(timer);
      this.leases.delete(lease);
    }
  }
}

function aborted(signal: AbortSignal): Promise<undefined> {
  return new Promise((resolve) => signal.addEventListener('abort', () => resolve(undefined), { once: true }));
}

export function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
