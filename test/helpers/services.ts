// The engine's services (database, object store) without HTTP, over a fresh SQLite file or PostgreSQL
// database: for the store's own tests.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import knex from 'knex';
import { loadConfig } from '../../engine/config';
import { openServices } from '../../engine/server';
import type { Services } from '../../engine/services';
import { PG_ADMIN_URL, type Db } from './engine';

export async function openFreshServices(db: Db): Promise<{ services: Services; cleanup(): Promise<void> }> {
  if (db === 'sqlite') {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'printpost-store-'));
    const services = await openServices(loadConfig({ DATABASE_URL: path.join(dir, 'e.sqlite'), LOG_LEVEL: 'silent' }));
    return {
      services,
      cleanup: async () => {
        await services.close();
        fs.rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const name = `pp_store_${randomBytes(5).toString('hex')}`;
  const admin = knex({ client: 'pg', connection: PG_ADMIN_URL, pool: { min: 0, max: 1 } });
  await admin.raw(`create database ${name}`);
  const services = await openServices(
    loadConfig({ DATABASE_URL: PG_ADMIN_URL.replace(/\/[^/]*$/, `/${name}`), LOG_LEVEL: 'silent' }),
  );
  return {
    services,
    cleanup: async () => {
      await services.close();
      await admin.raw(`drop database if exists ${name} with (force)`);
      await admin.destroy();
    },
  };
}
