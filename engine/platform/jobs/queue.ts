// The JobQueue over a database backend: argument checks, workers, wake-ups on send, periodic upkeep
// and a bounded stop.
import { resolveJob, type Backend } from './backend';
import { asError, Worker, type Handler } from './worker';
import type { Job, JobCounts, JobOptions, JobQueue, JobWrite, WaitingJobs, WorkOptions } from './types';

export class Queue implements JobQueue {
  private readonly workers: Worker[] = [];
  private started = false;
  private stopped = false;
  /** false once stopWorking() ran: no new work loop and no upkeep, though sends still go */
  private working = true;
  private upkeep: NodeJS.Timeout | undefined;
  private upkeepRun: Promise<void> = Promise.resolve();

  constructor(
    private readonly backend: Backend,
    private readonly stopTimeoutMs: number,
    private readonly onError: (error: Error) => void,
  ) {}

  async start(): Promise<void> {
    if (this.stopped) throw new Error('the job queue is stopped');
    await this.backend.start();
    this.started = true;
  }

  enqueueWith(name: string, data: object, options?: JobOptions): JobWrite {
    this.assertOpen();
    return this.backend.enqueueWith(name, data, resolveJob(name, data, options));
  }

  async send(name: string, data: object, options?: JobOptions): Promise<string | null> {
    this.assertOpen();
    const id = await this.backend.send(name, data, resolveJob(name, data, options));
    if (id !== null && !options?.startAfter) for (const w of this.workers) if (w.name === name) w.notify();
    return id;
  }

  async work<T>(name: string, options: WorkOptions, handler: (job: Job<T>) => Promise<void>): Promise<void> {
    this.assertOpen();
    if (!this.working) throw new Error('the job queue has stopped working');
    resolveJob(name, {});
    const { concurrency, leaseMs, pollMs = 200 } = options;
    if (!Number.isInteger(concurrency) || concurrency < 1) throw new Error('concurrency must be an integer >= 1');
    if (!Number.isInteger(leaseMs) || leaseMs < 100) throw new Error('leaseMs must be an integer >= 100');
    if (!(pollMs >= 10)) throw new Error('pollMs must be >= 10');
    const worker = new Worker(this.backend, name, { concurrency, leaseMs, pollMs }, handler as Handler, this.onError);
    this.workers.push(worker);
    worker.start();
    this.scheduleUpkeep();
  }

  async stopWorking(): Promise<void> {
    this.working = false;
    clearTimeout(this.upkeep);
    await Promise.all(this.workers.map((w) => w.stop(this.stopTimeoutMs)));
    await this.upkeepRun;
  }

  async stop(): Promise<void> {
    if (this.stopped) return;
    await this.stopWorking();
    this.stopped = true;
    await this.backend.stop();
  }

  counts(name?: string): Promise<JobCounts> {
    return this.backend.counts(name);
  }

  waiting(): Promise<WaitingJobs[]> {
    return this.backend.waiting();
  }

  /** Lease recovery and clean-up, at half the shortest lease (bounded), never two at once. */
  private scheduleUpkeep(): void {
    if (this.stopped || !this.working) return;
    clearTimeout(this.upkeep);
    const shortest = Math.min(...this.workers.map((w) => w.leaseMs));
    const every = Math.min(30_000, Math.max(250, shortest / 2));
    this.upkeep = setTimeout(() => {
      this.upkeepRun = this.backend
        .maintain([...new Set(this.workers.map((w) => w.name))])
        .catch((error: unknown) => this.onError(asError(error)))
        .finally(() => this.scheduleUpkeep());
    }, every);
  }

  private assertOpen(): void {
    if (this.stopped) throw new Error('the job queue is stopped');
    // Before pg-boss has started, its queues cannot be created and a send would vanish.
    if (!this.started) throw new Error('the job queue is not started: call start() first');
  }
}
