// A job enqueued with a commit's other writes commits with them and vanishes with them: through an
// insert's own transaction, a transition's, and the group commit, on both databases.
import test from 'ava';
import { ObjectStore, type ApiObject, type Scope } from '../../../engine/store/objects';
import { DATABASES } from '../../helpers/matrix';
import { openBed, until } from './helpers';

const scope: Scope = { accountId: 'acct_jobs', mode: 'test' };

function piece(id: string): ApiObject {
  const now = new Date().toISOString();
  return { id, object: 'letter', date_created: now, date_modified: now, status: 'processed', metadata: {} };
}

for (const kind of DATABASES) {
  test.serial(
    `${kind}: a job committed in an insert's or a transition's own transaction lives and dies with it`,
    async (t) => {
      const bed = await openBed(kind);
      try {
        const store = new ObjectStore(bed.db.knex);
        // The missing object is found missing after the piece and its job were written: all roll back.
        const changesItsMind = [
          { kind: 'letters', id: 'ltr_missing', refusal: () => new Error('the commit changes its mind') },
        ];
        await t.throwsAsync(
          store.insert(scope, 'letters', piece('ltr_rolled'), {
            jobs: [bed.queue.enqueueWith('render', { piece: 'ltr_rolled' })],
            deletes: changesItsMind,
          }),
          { message: 'the commit changes its mind' },
        );
        t.is(await store.get(scope, 'letters', 'ltr_rolled'), undefined);
        t.is((await bed.queue.counts('render')).queued, 0, 'the job rolled back with the piece');

        // A place under a limit makes the insert a transaction of its own.
        const take = {
          counter: { accountId: scope.accountId, name: 'jobs_test', period: 'all' },
          below: 10,
          refusal: () => new Error('full'),
        };
        await store.insert(scope, 'letters', piece('ltr_kept'), {
          jobs: [bed.queue.enqueueWith('render', { piece: 'ltr_kept' })],
          takes: [take],
        });
        t.truthy(await store.get(scope, 'letters', 'ltr_kept'));
        await t.throwsAsync(
          store.transition(scope, 'letters', 'ltr_kept', {
            change: (current) => ({ ...current, status: 'rendered' }),
            jobs: [bed.queue.enqueueWith('render', { piece: 'ltr_rolled_back' })],
            deletes: changesItsMind,
          }),
          { message: 'the commit changes its mind' },
        );
        t.is((await store.get(scope, 'letters', 'ltr_kept'))!.status, 'processed', 'the change rolled back');
        t.is((await bed.queue.counts('render')).queued, 1, 'and its job with it');
        const seen: string[] = [];
        await bed.queue.work<{ piece: string }>(
          'render',
          { concurrency: 1, leaseMs: 5000, pollMs: 50 },
          async (job) => {
            seen.push(job.data.piece);
          },
        );
        await until(() => seen.length === 1, 5000, 'the job');
        t.deepEqual(seen, ['ltr_kept']);
      } finally {
        await bed.close();
      }
    },
  );

  test.serial(`${kind}: jobs enqueued through the group commit commit with their pieces, or not at all`, async (t) => {
    const bed = await openBed(kind);
    try {
      const store = new ObjectStore(bed.db.knex);
      const ids = Array.from({ length: 30 }, (_, i) => `ltr_batch_${i}`);
      // Sent together, so the batcher writes them in one transaction; one duplicate fails only its own.
      const results = await Promise.allSettled(
        [...ids, 'ltr_batch_3'].map((id, i) =>
          store.insert(scope, 'letters', piece(id), {
            jobs: [bed.queue.enqueueWith('render', { piece: id, i })],
          }),
        ),
      );
      t.deepEqual(
        results.map((r) => r.status),
        [...ids.map(() => 'fulfilled'), 'rejected'],
      );
      t.is((await bed.queue.counts('render')).queued, 30, 'one job per stored piece, none for the refused one');
      const seen = new Set<number>();
      await bed.queue.work<{ i: number }>('render', { concurrency: 4, leaseMs: 5000, pollMs: 50 }, async (job) => {
        seen.add(job.data.i);
      });
      await until(() => seen.size === 30, 10_000, 'the batch');
      t.false(seen.has(30));
    } finally {
      await bed.close();
    }
  });

  test.serial(`${kind}: a singleton job enqueued with a write is dropped, not the write`, async (t) => {
    const bed = await openBed(kind);
    try {
      const store = new ObjectStore(bed.db.knex);
      await Promise.all(
        ['ltr_s1', 'ltr_s2'].map((id) =>
          store.insert(scope, 'letters', piece(id), {
            jobs: [bed.queue.enqueueWith('lifecycle', { piece: id }, { singletonKey: 'acct_jobs' })],
          }),
        ),
      );
      t.truthy(await store.get(scope, 'letters', 'ltr_s2'));
      t.is((await bed.queue.counts('lifecycle')).queued, 1);
    } finally {
      await bed.close();
    }
  });
}

if (DATABASES.includes('sqlite'))
  test('sqlite: the group commit refuses sends run in a transaction with a clear error', async (t) => {
    const bed = await openBed('sqlite');
    try {
      const store = new ObjectStore(bed.db.knex);
      await t.throwsAsync(
        store.insert(scope, 'letters', piece('ltr_cb'), { jobs: [{ send: async () => undefined }] }),
        { message: /SQLite group commits take job rows/ },
      );
      t.is(await store.get(scope, 'letters', 'ltr_cb'), undefined);
    } finally {
      await bed.close();
    }
  });
