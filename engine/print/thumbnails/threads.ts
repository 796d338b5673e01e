// Thumbnails are drawn in worker threads: PDFium runs on the JavaScript thread (about 12 ms a page), which
// would stall every HTTP request of an engine process that also renders, and would cap a process at one
// core's worth of thumbnails. A few long-lived threads, each with PDFium loaded once, take the jobs: one
// a core (up to 4), since the browser's renderers mostly wait on the engine while thumbnails are drawn
// (issue 39: one thread on a 2-core machine held a burst to the thumbnails' pace, 5 pieces/s).
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { PageThumbnails } from './render';
import type { ThumbnailJob } from './thread';
import { threadSource } from '../thread-entry';
import { IdleTimer } from '../../base/idle';

type Reply =
  { ready: true } | { id: number; pages: Record<keyof PageThumbnails, Uint8Array>[] } | { id: number; error: string };

interface Pending {
  resolve(pages: PageThumbnails[]): void;
  reject(error: Error): void;
}

const asBuffer = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

class Thread {
  readonly pending = new Map<number, Pending>();
  readonly ready: Promise<void>;
  private readonly worker: Worker;

  constructor(private readonly onGone: (thread: Thread) => void) {
    this.worker = new Worker(threadSource(path.join(__dirname, 'thread')), { eval: true });
    this.worker.unref(); // an idle thread does not keep the process alive
    this.ready = new Promise((resolve, reject) => {
      this.worker.on('message', (reply: Reply) => {
        if ('ready' in reply) return resolve();
        const job = this.pending.get(reply.id);
        this.pending.delete(reply.id);
        if (this.pending.size === 0) this.worker.unref();
        if ('error' in reply) job?.reject(new Error(reply.error));
        else
          job?.resolve(
            reply.pages.map((p) => ({
              small: asBuffer(p.small),
              medium: asBuffer(p.medium),
              large: asBuffer(p.large),
            })),
          );
      });
      const gone = (error: Error) => {
        reject(error);
        for (const job of this.pending.values()) job.reject(error);
        this.pending.clear();
        onGone(this);
      };
      this.worker.on('error', gone);
      this.worker.on('exit', (code) => gone(new Error(`the thumbnail thread exited (${code})`)));
    });
    this.ready.catch(() => undefined);
  }

  /**
   * PDFium cannot be interrupted: a job past `timeoutMs` (a page that takes forever to rasterize) fails,
   * and its thread is ended with it; jobs queued behind it there fail too, and are retried elsewhere.
   */
  run(id: number, pdf: Uint8Array, timeoutMs: number): Promise<PageThumbnails[]> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Error(`the thumbnails took longer than ${timeoutMs} ms`));
        this.onGone(this); // out of the pool now: no job is sent to a thread being ended
        void this.terminate();
      }, timeoutMs);
      const settled =
        <A extends unknown[]>(settle: (...args: A) => void) =>
        (...args: A) => {
          clearTimeout(timer);
          settle(...args);
        };
      this.pending.set(id, { resolve: settled(resolve), reject: settled(reject) });
      this.worker.ref();
      this.worker.postMessage({ id, pdf } satisfies ThumbnailJob);
    });
  }

  terminate(): Promise<number> {
    return this.worker.terminate();
  }
}

/** Threads start with the jobs that need them and all end after `idleMs` without a job (0: they stay). */
export class ThumbnailThreads {
  private readonly threads: Thread[] = [];
  private nextId = 0;
  private readonly idle: IdleTimer;

  constructor(
    /** one PDF's thumbnails, at most */
    private readonly timeoutMs = 60_000,
    private readonly size = Math.max(1, Math.min(4, os.availableParallelism())),
    idleMs = 0,
  ) {
    this.idle = new IdleTimer(idleMs, () => void this.close());
  }

  /** How many threads are up. */
  get started(): number {
    return this.threads.length;
  }

  /** The PDF's thumbnails, rendered on the least busy thread (started when needed). */
  async thumbnails(pdf: Uint8Array): Promise<PageThumbnails[]> {
    const done = this.idle.begin();
    try {
      if (this.threads.length < this.size && this.threads.every((t) => t.pending.size > 0)) {
        this.threads.push(new Thread((gone) => this.threads.splice(this.threads.indexOf(gone) >>> 0, 1)));
      }
      const thread = this.threads.reduce((a, b) => (b.pending.size < a.pending.size ? b : a));
      await thread.ready;
      return await thread.run(this.nextId++, pdf, this.timeoutMs);
    } finally {
      done();
    }
  }

  /** Ends every thread; the next job starts them again. */
  async close(): Promise<void> {
    this.idle.cancel();
    await Promise.all(this.threads.splice(0).map((t) => t.terminate()));
  }
}
