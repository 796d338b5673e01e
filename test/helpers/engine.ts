// Starts a real engine on 127.0.0.1 (random port) over a fresh SQLite file or a fresh PostgreSQL database.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import knex from 'knex';
import { loadConfig } from '../../engine/platform/config';
import { startEngine as start } from '../../engine/faces/server';
import { CLI_CHANGER, type KeySet } from '../../engine/domain/accounts/accounts';
import type { SettingName, SettingValue } from '../../engine/domain/accounts/settings';
import { isSettingName } from '../../engine/domain/accounts/settings';

export type Db = 'sqlite' | 'postgres';

/** An operator's USPS identity for engines whose live pieces go to production (made-up values). */
export const USPS_ENV = {
  USPS_MAILER_ID: '123456',
  USPS_CRID: '12345678',
  USPS_PERMIT_NUMBER: '4321',
  USPS_PERMIT_CITY: 'San Francisco',
  USPS_PERMIT_STATE: 'CA',
  // the S10 range of registered mail USPS would assign the operator
  USPS_S10_SERVICE_INDICATOR: 'RR',
  USPS_S10_FIRST_SERIAL: '10000000',
  USPS_S10_LAST_SERIAL: '19999999',
} as const;

export const PG_ADMIN_URL = process.env.PG_TEST_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export interface TestEngine {
  url: string;
  db: Db;
  databaseUrl: string;
  keys: { test: string; live: string; testPub: string; livePub: string };
  /** creates another account; returns its keys */
  createAccount(name?: string): Promise<KeySet>;
  /** changes a setting of the default account (or of the account that owns `key`) */
  setSetting(name: SettingName, value: SettingValue, accountName?: string): Promise<void>;
  /** the directory the engine keeps its rendered files in */
  assets: string;
  close(): Promise<void>;
}

/** A new, empty database of the kind asked: a SQLite file in a temp folder, or a PostgreSQL database. */
export async function freshDatabase(db: Db): Promise<{ url: string; drop(): Promise<void> }> {
  if (db === 'sqlite') {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'printpost-test-'));
    return { url: path.join(dir, 'engine.sqlite'), drop: async () => fs.rmSync(dir, { recursive: true, force: true }) };
  }
  const name = `pp_test_${randomBytes(6).toString('hex')}`;
  const admin = knex({ client: 'pg', connection: PG_ADMIN_URL, pool: { min: 0, max: 1 } });
  await admin.raw(`create database ${name}`);
  await admin.destroy();
  const url = PG_ADMIN_URL.replace(/\/[^/]*$/, `/${name}`);
  return {
    url,
    drop: async () => {
      const cleanup = knex({ client: 'pg', connection: PG_ADMIN_URL, pool: { min: 0, max: 1 } });
      await cleanup.raw(`drop database if exists ${name} with (force)`);
      await cleanup.destroy();
    },
  };
}

export interface StartOptions {
  db?: Db;
  settings?: Partial<Record<string, SettingValue>>;
  env?: Record<string, string>;
  /** join another engine's database (a second process of one deployment) instead of a fresh one */
  shareWith?: TestEngine;
  /** join a database the test made itself (freshDatabase), left in place on close: engines may come and go */
  database?: string;
  /** run the render workers (a browser) in this engine; off by default so suites about the API stay light */
  workers?: boolean;
}

export async function startEngine(opts: StartOptions = {}): Promise<TestEngine> {
  const db = opts.db ?? 'sqlite';
  const joined = opts.shareWith?.databaseUrl ?? opts.database;
  const database = joined ? { url: joined, drop: async () => undefined } : await freshDatabase(db);
  const assets = fs.mkdtempSync(path.join(os.tmpdir(), 'printpost-assets-'));
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    DATABASE_URL: database.url,
    LOG_LEVEL: 'silent',
    ASSET_STORE: assets,
    WORKERS: opts.workers ? '2' : '0',
    ...opts.env,
  });
  const engine = await start(config);
  const { accounts } = engine.services;
  const setSetting = async (name: SettingName, value: SettingValue, accountName = config.bootstrapAccount) => {
    const account = await accounts.byName(accountName);
    if (!account) throw new Error(`no account ${accountName}`);
    await accounts.setSetting(account.id, name, value, CLI_CHANGER); // as the operator's CLI would
  };
  for (const [name, value] of Object.entries(opts.settings ?? {})) {
    if (!isSettingName(name) || value === undefined) throw new Error(`unknown setting ${name}`);
    await setSetting(name, value);
  }
  return {
    url: engine.url,
    db,
    databaseUrl: database.url,
    keys: engine.bootstrapKeys ?? opts.shareWith?.keys ?? { test: '', live: '', testPub: '', livePub: '' },
    createAccount: async (name = `acct-${randomBytes(4).toString('hex')}`) => (await accounts.create(name)).keys,
    setSetting,
    assets,
    close: async () => {
      await engine.close();
      await database.drop();
      fs.rmSync(assets, { recursive: true, force: true });
    },
  };
}
