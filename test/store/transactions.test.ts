// Transactions that read, then write, against another writer: on SQLite another process (the CLI beside
// a served engine) committing between the read and the write must not fail the transaction; on both
// databases concurrent settings changes to one account must all be kept.
import { spawn } from 'node:child_process';
import test from 'ava';
import { migrateLatest } from '../../engine/store/migrate';
import { insertAccount, storeSetting } from '../../engine/store/accounts';
import type { Db } from '../helpers/engine';
import { freshStore } from '../helpers/store';
import { DATABASES } from '../helpers/matrix';

/** A second process that says `ready`, then adds 100 to the note on the file (waiting for the lock). */
function otherWriter(file: string): { ready: Promise<void>; exited: Promise<number | null> } {
  const source = `
    const Database = require(${JSON.stringify(require.resolve('better-sqlite3'))});
    const db = new Database(${JSON.stringify(file)}, { timeout: 10000 });
    process.stdout.write('ready\\n');
    db.prepare('update notes set n = n + 100 where id = ?').run('a');
    db.close();
  `;
  const child = spawn(process.execPath, ['-e', source], { stdio: ['ignore', 'pipe', 'inherit'] });
  const ready = new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { ready, exited };
}

test('sqlite: another process writing between a transaction read and its write waits for the commit', async (t) => {
  const { knex, url } = await freshStore(t, 'sqlite');
  await knex.schema.createTable('notes', (table) => {
    table.string('id').primary();
    table.integer('n').notNullable();
  });
  await knex('notes').insert({ id: 'a', n: 0 });
  let other: ReturnType<typeof otherWriter> | undefined;
  await knex.transaction(async (trx) => {
    const row = (await trx('notes').where({ id: 'a' }).first()) as { n: number };
    other = otherWriter(url);
    await other.ready;
    // time for the other process to commit, were the lock not already held
    await new Promise((resolve) => setTimeout(resolve, 400));
    await trx('notes')
      .where({ id: 'a' })
      .update({ n: row.n + 1 });
  });
  t.is(await other!.exited, 0);
  t.deepEqual(await knex('notes').where({ id: 'a' }).first(), { id: 'a', n: 101 });
});

for (const db of DATABASES) {
  test(`${db}: settings set at once on one account are all kept`, async (t) => {
    const { knex } = await freshStore(t, db as Db);
    await migrateLatest(knex);
    await insertAccount(knex, 'acct_1', 'one', new Date().toISOString());
    const names = Array.from({ length: 8 }, (_, i) => `setting_${i}`);
    await Promise.all(
      names.map((name, i) =>
        storeSetting(knex, 'acct_1', name, i, { fallback: 0, by: { via: 'cli' }, at: new Date().toISOString() }),
      ),
    );
    const row = (await knex('accounts').where({ id: 'acct_1' }).first()) as { settings: string };
    t.deepEqual(JSON.parse(row.settings), Object.fromEntries(names.map((name, i) => [name, i])));
  });
}
