// SQLite's synchronous paths: limits written into the SQL, and the webhook dispatcher's rowid cursor
// (migration 013), taken over from the `dispatched` flags of a database written before it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import test from 'ava';
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

test('migration 013 starts the dispatcher where the flags left off, and the cursor fans each event out once', async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'printpost-cursor-'));
  const db = connect(path.join(dir, 'cursor.sqlite'));
  t.teardown(async () => {
    await db.knex.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  const { knex } = db;
  const names = await migrationSource.getMigrations([]);
  const before = names.indexOf('013_event_cursor');
  for (let i = 0; i < before; i++) await knex.migrate.up({ migrationSource });

  const scope = { accountId: 'acct_cursor', mode: 'test' as const };
  await knex('accounts').insert({ id: scope.accountId, name: 'cursor', date_created: new Date().toISOString() });
  const insertEvents = async (n: number, dispatched: boolean) => {
    const ids: string[] = [];
    for (let i = 0; i < n; i++) {
      const row = eventRow(scope, 'address.created', 'addresses', { id: `adr_${dispatched}_${i}` });
      await knex('events').insert({ ...row, dispatched });
      ids.push(row.id);
    }
    return ids;
  };
  await insertEvents(3, true);
  const waiting = await insertEvents(2, false);
  await knex('objects').insert({
    id: 'ep_cursor',
    account_id: scope.accountId,
    mode: scope.mode,
    kind: 'webhooks',
    date_created: new Date().toISOString(),
    date_modified: new Date().toISOString(),
    deleted: false,
    body: JSON.stringify({ id: 'ep_cursor', enabled: true, event_types: ['*'] }),
  });
  await knex.migrate.up({ migrationSource });

  t.deepEqual(await dispatchEvents(knex, 500), ['ep_cursor']);
  const delivered = async () =>
    ((await knex('webhook_deliveries').select('event_id').orderBy('seq')) as { event_id: string }[]).map(
      (r) => r.event_id,
    );
  t.deepEqual(await delivered(), waiting, 'the events flagged undispatched, and only they');
  t.deepEqual(await dispatchEvents(knex, 500), [], 'nothing twice');

  const later = await insertEvents(3, false);
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
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'printpost-cursor-'));
  const db = connect(path.join(dir, 'skip.sqlite'));
  t.teardown(async () => {
    await db.knex.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  const { knex } = db;
  await knex.migrate.latest({ migrationSource });
  const scope = { accountId: 'acct_skip', mode: 'live' as const };
  await knex('accounts').insert({ id: scope.accountId, name: 'skip', date_created: new Date().toISOString() });
  const insertEvents = async (n: number, tag: string) => {
    const ids: string[] = [];
    for (let i = 0; i < n; i++) {
      const row = eventRow(scope, 'address.created', 'addresses', { id: `adr_${tag}_${i}` });
      await knex('events').insert(row);
      ids.push(row.id);
    }
    return ids;
  };
  await insertEvents(4, 'before');
  t.deepEqual(await dispatchEvents(knex, 500), []);
  const [{ position }] = (await knex('event_cursors').select('position')) as { position: number }[];
  const [{ last }] = (await knex('events').max({ last: 'rowid' })) as { last: number }[];
  t.is(position, last, 'the cursor stands at the last event');

  await knex('objects').insert({
    id: 'ep_skip',
    account_id: scope.accountId,
    mode: scope.mode,
    kind: 'webhooks',
    date_created: new Date().toISOString(),
    date_modified: new Date().toISOString(),
    deleted: false,
    body: JSON.stringify({ id: 'ep_skip', enabled: true, event_types: ['*'] }),
  });
  const after = await insertEvents(2, 'after');
  t.deepEqual(await dispatchEvents(knex, 500), ['ep_skip']);
  const delivered = (await knex('webhook_deliveries').select('event_id').orderBy('seq')) as { event_id: string }[];
  t.deepEqual(
    delivered.map((r) => r.event_id),
    after,
  );
});
