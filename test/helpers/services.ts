// The engine's services (store, object store) without HTTP, over a fresh SQLite file or PostgreSQL
// database: for the store's own tests. `knex` is the store's own connection, for tests that inspect
// the database beside it.
import type { Knex } from 'knex';
import { loadConfig } from '../../engine/platform/config';
import { openServices } from '../../engine/faces/server';
import { connect } from '../../engine/store/connection';
import { openStoreOn } from '../../engine/store/store';
import type { Services } from '../../engine/domain/services';
import { freshDatabase, type Db } from './engine';

export async function openFreshServices(db: Db): Promise<{ services: Services; knex: Knex; cleanup(): Promise<void> }> {
  const database = await freshDatabase(db);
  const config = loadConfig({ DATABASE_URL: database.url, LOG_LEVEL: 'silent' });
  const connection = connect(config.databaseUrl, config.databasePoolMax);
  const services = await openServices(config, await openStoreOn(connection));
  return {
    services,
    knex: connection.knex,
    cleanup: async () => {
      await services.close();
      await database.drop();
    },
  };
}
