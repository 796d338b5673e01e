// The object store on both databases: declared filters and sort orders with keyset pages, compare-and-set
// transitions, the event outbox, the insert batcher's isolation, and the two read paths agreeing.
import test from 'ava';
import { DATABASES } from '../helpers/matrix';
import { openFreshServices } from '../helpers/services';
import { ObjectStore, type ApiObject, type ListParams, type Scope } from '../../engine/store/objects';
import { knexReader } from '../../engine/store/reader';
import type { IdempotencyClaim } from '../../engine/store/idempotency-keys';

const scope: Scope = { accountId: 'acct_store', mode: 'test' };
const KIND: string = 'letters';
const STATUSES = ['processed', 'rendered', 'failed'];
const SIZES = ['us_letter', 'us_legal'];

function piece(i: number): ApiObject {
  const created = new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString();
  return {
    id: `ltr_${String(i).padStart(4, '0')}`,
    date_created: created,
    date_modified: created,
    status: STATUSES[i % 3],
    size: SIZES[i % 2],
    color: i % 4 === 0,
    // a third are sent when created, the rest scheduled up to 100 hours later, in shuffled order
    send_date:
      i % 3 === 0 ? created : new Date(Date.parse(created) + (((i * 7919) % 100) + 1) * 3_600_000).toISOString(),
    metadata: { batch: i < 30 ? 'a' : 'b' },
    object: 'letter',
  };
}

const N = 60;
const all = Array.from({ length: N }, (_, i) => piece(i));

async function walk(store: ObjectStore, params: Omit<ListParams, 'limit'>): Promise<string[]> {
  const ids: string[] = [];
  let after: string | undefined;
  for (let guard = 0; guard < 100; guard++) {
    const page = await store.list(scope, KIND, { ...params, limit: 7, after });
    ids.push(...page.data.map((o) => o.id));
    if (!page.next) return ids;
    after = page.next;
  }
  throw new Error('pagination did not end');
}

const byKey = (key: (o: ApiObject) => string, direction: 'asc' | 'desc') => (a: ApiObject, b: ApiObject) => {
  const order = key(a) === key(b) ? (a.id < b.id ? -1 : 1) : key(a) < key(b) ? -1 : 1;
  return direction === 'asc' ? order : -order;
};

