// Merging runs in a worker thread with a time limit: Handlebars cannot be interrupted, and nested
// {{#each}} blocks over a piece's own arrays grow without bound (three levels over 300 items took
// 5.5 s and 27 MB; four would take half an hour), which on the engine's thread would stall every
// request and render of the process. A merge past its time, or past the thread's memory limit, has
// the thread replaced and fails only its piece. A template that only substitutes (boundedMerge) cannot
// run away and is merged in the calling thread, without waiting its turn at the thread.
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { threadSource } from '../thread-entry';
import { IdleTimer } from '../../base/idle';
import type { MergeJob } from './merge-thread';
import { mergeHtml } from './merge-html';
import { messageOf } from '../../base/thrown';

export { mergeHtml };

/** Why a merge failed: `timeout` (past its time), `memory` (past the thread's heap), or `template` (Handlebars threw). */
export class MergeFailed extends Error {
  constructor(
    readonly reason: 'timeout' | 'memory' | 'template',
    message: string,
  ) {
    super(message);
  }
}

type Reply = { id: number; html: string } | { id: number; error: string };

/** Artwork up to this size without blocks or partials is merged in the calling thread (compiled once). */
const INLINE_MERGE_CHARS = 256 * 1024;

/**
 * Whether a merge is bounded: without a block (`{{#each}}`, `{{^}}`), a partial or a decorator, a
 * template only substitutes (at most 1,000 tags, checked at create) and cannot run away, so it is
 * merged at once in the calling thread. Through the thread each side waited its turn behind every
 * other piece's (issue 39: the thread's arrival took the engine from 17 to 12 postcard PDFs a second).
 */
export const boundedMerge = (html: string): boolean =>
  html.length <= INLINE_MERGE_CHARS && !/\{\{~?\s*[#^>*&]/.test(html);

/** The thread's heap: a merge that needs more fails its piece instead of the process. */
const HEAP_MB = 512;

interface Queued {
  job: MergeJob;
  timeoutMs: number;
  resolve(html: string): void;
  reject(error: Error): void;
}

/**
 * One merge thread, one merge at a time: each merge's time starts when it starts, and a runaway
 * merge ends with its own thread, failing only its piece; those queued behind it go to the next.
 * The thread starts with the first merge and ends after `idleMs` without one (0: it stays).
 */
export class MergeThread {
  private worker: Worker | undefined;
  private nextId = 0;
  private readonly queue: Queued[] = [];
  private running: (Queued & { timer: NodeJS.Timeout; done: () => void }) | undefined;
  private readonly idle: IdleTimer;

  constructor(idleMs = 0) {
    this.idle = new IdleTimer(idleMs, () => this.stopIdle());
  }

  /** Whether the thread is up (it is started by a merge and ended when idle). */
  get started(): boolean {
    return this.worker !== undefined;
  }

  /** The merged HTML; rejects with MergeFailed. */
  merge(request: Omit<MergeJob, 'id'>, timeoutMs: number): Promise<string> {
    if (!request.html.includes('{{')) return Promise.resolve(request.html);
    if (boundedMerge(request.html)) {
      try {
        return Promise.resolve(mergeHtml(request.html, request.variables, request.cacheKey, request.text));
      } catch (error) {
        return Promise.reject(new MergeFailed('template', messageOf(error).split('\n')[0]));
      }
    }
    return new Promise<string>((resolve, reject) => {
      this.queue.push({ job: { id: this.nextId++, ...request }, timeoutMs, resolve, reject });
      this.pump();
    });
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    const closed = new MergeFailed('template', 'the engine is stopping');
    for (const queued of this.queue.splice(0)) queued.reject(closed);
    if (this.running) this.finish(this.running.job.id, closed);
    this.idle.cancel(); // after finish, which arms it
    if (worker) await worker.terminate();
  }

  private pump(): void {
    if (this.running || this.queue.length === 0) return;
    const next = this.queue.shift()!;
    const worker = this.thread();
    const timer = setTimeout(
      () =>
        this.replace(worker, new MergeFailed('timeout', `merging the artwork took longer than ${next.timeoutMs} ms`)),
      next.timeoutMs,
    );
    this.running = { ...next, timer, done: this.idle.begin() };
    worker.ref();
    worker.postMessage(next.job);
  }

  /** Settles the running merge if it is `id`, then starts the next. */
  private finish(id: number, outcome: string | Error): void {
    const running = this.running;
    if (!running || running.job.id !== id) return;
    clearTimeout(running.timer);
    running.done();
    this.running = undefined;
    if (typeof outcome === 'string') running.resolve(outcome);
    else running.reject(outcome);
    if (this.queue.length === 0) this.worker?.unref();
    this.pump();
  }

  private thread(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(threadSource(path.join(__dirname, 'merge-thread')), {
      eval: true,
      resourceLimits: { maxOldGenerationSizeMb: HEAP_MB },
    });
    worker.unref();
    worker.on('message', (reply: Reply) =>
      this.finish(reply.id, 'error' in reply ? new MergeFailed('template', reply.error) : reply.html),
    );
    worker.on('error', (error: Error & { code?: string }) =>
      this.replace(
        worker,
        error.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? new MergeFailed('memory', `merging the artwork needed more than ${HEAP_MB} MB`)
          : new MergeFailed('template', error.message),
      ),
    );
    worker.on('exit', () => this.replace(worker, new MergeFailed('template', 'the merge thread stopped')));
    this.worker = worker;
    return worker;
  }

  private stopIdle(): void {
    const worker = this.worker;
    if (!worker || this.running || this.queue.length > 0) return;
    this.worker = undefined; // its 'exit' is then no one's failure
    void worker.terminate();
  }

  /** Ends `worker`, failing the merge it was running; the next merge starts a new thread. */
  private replace(worker: Worker, error: MergeFailed): void {
    if (this.worker !== worker) return;
    this.worker = undefined;
    void worker.terminate();
    if (this.running) this.finish(this.running.job.id, error);
  }
}
