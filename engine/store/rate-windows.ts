// Rate-limit windows counted in the database, so engine processes sharing PostgreSQL share each limit.
// Hits that arrive in the same turn of the event loop for one bucket go out as one upsert (`count + n`),
// which keeps the cost to one round trip per bucket and burst rather than per request, and stays exact.
import type { Knex } from 'knex';

interface Pending {
  bucket: string;
  windowStart: number;
  waiters: ((count: number) => void)[];
  failures: ((error: unknown) => void)[];
}

const SWEEP_MS = 60_000;

export class DatabaseHitCounter {
  private pending = new Map<string, Pending>();
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
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => void this.flush());
      }
    });
  }

  private async flush(): Promise<void> {
    const batch = [...this.pending.values()];
    this.pending = new Map();
    this.scheduled = false;
    await Promise.all(batch.map((entry) => this.write(entry)));
    await this.sweep();
  }

  private async write(entry: Pending): Promise<void> {
    const n = entry.waiters.length;
    try {
      const [row] = (await this.knex('rate_windows')
        .insert({ bucket: entry.bucket, window_start: entry.windowStart, count: n })
        .onConflict(['bucket', 'window_start'])
        .merge({ count: this.knex.raw('rate_windows.count + excluded.count') })
        .returning('count')) as { count: number }[];
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
