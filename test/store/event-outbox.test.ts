// PostgreSQL's webhook dispatcher takes events off a queue table (migration 014) instead of flagging
// each event row: taken over from the `dispatched` flags of a database written before it, each event
// fanned out once in the order it happened, and dispatchers working at once never doubling one.
import type { Knex } from 'knex';
import test, { type ExecutionContext } from 'ava';
import { insertRows } from '../../engine/store/commit';
import { eventRow } from '../../engine/store/events';
import { dispatchEvents } from '../../engine/store/webhook-deliveries';
import { migrationSource } from '../../migrations';
import { freshStore } from '../helpers/store';
import { DATABASES } from '../helpers/matrix';

const scope = { accountId: 'acct_outbox', mode: 'test' as const };

const pgTest = DATABASES.includes('postgres') ? test : test.skip;

async function freshPostgres(t: ExecutionContext): Promise<Knex> {
  return (await freshStore(t, 'postgres')).knex;
}

/** `n` address.created events, a millisecond apart; their ids. `flag`: written before 014, with this flag. */
async function addEvents(knex: Knex, n: number, tag: string, flag?: boolean): Promise<string[]> {
  const start = Date.now();
  const rows = Array.from({ length: n }, (_, i) =>
    eventRow(
      scope,
      'address.created',
      'addresses',
      { id: `adr_${tag}_${i}` },
      undefined,
      new Date(start + i).toISOString(),
    ),
  );
  if (flag === undefined)
    await knex.transaction((trx) =>
      insertRows(
        trx,
        rows.map((row) => ({ table: 'events', row })),
      ),
    );
  else await knex('events').insert(rows.map((row) => ({ ...row, dispatched: flag })));
  return rows.map((r) => r.id);
}

async function addAccountAndWebhook(knex: Knex): Promise<void> {
  const now = new Date().toISOString();
  await knex('accounts').insert({ id: scope.accountId, name: scope.accountId, date_created: now });
  await knex('objects').insert({
    id: 'ep_outbox',
    account_id: scope.accountId,
    mode: scope.mode,
    kind: 'webhooks',
    date_created: now,
    date_modified: now,
    deleted: false,
    body: JSON.stringify({ id: 'ep_outbox', enabled: true, event_types: ['*'] }),
  });
}

const delivered = async (knex: Knex) =>
  ((await knex('webhook_deliveries').select('event_id').orderBy('seq')) as { event_id: string }[]).map(
    (r) => r.event_id,
  );

pgTest('migration 014 queues the events flagged undispatched; each goes out once, in order', async (t) => {
  const knex = await freshPostgres(t);
  const names = await migrationSource.getMigrations([]);
  for (let i = 0; i < names.indexOf('014_event_outbox'); i++) await knex.migrate.up({ migrationSource });
  await addAccountAndWebhook(knex);
  await addEvents(knex, 3, 'sent', true);
  const waiting = await addEvents(knex, 2, 'waiting', false);
  await knex.migrate.up({ migrationSource });

  t.deepEqual(await dispatchEvents(knex, 500), ['ep_outbox']);
  t.deepEqual(await delivered(knex), waiting, 'the events flagged undispatched, and only they');
  t.deepEqual(await dispatchEvents(knex, 500), [], 'nothing twice');

  const later = await addEvents(knex, 3, 'later');
  t.deepEqual(await dispatchEvents(knex, 2), ['ep_outbox'], 'a pass takes at most its limit');
  t.deepEqual(await dispatchEvents(knex, 2), ['ep_outbox']);
  t.deepEqual(await delivered(knex), [...waiting, ...later], 'in the order they happened');
  t.is(Number((await knex('event_outbox').count({ n: '*' }))[0].n), 0, 'the queue is empty');

  const pending = await addEvents(knex, 1, 'pending');
  await knex.migrate.down({ migrationSource });
  const flags = (await knex('events').select('id', 'dispatched')) as { id: string; dispatched: boolean }[];
  t.deepEqual(
    flags.filter((f) => !f.dispatched).map((f) => f.id),
    pending,
    'going back, only what was still queued is flagged undispatched',
  );
});

pgTest('dispatchers working at once fan each event out exactly once', async (t) => {
  const knex = await freshPostgres(t);
  await knex.migrate.latest({ migrationSource });
  await addAccountAndWebhook(knex);
  const ids = await addEvents(knex, 400, 'many');
  // four dispatchers, each taking small passes until the queue is empty
  const dispatcher = async () => {
    while ((await dispatchEvents(knex, 25)).length > 0);
  };
  await Promise.all([dispatcher(), dispatcher(), dispatcher(), dispatcher()]);
  const out = await delivered(knex);
  t.is(out.length, ids.length, 'no event doubled or lost');
  t.deepEqual([...out].sort(), [...ids].sort());
});
