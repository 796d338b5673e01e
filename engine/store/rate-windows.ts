// Rate-limit windows counted in the database, so engine processes sharing PostgreSQL share each limit.
// A bucket's window has at most one upsert in flight: the hits that arrive meanwhile wait and go out
// together in the next (`count + n`), so a busy bucket costs one round trip per round trip's worth of
// hits, not one per turn of the event loop, and the counts stay exact. On a loopback connection the
// write of each query cost more engine CPU than the rest of a read by id.
import type { Knex } from 'knex';

interface Pending {
  bucket: string;
  windowStart: number;
  waiters: ((count: number) => void)[];
  failures: ((error: unknown) => void)[];
}

const SWEEP_MS = 60_000;

export class DatabaseHitCounter {
  /** hits not yet sent, by bucket window */
  private pending = new Map<string, Pending>();
  /** bucket windows with an upsert in flight */
  private readonly writing = new Set<string>();
  private scheduled = false;
  private lastSweep = 0;

  constructor(private readonly knex: Knex) {}

  /** Counts one hit in the bucket's window; resolves to the window's count including this hit. */
  add(bucket: string, windowStart: number): Promise<number> {
    return new Promise((resolve, reject) => {
      const id = `${windowStart} ${bucket}`;
      let entry = this.pending.get(id);
      if (!entry) {
        entry = { bucket, windowStart, waiters: [], failures: [] };
        this.pending.set(id, entry);
      }
      entry.waiters.push(resolve);
      entry.failures.push(reject);
      if (!this.writing.has(id)) this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => void this.flush());
  }

  private async flush(): Promise<void> {
    this.scheduled = false;
    const sent: Promise<void>[] = [];
    for (const [id, entry] of this.pending) {
      if (this.writing.has(id)) continue;
      this.pending.delete(id);
      this.writing.add(id);
      sent.push(
        this.write(entry).finally(() => {
          this.writing.delete(id);
          if (this.pending.has(id)) this.schedule();
        }),
      );
    }
    await Promise.all(sent);
    await this.sweep();
  }

  private async write(entry: Pending): Promise<void> {
    const n = entry.waiters.length;
    try {
      const [row] = await this.knex<{ bucket: string; window_start: number; count: number }>('rate_windows')
        .insert({ bucket: entry.bucket, window_start: entry.windowStart, count: n })
        .onConflict(['bucket', 'window_start'])
        .merge({ count: this.knex.raw('rate_windows.count + excluded.count') })
        .returning('count');
      const first = Number(row.count) - n;
      entry.waiters.forEach((resolve, i) => resolve(first + i + 1));
    } catch (error) {
      for (const reject of entry.failures) reject(error);
    }
  }

  /** Windows older than a minute are of no use: dropped at most once a minute per process. */
  private async sweep(): Promise<void> {
    if (Date.now() - this.lastSweep < SWEEP_MS) return;
    this.lastSweep = Date.now();
    await this.knex('rate_windows')
      .where('window_start', '<', Date.now() - SWEEP_MS)
      .delete()
      .catch(() => undefined);
  }
}
