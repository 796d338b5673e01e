// The job queue on both databases: every job done exactly once under concurrency, retries with growing
// delays then a kept failure, singleton keys, delayed jobs, and a bounded stop.
import test from 'ava';
import { openJobQueue } from '../../../engine/platform/jobs';
import { connect } from '../../../engine/store/connection';
import { storeOn } from '../../../engine/store/store';
import { migrateLatest } from '../../../engine/store/migrate';
import { DATABASES } from '../../helpers/matrix';
import { openBed, retryBase, sleep, until } from './helpers';

for (const kind of DATABASES) {
  test.serial(`${kind}: 200 jobs with concurrency 8 are each done exactly once`, async (t) => {
    const bed = await openBed(kind);
    try {
      const done = new Map<number, number>();
      let running = 0;
      let most = 0;
      await bed.queue.work<{ n: number }>('count', { concurrency: 8, leaseMs: 5000, pollMs: 50 }, async (job) => {
        running++;
        most = Math.max(most, running);
        await sleep(2);
        done.set(job.data.n, (done.get(job.data.n) ?? 0) + 1);
        running--;
      });
      const ids = await Promise.all(Array.from({ length: 200 }, (_, n) => bed.queue.send('count', { n })));
      t.is(new Set(ids).size, 200);
      await until(async () => (await bed.queue.counts('count')).completed === 200, 30_000, '200 completions');
      t.is(done.size, 200);
      t.true(
        [...done.values()].every((times) => times === 1),
        'no job ran twice',
      );
      t.true(most > 1 && most <= 8, `handlers ran side by side, within the limit (${most})`);
      t.deepEqual(await bed.queue.counts('count'), { queued: 0, active: 0, failed: 0, completed: 200 });
      t.deepEqual(bed.errors, []);
    } finally {
      await bed.close();
    }
  });

  test.serial(`${kind}: a failing job is retried with growing delays, then failed and kept`, async (t) => {
    const bed = await openBed(kind);
    try {
      const base = retryBase(kind);
      const attempts: { at: number; attempt: number; last: boolean }[] = [];
      await bed.queue.work('flaky', { concurrency: 2, leaseMs: 10_000, pollMs: 50 }, async (job) => {
        attempts.push({ at: Date.now(), attempt: job.attempt, last: job.lastAttempt });
        throw new Error(`printer on fire (attempt ${job.attempt})`);
      });
      const id = await bed.queue.send('flaky', { piece: 'ltr_1' }, { retryLimit: 2, retryDelayMs: base });
      await until(async () => (await bed.queue.counts('flaky')).failed === 1, 20_000, 'the failure');
      t.deepEqual(
        attempts.map((a) => [a.attempt, a.last]),
        [
          [1, false],
          [2, false],
          [3, true],
        ],
      );
      const gaps = [attempts[1].at - attempts[0].at, attempts[2].at - attempts[1].at];
      t.true(gaps[0] >= base - 20, `first retry after the base delay (${gaps[0]} ms)`);
      t.true(gaps[1] >= 2 * base - 20, `second retry after twice the base (${gaps[1]} ms)`);
      t.deepEqual(await bed.queue.counts('flaky'), { queued: 0, active: 0, failed: 1, completed: 0 });
      await sleep(300);
      t.is(attempts.length, 3, 'a failed job is not taken again');
      const message =
        kind === 'sqlite'
          ? (await bed.db.knex('jobs').where({ id }).first()).last_error
          : (await bed.db.knex.raw('select output from pgboss.job where id = ?', [id])).rows[0].output.message;
      t.is(message, 'printer on fire (attempt 3)');
    } finally {
      await bed.close();
    }
  });

  test.serial(`${kind}: a singleton key allows one queued-or-active job per name`, async (t) => {
    const bed = await openBed(kind);
    try {
      const first = await bed.queue.send('campaign', { run: 1 }, { singletonKey: 'cmp_1' });
      t.truthy(first);
      t.is(await bed.queue.send('campaign', { run: 2 }, { singletonKey: 'cmp_1' }), null, 'a second is dropped');
      t.truthy(await bed.queue.send('campaign', { run: 3 }, { singletonKey: 'cmp_2' }), 'another key is not');
      t.truthy(await bed.queue.send('other', { run: 4 }, { singletonKey: 'cmp_1' }), 'nor another name');
      t.is((await bed.queue.counts('campaign')).queued, 2);
      const release = new Promise<void>((resolve) => setTimeout(resolve, 400));
      const seen: number[] = [];
      await bed.queue.work<{ run: number }>('campaign', { concurrency: 2, leaseMs: 5000, pollMs: 50 }, async (job) => {
        seen.push(job.data.run);
        await release;
      });
      await until(async () => (await bed.queue.counts('campaign')).active === 2, 5000, 'both active');
      t.is(await bed.queue.send('campaign', { run: 5 }, { singletonKey: 'cmp_1' }), null, 'active counts too');
      await until(async () => (await bed.queue.counts('campaign')).completed === 2, 5000, 'both done');
      t.truthy(await bed.queue.send('campaign', { run: 6 }, { singletonKey: 'cmp_1' }), 'free again once done');
      await until(async () => (await bed.queue.counts('campaign')).completed === 3, 5000, 'the third');
      t.deepEqual(seen.sort(), [1, 3, 6]);
    } finally {
      await bed.close();
    }
  });

  test.serial(`${kind}: a job sent with startAfter waits for it`, async (t) => {
    const bed = await openBed(kind);
    try {
      const ran: { id: string; at: number }[] = [];
      await bed.queue.work('later', { concurrency: 1, leaseMs: 5000, pollMs: 50 }, async (job) => {
        ran.push({ id: job.id, at: Date.now() });
      });
      const startAfter = new Date(Date.now() + 1200);
      const delayed = await bed.queue.send('later', {}, { startAfter });
      const now = await bed.queue.send('later', {});
      await until(() => ran.length === 2, 10_000, 'both jobs');
      t.deepEqual(
        ran.map((r) => r.id),
        [now, delayed],
      );
      t.true(ran[1].at >= startAfter.getTime() - 20, `not before its time (${ran[1].at - startAfter.getTime()} ms)`);
    } finally {
      await bed.close();
    }
  });

  test.serial(`${kind}: stop waits for running handlers, within its bound`, async (t) => {
    const bed = await openBed(kind, { stopTimeoutMs: 600 });
    const other = await bed.another({ stopTimeoutMs: 600 });
    try {
      let finished = 0;
      await bed.queue.work('quick', { concurrency: 2, leaseMs: 5000, pollMs: 50 }, async () => {
        await sleep(300);
        finished++;
      });
      await other.queue.work(
        'stuck',
        { concurrency: 1, leaseMs: 5000, pollMs: 50 },
        () => new Promise(() => undefined),
      );
      await bed.queue.send('quick', {});
      await bed.queue.send('stuck', {});
      await until(async () => (await bed.queue.counts()).active === 2, 5000, 'both running');
      await bed.queue.stop();
      t.is(finished, 1, 'the running handler finished before stop returned');
      t.is((await other.queue.counts('quick')).completed, 1);
      await other.queue.stop(); // a handler that never ends does not hold stop (else the test times out)
      // and its job is handed back, due at once for another process (hand-back.test.ts)
      t.deepEqual(await bed.another().then((o) => o.queue.counts('stuck')), {
        queued: 1,
        active: 0,
        failed: 0,
        completed: 0,
      });
      await t.throwsAsync(() => bed.queue.send('quick', {}), { message: 'the job queue is stopped' });
    } finally {
      await bed.close();
    }
  });
}

