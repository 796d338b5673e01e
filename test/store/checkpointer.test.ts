import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import test from 'ava';
import { connect } from '../../engine/store/connection';
import { startCheckpointer } from '../../engine/store/checkpointer';
import { migrationSource } from '../../migrations';

type Pragma = { wal_autocheckpoint: number }[];

test('the checkpoint thread copies the WAL into the database while the write connection never does; stopping hands it back', async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'printpost-checkpoint-'));
  const file = path.join(dir, 'wal.sqlite');
  const db = connect(file);
  t.teardown(async () => {
    await db.knex.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  await db.knex.migrate.latest({ migrationSource });
  const before = fs.statSync(file).size;
  const checkpointer = await startCheckpointer(db.knex, file, 50);
  t.deepEqual((await db.knex.raw('pragma wal_autocheckpoint')) as Pragma, [{ wal_autocheckpoint: 0 }]);

  const rows = Array.from({ length: 2_000 }, (_, i) => ({
    id: `acct_${i}`,
    name: `account ${i} ${'x'.repeat(200)}`,
    date_created: new Date().toISOString(),
  }));
  for (let i = 0; i < rows.length; i += 100) await db.knex('accounts').insert(rows.slice(i, i + 100));

  // the write connection does not checkpoint (autocheckpoint 0), so the database file grows only when
  // the thread copies the WAL's pages into it
  const grown = () => fs.statSync(file).size - before;
  for (let i = 0; i < 100 && grown() < 400_000; i++) await new Promise((resolve) => setTimeout(resolve, 50));
  t.true(grown() >= 400_000, `the database file took the inserts (${grown()} bytes more)`);

  await checkpointer.stop();
  t.deepEqual((await db.knex.raw('pragma wal_autocheckpoint')) as Pragma, [{ wal_autocheckpoint: 1000 }]);
});
