// Due jobs are taken highest priority first, then oldest, on both backends, sent alone or committed with
// other writes: a long batch counting down (-1, -2, ...) lets a later job of priority 0 go first.
import test from 'ava';
import { ObjectStore, type Scope } from '../../../engine/store/objects';
import { DATABASES } from '../../helpers/matrix';
import { openBed, until } from './helpers';

const scope: Scope = { accountId: 'acct_jobs', mode: 'test' };

for (const kind of DATABASES)
  test.serial(`${kind}: a job of higher priority is taken before older ones of lower priority`, async (t) => {
    const bed = await openBed(kind);
    try {
      // a batch of ten counting down, committed with objects as a campaign's pieces are
      const store = new ObjectStore(bed.db.knex);
      const now = new Date().toISOString();
      await Promise.all(
        Array.from({ length: 10 }, (_, n) =>
          store.insert(
            scope,
            'letters',
            { id: `ltr_batch${n}`, object: 'letter', date_created: now, date_modified: now, metadata: {} },
            { jobs: [bed.queue.enqueueWith('render', { n: `batch ${n}` }, { priority: -1 - n })] },
          ),
        ),
      );
      await bed.queue.send('render', { n: 'alone' });
      await bed.queue.send('render', { n: 'batch of another' }, { priority: -1 });
      const order: string[] = [];
      await bed.queue.work<{ n: string }>('render', { concurrency: 1, leaseMs: 5_000, pollMs: 20 }, async (job) => {
        order.push(job.data.n);
      });
      await until(() => order.length === 12, 15_000);
      t.deepEqual(order.slice(0, 3).sort(), ['alone', 'batch 0', 'batch of another'].sort());
      t.is(order[0], 'alone');
      t.deepEqual(order.slice(3), [
        'batch 1',
        'batch 2',
        'batch 3',
        'batch 4',
        'batch 5',
        'batch 6',
        'batch 7',
        'batch 8',
        'batch 9',
      ]);
      await t.throwsAsync(bed.queue.send('render', {}, { priority: 0.5 }), { message: /priority must be an int32/ });
    } finally {
      await bed.close();
    }
  });
