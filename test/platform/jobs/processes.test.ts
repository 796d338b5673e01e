// Several queues on one database, as several engine processes: a shared start, one execution per job,
// singleton keys under a race, and a stopped queue that lets its process exit.
import test from 'ava';
import path from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { connect } from '../../../engine/store/connection';
import { storeOn } from '../../../engine/store/store';
import { migrateLatest } from '../../../engine/store/migrate';
import { openJobQueue } from '../../../engine/platform/jobs';
import { freshDatabase } from '../../helpers/engine';
import { DATABASES } from '../../helpers/matrix';
import { openBed, sleep, until } from './helpers';

const run = promisify(execFile);
const ROOT = path.join(__dirname, '..', '..', '..');

if (DATABASES.includes('postgres')) {
  test.serial('postgres: queues starting at once on a fresh database create pg-boss once and all work', async (t) => {
    const fresh = await freshDatabase('postgres');
    const dbs = Array.from({ length: 4 }, () => connect(fresh.url));
    const errors: Error[] = [];
    const queues = dbs.map((db) => openJobQueue(storeOn(db), { onError: (e) => errors.push(e) }));
    try {
      await migrateLatest(dbs[0].knex);
      await Promise.all(queues.map((q) => q.start()));
      const ids = await Promise.all(queues.map((q, i) => q.send('hello', { i })));
      t.true(ids.every((id) => typeof id === 'string'));
      t.is((await queues[3].counts('hello')).queued, 4);
      const versions = await dbs[0].knex.raw('select count(*)::int as n from pgboss.version');
      t.is(versions.rows[0].n, 1);
      t.deepEqual(errors, []);
    } finally {
      for (const q of queues) await q.stop();
      for (const db of dbs) await db.knex.destroy();
      await fresh.drop();
    }
  });

  test.serial('postgres: two queues on their own connections work one queue, each job once', async (t) => {
    const bed = await openBed('postgres');
    try {
      const other = await bed.another();
      const done = new Map<number, string[]>();
      const handler = (who: string) => async (job: { data: { n: number } }) => {
        await sleep(3);
        done.set(job.data.n, [...(done.get(job.data.n) ?? []), who]);
      };
      await bed.queue.work('shared', { concurrency: 4, leaseMs: 5000, pollMs: 50 }, handler('a'));
      await other.queue.work('shared', { concurrency: 4, leaseMs: 5000, pollMs: 50 }, handler('b'));
      await Promise.all(Array.from({ length: 200 }, (_, n) => (n % 2 ? bed : other).queue.send('shared', { n })));
      await until(async () => (await bed.queue.counts('shared')).completed === 200, 30_000, '200 completions');
      t.is(done.size, 200);
      t.true(
        [...done.values()].every((by) => by.length === 1),
        'no job ran twice',
      );
      const byA = [...done.values()].filter(([who]) => who === 'a').length;
      t.true(byA > 0 && byA < 200, `both queues took jobs (${byA} and ${200 - byA})`);
      t.deepEqual(bed.errors, []);
    } finally {
      await bed.close();
    }
  });
}

for (const kind of DATABASES) {
  test.serial(`${kind}: racing sends under one singleton key, from two queues, keep one job`, async (t) => {
    const bed = await openBed(kind);
    try {
      const other = await bed.another();
      const ids = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          (i % 2 ? bed : other).queue.send('cron', { i }, { singletonKey: 'daily' }),
        ),
      );
      t.is(ids.filter((id) => id !== null).length, 1);
      t.is((await bed.queue.counts('cron')).queued, 1);
    } finally {
      await bed.close();
    }
  });

  test.serial(`${kind}: a process whose queue stopped exits by itself, silently`, async (t) => {
    const fresh = await freshDatabase(kind);
    const db = connect(fresh.url);
    await migrateLatest(db.knex);
    await db.knex.destroy();
    try {
      const { stdout, stderr } = await run(
        process.execPath,
        ['--import', 'tsx', path.join(__dirname, 'fixtures', 'work-then-stop.ts'), fresh.url],
        { cwd: ROOT, timeout: 20_000 },
      );
      t.is(stdout, 'stopped\n');
      t.is(stderr, '');
    } finally {
      await fresh.drop();
    }
  });
}
