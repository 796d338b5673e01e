// The engine's services (database, object store) without HTTP, over a fresh SQLite file or PostgreSQL
// database: for the store's own tests.
import { loadConfig } from '../../engine/platform/config';
import { openServices } from '../../engine/faces/server';
import type { Services } from '../../engine/domain/services';
import { freshDatabase, type Db } from './engine';

export async function openFreshServices(db: Db): Promise<{ services: Services; cleanup(): Promise<void> }> {
  const database = await freshDatabase(db);
  const services = await openServices(loadConfig({ DATABASE_URL: database.url, LOG_LEVEL: 'silent' }));
  return {
    services,
    cleanup: async () => {
      await services.close();
      await database.drop();
    },
  };
}
