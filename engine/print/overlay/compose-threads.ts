// Pieces are composed (pdf-lib copies the artwork pages, pdfkit draws the marks) in worker threads:
// composing a two-sided postcard holds a JavaScript thread 20-50 ms, and on the engine's own thread
// that delayed every DevTools message of the browser's pages (their renders waited on it: a side took
// 70-100 ms of wall time in the engine against 16 ms on an idle thread) and every HTTP request. A few
// long-lived threads take the jobs; they start with the first piece and end after `idleMs` without one.
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { ComposeInput } from './compose';
import type { ComposeJob } from './compose-thread';
import { threadSource } from '../thread-entry';
import { IdleTimer } from '../../base/idle';

type Reply = { id: number; pdf: Uint8Array } | { id: number; error: string };

interface Pending {
  resolve(pdf: Uint8Array): void;
  reject(error: Error): void;
}

class Thread {
  readonly pending = new Map<number, Pending>();
  private readonly worker: Worker;

  constructor(onGone: (thread: Thread) => void) {
    this.worker = new Worker(threadSource(path.join(__dirname, 'compose-thread')), { eval: true });
    this.worker.unref(); // an idle thread does not keep the process alive
    this.worker.on('message', (reply: Reply) => {
      const job = this.pending.get(reply.id);
      this.pending.delete(reply.id);
      if (this.pending.size === 0) this.worker.unref();
      if ('error' in reply) job?.reject(new Error(reply.error));
      else job?.resolve(reply.pdf);
    });
    const gone = (error: Error) => {
      for (const job of this.pending.values()) job.reject(error);
      this.pending.clear();
      onGone(this);
    };
    this.worker.on('error', gone);
    this.worker.on('exit', (code) => gone(new Error(`the compose thread exited (${code})`)));
  }

  run(id: number, input: ComposeInput): Promise<Uint8Array> {
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.ref();
      this.worker.postMessage({ id, input } satisfies ComposeJob);
    });
  }

  terminate(): Promise<number> {
    return this.worker.terminate();
  }
}

export class ComposeThreads {
  private readonly threads: Thread[] = [];
  private nextId = 0;
  private readonly idle: IdleTimer;

  constructor(
    idleMs = 0,
    private readonly size = Math.max(1, Math.min(2, os.availableParallelism())),
  ) {
    this.idle = new IdleTimer(idleMs, () => void this.close());
  }

  /** How many threads are up. */
  get started(): number {
    return this.threads.length;
  }

  /** The piece's PDF, composed on the least busy thread (started when needed). */
  async compose(input: ComposeInput): Promise<Uint8Array> {
    const done = this.idle.begin();
    try {
      if (this.threads.length < this.size && this.threads.every((t) => t.pending.size > 0)) {
        this.threads.push(new Thread((gone) => this.threads.splice(this.threads.indexOf(gone) >>> 0, 1)));
      }
      const thread = this.threads.reduce((a, b) => (b.pending.size < a.pending.size ? b : a));
      return await thread.run(this.nextId++, input);
    } finally {
      done();
    }
  }

  /** Ends every thread; the next piece starts them again. */
  async close(): Promise<void> {
    this.idle.cancel();
    await Promise.all(this.threads.splice(0).map((t) => t.terminate()));
  }
}
