// A setting's change and its record commit together (migration 021): each change is recorded with the
// value before (the default when it was unset) and after and who made it, read back newest first, and a
// change whose record cannot be written is not made. On SQLite and PostgreSQL.
import test from 'ava';
import { migrateLatest } from '../../engine/store/migrate';
import { insertAccount, storeSetting } from '../../engine/store/accounts';
import { recentSettingChanges } from '../../engine/store/setting-changes';
import { freshStore } from '../helpers/store';
import { DATABASES } from '../helpers/matrix';

const settingsOf = async (knex: import('knex').Knex) =>
  JSON.parse(((await knex('accounts').where({ id: 'acct_1' }).first()) as { settings: string }).settings) as Record<
    string,
    unknown
  >;

for (const db of DATABASES) {
  test(`${db}: each settings change is recorded with before, after and who, newest first`, async (t) => {
    const { knex } = await freshStore(t, db);
    await migrateLatest(knex);
    await insertAccount(knex, 'acct_1', 'one', new Date().toISOString());
    const key = { via: 'key' as const, keyId: 'key_1', keyHint: 'live_…abcd', mode: 'live' as const };
    await storeSetting(knex, 'acct_1', 'agents_send_live', true, {
      fallback: false,
      by: key,
      at: '2026-01-01T00:00:00.000Z',
    });
    await storeSetting(knex, 'acct_1', 'agents_send_live', false, {
      fallback: false,
      by: { via: 'cli' },
      at: '2026-01-01T00:00:01.000Z',
    });
    const rows = await recentSettingChanges(knex, 'acct_1', 10);
    t.like(rows[0], { setting: 'agents_send_live', value_before: 'true', value_after: 'false', changed_via: 'cli' });
    t.like(rows[1], {
      setting: 'agents_send_live',
      value_before: 'false',
      value_after: 'true',
      changed_via: 'key',
      key_id: 'key_1',
      key_hint: 'live_…abcd',
      key_mode: 'live',
      date_created: '2026-01-01T00:00:00.000Z',
    });
    t.is(rows.length, 2);
    t.deepEqual(await recentSettingChanges(knex, 'acct_other', 10), []);
  });

  test(`${db}: a settings change whose record cannot be written is not made`, async (t) => {
    const { knex } = await freshStore(t, db);
    await migrateLatest(knex);
    await insertAccount(knex, 'acct_1', 'one', new Date().toISOString());
    await knex.schema.dropTableIfExists('setting_changes');
    await t.throwsAsync(
      storeSetting(knex, 'acct_1', 'agents_send_live', true, {
        fallback: false,
        by: { via: 'cli' },
        at: new Date().toISOString(),
      }),
      { any: true }, // better-sqlite3 throws its own error object
    );
    t.deepEqual(await settingsOf(knex), {}, 'the setting is unchanged');
  });
}
