// A fresh database of either kind, connected as the engine connects, for suites that test the store
// directly: closed and dropped when the test ends.
import type { ExecutionContext } from 'ava';
import type { Knex } from 'knex';
import { connect } from '../../engine/store/connection';
import { freshDatabase, type Db } from './engine';

export async function freshStore(t: ExecutionContext, db: Db): Promise<{ knex: Knex; url: string }> {
  const database = await freshDatabase(db);
  const { knex } = connect(database.url);
  t.teardown(async () => {
    await knex.destroy();
    await database.drop();
  });
  return { knex, url: database.url };
}
