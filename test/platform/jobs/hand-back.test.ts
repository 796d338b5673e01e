// A queue that stops while a handler is still running past its stop time hands the job back: due at
// once and with its attempt not spent, so another process (a queue on its own connections) takes it
// within moments, long before the 60 s lease would have run out.
import test from 'ava';
import { DATABASES } from '../../helpers/matrix';
import { openBed, until } from './helpers';

const LEASE = 60_000;

for (const kind of DATABASES) {
  test.serial(`${kind}: a stop hands a running job back to another process at once, its attempt unspent`, async (t) => {
    const bed = await openBed(kind, { stopTimeoutMs: 300 });
    try {
      const other = await bed.another();
      const seen: { who: string; attempt: number; at: number }[] = [];
      let stoppedAt = 0;
      // the first handler outlives the stop; it is abandoned, never settling the job
      await bed.queue.work<{ n: number }>('long', { concurrency: 1, leaseMs: LEASE, pollMs: 50 }, async (job) => {
        seen.push({ who: 'first', attempt: job.attempt, at: Date.now() });
        await new Promise((resolve) => job.signal.addEventListener('abort', resolve, { once: true }));
      });
      await bed.queue.send('long', { n: 1 });
      await until(() => seen.length === 1, 15_000, 'the first worker took the job');
      await other.queue.work<{ n: number }>('long', { concurrency: 1, leaseMs: LEASE, pollMs: 50 }, async (job) => {
        seen.push({ who: 'second', attempt: job.attempt, at: Date.now() });
      });
      stoppedAt = Date.now();
      await bed.queue.stop();
      await until(async () => (await other.queue.counts('long')).completed === 1, 15_000, 'the second worker done');
      t.deepEqual(
        seen.map(({ who, attempt }) => ({ who, attempt })),
        [
          { who: 'first', attempt: 1 },
          { who: 'second', attempt: 1 },
        ],
      );
      t.true(
        seen[1].at - stoppedAt < LEASE / 4,
        `taken ${seen[1].at - stoppedAt} ms after the stop, not after the lease`,
      );
      t.like(await other.queue.counts('long'), { queued: 0, active: 0, failed: 0, completed: 1 });
    } finally {
      await bed.close();
    }
  });
}