if (DATABASES.includes('sqlite'))
  test.serial('sqlite: completed jobs are cleared after keepCompletedMs; failed ones stay', async (t) => {
    const bed = await openBed('sqlite', { keepCompletedMs: 200 });
    try {
      await bed.queue.work('tidy', { concurrency: 2, leaseMs: 1000, pollMs: 50 }, async (job) => {
        if ((job.data as { fail: boolean }).fail) throw new Error('no');
      });
      await bed.queue.send('tidy', { fail: false });
      await bed.queue.send('tidy', { fail: true }, { retryLimit: 0 });
      await until(async () => (await bed.queue.counts('tidy')).failed === 1, 5000, 'the failure');
      await until(async () => (await bed.queue.counts('tidy')).completed === 0, 5000, 'the clean-up');
      t.deepEqual(await bed.queue.counts('tidy'), { queued: 0, active: 0, failed: 1, completed: 0 });
    } finally {
      await bed.close();
    }
  });

test('a queue refuses sends before start() and bad arguments before they reach the database', async (t) => {
  const db = connect(':memory:');
  try {
    const queue = openJobQueue(storeOn(db));
    await t.throwsAsync(() => queue.send('x', {}), { message: /not started/ });
    await migrateLatest(db.knex);
    await queue.start();
    t.throws(() => queue.enqueueWith('bad name', {}), { message: /job name/ });
    t.throws(() => queue.enqueueWith('x', {}, { retryLimit: -1 }), { message: /retryLimit/ });
    await t.throwsAsync(() => queue.work('x', { concurrency: 0, leaseMs: 1000 }, async () => undefined), {
      message: /concurrency/,
    });
    await queue.stop();
  } finally {
    await db.knex.destroy();
  }
});
