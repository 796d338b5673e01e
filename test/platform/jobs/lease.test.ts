// Lease recovery: a worker process killed mid-job (SIGKILL) loses nothing, and a handler that overruns
// its lease is abandoned without settling the attempt that replaced it.
import test from 'ava';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { DATABASES } from '../../helpers/matrix';
import { openBed, sleep, until } from './helpers';

const FIXTURE = path.join(__dirname, 'fixtures', 'claim-and-hang.ts');
const LEASE = 1500;

/** Starts a worker process on the queue and resolves with the job it claimed, once it claimed it. */
function hangingWorker(url: string, name: string) {
  const child = spawn(process.execPath, ['--import', 'tsx', FIXTURE, url, name, String(LEASE)], {
    cwd: path.join(__dirname, '..', '..', '..'),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const claimed = new Promise<{ id: string; attempt: number }>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /claimed (\S+) (\d+)/.exec(out);
      if (match) resolve({ id: match[1], attempt: Number(match[2]) });
    });
    child.once('exit', (code) => reject(new Error(`the worker exited (${code}) before claiming: ${stderr}`)));
  });
  const exited = new Promise<NodeJS.Signals | null>((resolve) =>
    child.once('exit', (_code, signal) => resolve(signal)),
  );
  return { child, claimed, exited };
}

for (const kind of DATABASES) {
  test.serial(`${kind}: a worker killed mid-job loses nothing: the job is done once after its lease`, async (t) => {
    const bed = await openBed(kind);
    try {
      const id = await bed.queue.send('render', { piece: 'ltr_killed' }, { retryLimit: 2 });
      const worker = hangingWorker(bed.url, 'render');
      const claimed = await worker.claimed;
      t.deepEqual(claimed, { id: id!, attempt: 1 });
      const killedAt = Date.now();
      worker.child.kill('SIGKILL');
      t.is(await worker.exited, 'SIGKILL');
      t.is((await bed.queue.counts('render')).active, 1, 'the dead worker still holds its lease');

      // On SQLite a fresh queue on the same file (as after a restart); on PostgreSQL another process.
      const after = await bed.another();
      const runs: { id: string; attempt: number; at: number }[] = [];
      await after.queue.work<{ piece: string }>(
        'render',
        { concurrency: 2, leaseMs: LEASE, pollMs: 50 },
        async (job) => {
          runs.push({ id: job.id, attempt: job.attempt, at: Date.now() });
        },
      );
      await until(async () => (await after.queue.counts('render')).completed === 1, 15_000, 'the recovered job');
      await sleep(LEASE);
      t.deepEqual(
        runs.map(({ id: ran, attempt }) => ({ id: ran, attempt })),
        [{ id: id!, attempt: 2 }],
        'done once more, as its second attempt',
      );
      t.true(runs[0].at - killedAt >= LEASE - 300, 'not before the lease ran out');
      t.deepEqual(await after.queue.counts('render'), { queued: 0, active: 0, failed: 0, completed: 1 });
    } finally {
      await bed.close();
    }
  });

  test.serial(`${kind}: a handler that overruns its lease is abandoned; the retry settles the job`, async (t) => {
    const bed = await openBed(kind);
    try {
      const attempts: number[] = [];
      let lateFinished = false;
      await bed.queue.work('slow', { concurrency: 2, leaseMs: 1000, pollMs: 50 }, async (job) => {
        attempts.push(job.attempt);
        if (job.attempt === 1) {
          await sleep(2500);
          lateFinished = true;
          throw new Error('too late to count');
        }
      });
      await bed.queue.send('slow', {}, { retryLimit: 1, retryDelayMs: 0 });
      await until(async () => (await bed.queue.counts('slow')).completed === 1, 10_000, 'the retry');
      await until(() => lateFinished, 5000, 'the abandoned handler');
      await sleep(200);
      t.deepEqual(attempts, [1, 2]);
      t.deepEqual(await bed.queue.counts('slow'), { queued: 0, active: 0, failed: 0, completed: 1 });
      t.true(bed.errors.some((e) => /abandoned: Error: the lease of 1000 ms ran out/.test(e.message)));
    } finally {
      await bed.close();
    }
  });
}