for (const db of DATABASES) {
  test.serial(`${db}: declared filters and sort orders page through every match exactly once, in order`, async (t) => {
    const { services, cleanup } = await openFreshServices(db);
    try {
      await Promise.all(all.map((o) => services.objects.insert(scope, KIND, o)));
      const store = services.objects;
      const expect = (
        keep: (o: ApiObject) => boolean,
        column: 'date_created' | 'send_date',
        direction: 'asc' | 'desc',
      ) =>
        all
          .filter(keep)
          .sort(byKey((o) => String(o[column]), direction))
          .map((o) => o.id);

      t.deepEqual(
        await walk(store, {}),
        expect(() => true, 'date_created', 'desc'),
      );
      t.deepEqual(
        await walk(store, { sort: { column: 'send_date', direction: 'asc' } }),
        expect(() => true, 'send_date', 'asc'),
      );
      t.deepEqual(
        await walk(store, {
          sort: { column: 'send_date', direction: 'desc' },
          filters: [{ column: 'status', match: 'equals', value: 'rendered' }],
        }),
        expect((o) => o.status === 'rendered', 'send_date', 'desc'),
      );
      t.deepEqual(
        await walk(store, {
          filters: [
            { column: 'size', match: 'any', value: ['us_legal'] },
            { column: 'color', match: 'equals', value: true },
          ],
        }),
        expect((o) => o.size === 'us_legal' && o.color === true, 'date_created', 'desc'),
      );
      t.deepEqual(
        await walk(store, { filters: [{ column: 'send_date', match: 'scheduled', value: true }] }),
        expect((o) => String(o.send_date) > o.date_created, 'date_created', 'desc'),
      );
      t.deepEqual(
        await walk(store, { filters: [{ column: 'send_date', match: 'scheduled', value: false }] }),
        expect((o) => !(String(o.send_date) > o.date_created), 'date_created', 'desc'),
      );
      const from = all[10].send_date as string;
      t.deepEqual(
        await walk(store, {
          filters: [{ column: 'send_date', match: 'range', value: { gte: from } }],
          metadata: { batch: 'b' },
        }),
        expect((o) => String(o.send_date) >= from && o.id >= 'ltr_0030', 'date_created', 'desc'),
      );

      // previous_url walks back to the same pages
      const first = await store.list(scope, KIND, { limit: 7, sort: { column: 'send_date', direction: 'asc' } });
      const second = await store.list(scope, KIND, {
        limit: 7,
        after: first.next,
        sort: { column: 'send_date', direction: 'asc' },
      });
      const back = await store.list(scope, KIND, {
        limit: 7,
        before: second.previous,
        sort: { column: 'send_date', direction: 'asc' },
      });
      t.deepEqual(
        back.data.map((o) => o.id),
        first.data.map((o) => o.id),
      );
      const error = await t.throwsAsync(store.list(scope, KIND, { limit: 7, after: second.next }));
      t.regex(error!.message, /another sort_by/);
    } finally {
      await cleanup();
    }
  });

  test.serial(
    `${db}: transitions are compare-and-set: none lost under concurrency, a refused one changes nothing`,
    async (t) => {
      const { services, knex, cleanup } = await openFreshServices(db);
      try {
        const store = services.objects;
        await store.insert(scope, KIND, { ...piece(1), count: 0, status: 'processed' });
        await Promise.all(
          Array.from({ length: 20 }, () =>
            store.transition(scope, KIND, 'ltr_0001', { change: (o) => ({ ...o, count: Number(o.count) + 1 }) }),
          ),
        );
        t.is((await store.get(scope, KIND, 'ltr_0001'))!.count, 20, 'every increment applied once');

        const outcomes = await Promise.allSettled(
          Array.from({ length: 10 }, () =>
            store.transition(scope, KIND, 'ltr_0001', {
              refuse: (o) => (o.status === 'processed' ? undefined : new Error('not cancellable')),
              change: (o) => ({ ...o, status: 'cancelled' }),
              events: [{ type: 'letter.cancelled', resource: KIND }],
            }),
          ),
        );
        t.is(outcomes.filter((o) => o.status === 'fulfilled').length, 1, 'exactly one cancel wins');
        const events = await knex('events').where({ reference_id: 'ltr_0001' });
        t.is(events.length, 1, 'one event for the one change');
        const event = JSON.parse(events[0].body);
        t.like(event, {
          reference_id: 'ltr_0001',
          object: 'event',
          event_type: { id: 'letter.cancelled', resource: KIND, object: 'event_type' },
        });
        t.is(event.body.status, 'cancelled');
        t.is(await store.transition(scope, KIND, 'ltr_nope', { change: (o) => o }), undefined);
      } finally {
        await cleanup();
      }
    },
  );

  test.serial(
    `${db}: the insert batcher fails only the request whose row or claim is bad; events and answers commit with their rows`,
    async (t) => {
      const { services, knex, cleanup } = await openFreshServices(db);
      try {
        const store = services.objects;
        await store.insert(scope, KIND, piece(0));
        const where = (key: string) => ({ account_id: scope.accountId, mode: scope.mode, kind: KIND, key });
        await knex('idempotency_keys').insert({
          ...where('good'),
          status: 0,
          body: 'null',
          claim: 'mine',
          lease_until: '',
          date_created: '2026-01-01T00:00:00.000Z',
        });
        await knex('idempotency_keys').insert({
          ...where('lost'),
          status: 0,
          body: 'null',
          claim: 'someone-else',
          lease_until: '',
          date_created: '2026-01-01T00:00:00.000Z',
        });
        const claim = (key: string): IdempotencyClaim => ({ where: where(key), token: 'mine', recorded: false });
        const good = claim('good');
        const lost = claim('lost');
        const event = { type: 'letter.created', resource: KIND };
        const results = await Promise.allSettled([
          store.insert(scope, KIND, piece(1), { events: [event], claim: good }),
          store.insert(scope, KIND, piece(0), { events: [event] }), // duplicate id
          store.insert(scope, KIND, piece(2), { events: [event], claim: lost }),
          store.insert(scope, KIND, piece(3), { events: [event] }),
        ]);
        t.deepEqual(
          results.map((r) => r.status),
          ['fulfilled', 'rejected', 'rejected', 'fulfilled'],
        );
        t.true(good.recorded);
        t.false(lost.recorded);
        const ids = (await knex('objects').where({ kind: KIND }).orderBy('id').pluck('id')) as string[];
        t.deepEqual(ids, ['ltr_0000', 'ltr_0001', 'ltr_0003']);
        t.deepEqual((await knex('events').orderBy('reference_id').pluck('reference_id')) as string[], [
          'ltr_0001',
          'ltr_0003',
        ]);
        const answer = await knex('idempotency_keys').where(where('good')).first();
        t.is(JSON.parse(answer.body).id, 'ltr_0001');
        t.is((await knex('idempotency_keys').where(where('lost')).first()).status, 0);
      } finally {
        await cleanup();
      }
    },
  );

  test.serial(`${db}: both read paths (prepared read connection and Knex) return the same rows`, async (t) => {
    const { services, knex, cleanup } = await openFreshServices(db);
    try {
      await Promise.all(all.map((o) => services.objects.insert(scope, KIND, o)));
      const viaKnex = new ObjectStore(knex, knexReader(knex));
      for (const params of [
        { limit: 100 },
        { limit: 5, sort: { column: 'send_date', direction: 'asc' } },
        { limit: 10, includeTotal: true, metadata: { batch: 'a' } },
      ] as ListParams[]) {
        t.deepEqual(await services.objects.list(scope, KIND, params), await viaKnex.list(scope, KIND, params));
      }
      t.deepEqual(await services.objects.get(scope, KIND, 'ltr_0007'), await viaKnex.get(scope, KIND, 'ltr_0007'));
    } finally {
      await cleanup();
    }
  });
}
