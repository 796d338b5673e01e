// One Knex instance for the process. SQLite (a file) is the default; a postgres:// URL selects
// PostgreSQL so several engine processes can share one database.
import path from 'node:path';
import fs from 'node:fs';
import knex, { type Knex } from 'knex';
import { beginImmediate } from './sqlite-client';

export type Dialect = 'sqlite' | 'postgres';

export interface Database {
  knex: Knex;
  dialect: Dialect;
  /** what was connected, without credentials, for the start banner */
  label: string;
  /** what was connected, as given (with credentials): for components that open their own connections */
  url: string;
  /** the SQLite file, for the read connection */
  file?: string;
}

export const DEFAULT_DATABASE = '.data/printpost.sqlite';

// Knex prints pool errors itself; every one also reaches the caller as a thrown error, which the
// engine reports once, so its own printing is switched off.
const quiet = { warn: () => undefined, error: () => undefined, deprecate: () => undefined, debug: () => undefined };

/** Whether the database answers a trivial query (for `GET /health`). */
export function reachable(knex: Knex): Promise<boolean> {
  return knex.raw('select 1').then(
    () => true,
    () => false,
  );
}

export function connect(url: string = DEFAULT_DATABASE, poolMax = 10): Database {
  if (/^postgres(ql)?:\/\//.test(url)) {
    return {
      dialect: 'postgres',
      label: url.replace(/\/\/[^@/]*@/, '//***@'),
      url,
      knex: knex({ client: 'pg', connection: url, log: quiet, pool: { min: 0, max: poolMax } }),
    };
  }
  const file = url.replace(/^sqlite:(\/\/)?/, '');
  if (file !== ':memory:') fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const db = knex({
    client: 'better-sqlite3',
    connection: { filename: file },
    log: quiet,
    useNullAsDefault: true,
    // better-sqlite3 is synchronous: one connection serializes writes without lock contention.
    pool: {
      min: 1,
      max: 1,
      afterCreate(conn: { pragma(sql: string): unknown }, done: (err: Error | null, conn: unknown) => void) {
        conn.pragma('journal_mode = WAL');
        conn.pragma('synchronous = NORMAL');
        conn.pragma('busy_timeout = 5000');
        conn.pragma('foreign_keys = ON');
        done(null, conn);
      },
    },
  });
  return { dialect: 'sqlite', label: `sqlite:${file}`, url, knex: beginImmediate(db), file };
}
