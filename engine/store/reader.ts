// Reads on the hot path. Knex builds every query (one dialect-neutral source of SQL); on SQLite the
// built statement then runs on a read-only connection with prepared statements cached by their SQL,
// which costs a few microseconds instead of Knex's ~40 per query. WAL mode lets this connection read
// while Knex's connection writes, and it sees every committed write.
import Database from 'better-sqlite3';
import type { Knex } from 'knex';
import { inlineLimits, nativeQuery, statementCache, toBinding } from './sqlite-sync';

/** Placeholder values for `prepare`: `slot(0)`, `slot(1)`… stand for the values given at each call. */
export type Slot = (index: number) => string;

export interface Reader {
  all<T>(query: Knex.QueryBuilder): Promise<T[]>;
  first<T>(query: Knex.QueryBuilder): Promise<T | undefined>;
  /** A query of fixed shape, built by Knex once; each call binds new values to its slots. */
  prepare<T>(build: (slot: Slot) => Knex.QueryBuilder): (values: unknown[]) => Promise<T[]>;
  /**
   * A number that changes whenever any connection, of this process or another, commits to the database;
   * undefined where no such reading is cheap (PostgreSQL), so nothing may be cached on it there.
   */
  changeStamp(): number | undefined;
  close(): void;
}

const SLOT = '\u0000slot:';
const slot: Slot = (index) => `${SLOT}${index}`;

interface Template {
  sql: string;
  bind(values: unknown[]): unknown[];
}

/** The query's SQL with a placeholder per binding; `native`: SQLite's text, constant limits written in. */
function template(query: Knex.QueryBuilder, native: boolean): Template {
  const compiled = query.toSQL();
  const nativeSql = native ? compiled.toNative() : undefined;
  const { sql, bindings } = nativeSql
    ? inlineLimits(nativeSql.sql, nativeSql.bindings)
    : { sql: compiled.sql, bindings: compiled.bindings as unknown[] };
  const slots = bindings.map((b) => (typeof b === 'string' && b.startsWith(SLOT) ? Number(b.slice(SLOT.length)) : -1));
  return { sql, bind: (values) => slots.map((s, i) => (s >= 0 ? values[s] : bindings[i])) };
}

export function knexReader(knex: Knex): Reader {
  return {
    all: async <T>(query: Knex.QueryBuilder) => (await query) as T[],
    first: async <T>(query: Knex.QueryBuilder) => ((await query.clone().limit(1)) as T[])[0],
    prepare: <T>(build: (s: Slot) => Knex.QueryBuilder) => {
      const t = template(build(slot), false);
      return async (values: unknown[]) => {
        const result = (await knex.raw(t.sql, t.bind(values) as Knex.RawBinding[])) as { rows?: T[] } | T[];
        return Array.isArray(result) ? result : (result.rows ?? []);
      };
    },
    changeStamp: () => undefined,
    close: () => undefined,
  };
}

export function sqliteReader(file: string): Reader {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  db.pragma('busy_timeout = 5000');
  const statement = statementCache(db);
  // SQLite's data_version: this connection's count of commits made by any other connection to the file
  const dataVersion = db.prepare('PRAGMA data_version').pluck();
  const run = <T>(query: Knex.QueryBuilder, one: boolean) => {
    const { sql, bindings } = nativeQuery(query);
    const prepared = statement(sql);
    return (one ? prepared.get(...bindings) : prepared.all(...bindings)) as T;
  };
  return {
    all: async <T>(query: Knex.QueryBuilder) => run<T[]>(query, false),
    first: async <T>(query: Knex.QueryBuilder) => run<T | undefined>(query.clone().limit(1), true),
    prepare: <T>(build: (s: Slot) => Knex.QueryBuilder) => {
      const t = template(build(slot), true);
      return async (values: unknown[]) => statement(t.sql).all(...t.bind(values).map(toBinding)) as T[];
    },
    changeStamp: () => dataVersion.get() as number,
    close: () => db.close(),
  };
}
