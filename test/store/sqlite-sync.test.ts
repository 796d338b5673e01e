// SQLite's synchronous paths: limits written into the SQL, and the webhook dispatcher's rowid cursor
// (migration 013), taken over from the `dispatched` flags of a database written before it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import test, { type ExecutionContext } from 'ava';
import { connect } from '../../engine/store/connection';
import { inlineLimits } from '../../engine/store/sqlite-sync';
import { eventRow } from '../../engine/store/events';
import { dispatchEvents } from '../../engine/store/webhook-deliveries';
import { migrationSource } from '../../migrations';

test('whole-number limits and offsets are written into the SQL; other bindings keep their order', (t) => {
  t.deepEqual(inlineLimits('select * from `t` where `a` = ? limit ? offset ?', ['x', 11, 20]), {
    sql: 'select * from `t` where `a` = ? limit 11 offset 20',
    bindings: ['x'],
  });
  // a placeholder inside a quoted name is not a binding; a limit that is not a whole number stays bound
  t.deepEqual(inlineLimits('select `a?` from `t` where `b` = ? limit ?', ['y', 2.5]), {
    sql: 'select `a?` from `t` where `b` = ? limit ?',
    bindings: ['y', 2.5],
  });
  t.deepEqual(inlineLimits('select * from `t` where `c` = ?', [1]), {
    sql: 'select * from `t` where `c` = ?',
    bindings: [1],
  });
  t.deepEqual(inlineLimits('select * from `t` limit ?', ['1; drop table t']).bindings, ['1; drop table t']);
});

type Knex = ReturnType<typeof connect>['knex'];
type TestScope = { accountId: string; mode: 'test' | 'live' };

/** A fresh SQLite file, removed after the test. */
function freshFile(t: ExecutionContext, name: string) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'printpost-cursor-'));
  const db = connect(path.join(dir, name));
  t.teardown(async () => {
    await db.knex.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  return db.knex;
}

const addAccount = (knex: Knex, scope: TestScope) =>
  knex('accounts').insert({ id: scope.accountId, name: scope.accountId, date_created: new Date().toISOString() });

/** `n` address.created events of `scope`, in order; their ids. */
async function insertEvents(knex: Knex, scope: TestScope, n: number, tag: string, extra: object = {}) {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const row = eventRow(scope, 'address.created', 'addresses', { id: `adr_${tag}_${i}` });
    await knex('events').insert({ ...row, ...extra });
    ids.push(row.id);
  }
  return ids;
}

/** A webhook of `scope` taking every event type. */
const addWebhook = (knex: Knex, scope: TestScope, id: string) =>
  knex('objects').insert({
    id,
    account_id: scope.accountId,
    mode: scope.mode,
    kind: 'webhooks',
    date_created: new Date().toISOString(),
    date_modified: new Date().toISOString(),
    deleted: false,
    body: JSON.stringify({ id, enabled: true, event_types: ['*'] }),
  });

test('migration 013 starts the dispatcher where the flags left off, and the cursor fans each event out once', async (t) => {
  const knex = freshFile(t, 'cursor.sqlite');
  const names = await migrationSource.getMigrations([]);
  const before = names.indexOf('013_event_cursor');
  for (let i = 0; i < before; i++) await knex.migrate.up({ migrationSource });

  const scope = { accountId: 'acct_cursor', mode: 'test' as const };
  await addAccount(knex, scope);
  await insertEvents(knex, scope, 3, 'true', { dispatched: true });
  const waiting = await insertEvents(knex, scope, 2, 'false', { dispatched: false });
  await addWebhook(knex, scope, 'ep_cursor');
  await knex.migrate.up({ migrationSource });

  t.deepEqual(await dispatchEvents(knex, 500), ['ep_cursor']);
  const delivered = async () =>
    ((await knex('webhook_deliveries').select('event_id').orderBy('seq')) as { event_id: string }[]).map(
      (r) => r.event_id,
    );
  t.deepEqual(await delivered(), waiting, 'the events flagged undispatched, and only they');
  t.deepEqual(await dispatchEvents(knex, 500), [], 'nothing twice');

  const later = await insertEvents(knex, scope, 3, 'later', { dispatched: false });
  t.deepEqual(await dispatchEvents(knex, 2), ['ep_cursor'], 'a pass takes at most its limit');
  t.deepEqual(await dispatchEvents(knex, 2), ['ep_cursor']);
  t.deepEqual(await delivered(), [...waiting, ...later], 'in commit order');

  await knex.migrate.down({ migrationSource });
  const flags = (await knex('events').select('dispatched')) as { dispatched: number }[];
  t.true(
    flags.every((f) => f.dispatched === 1),
    'going back, what the cursor passed is flagged dispatched',
  );
});

test('with no webhook anywhere the cursor passes events without reading them; a new webhook gets only later ones', async (t) => {
  const knex = freshFile(t, 'skip.sqlite');
  await knex.migrate.latest({ migrationSource });
  const scope = { accountId: 'acct_skip', mode: 'live' as const };
  await addAccount(knex, scope);
  await insertEvents(knex, scope, 4, 'before');
  t.deepEqual(await dispatchEvents(knex, 500), []);
  const [{ position }] = (await knex('event_cursors').select('position')) as { position: number }[];
  const [{ last }] = (await knex('events').max({ last: 'rowid' })) as { last: number }[];
  t.is(position, last, 'the cursor stands at the last event');

  await addWebhook(knex, scope, 'ep_skip');
  const after = await insertEvents(knex, scope, 2, 'after');
  t.deepEqual(await dispatchEvents(knex, 500), ['ep_skip']);
  const delivered = (await knex('webhook_deliveries').select('event_id').orderBy('seq')) as { event_id: string }[];
  t.deepEqual(
    delivered.map((r) => r.event_id),
    after,
  );
});
