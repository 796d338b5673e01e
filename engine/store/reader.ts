// Reads on the hot path. Knex builds every query (one dialect-neutral source of SQL); on SQLite the
// built statement then runs on a read-only connection with prepared statements cached by their SQL,
// which costs a few microseconds instead of Knex's ~40 per query. WAL mode lets this connection read
// while Knex's connection writes, and it sees every committed write.
import Database from 'better-sqlite3';
import type { Knex } from 'knex';

/** Placeholder values for `prepare`: `slot(0)`, `slot(1)`… stand for the values given at each call. */
export type Slot = (index: number) => string;

export interface Reader {
  all<T>(query: Knex.QueryBuilder): Promise<T[]>;
  first<T>(query: Knex.QueryBuilder): Promise<T | undefined>;
  /** A query of fixed shape, built by Knex once; each call binds new values to its slots. */
  prepare<T>(build: (slot: Slot) => Knex.QueryBuilder): (values: unknown[]) => Promise<T[]>;
  close(): void;
}

const SLOT = '\u0000slot:';
const slot: Slot = (index) => `${SLOT}${index}`;

interface Template {
  sql: string;
  native: string;
  bind(values: unknown[]): unknown[];
}

function template(query: Knex.QueryBuilder): Template {
  const compiled = query.toSQL();
  const constants = compiled.bindings as unknown[];
  const slots = constants.map((b) => (typeof b === 'string' && b.startsWith(SLOT) ? Number(b.slice(SLOT.length)) : -1));
  return {
    sql: compiled.sql,
    native: compiled.toNative().sql,
    bind: (values) => slots.map((s, i) => (s >= 0 ? values[s] : constants[i])),
  };
}

export function knexReader(knex: Knex): Reader {
  return {
    all: async <T>(query: Knex.QueryBuilder) => (await query) as T[],
    first: async <T>(query: Knex.QueryBuilder) => ((await query.clone().limit(1)) as T[])[0],
    prepare: <T>(build: (s: Slot) => Knex.QueryBuilder) => {
      const t = template(build(slot));
      return async (values: unknown[]) => {
        const result = (await knex.raw(t.sql, t.bind(values) as Knex.RawBinding[])) as { rows?: T[] } | T[];
        return Array.isArray(result) ? result : (result.rows ?? []);
      };
    },
    close: () => undefined,
  };
}

type Binding = string | number | bigint | Buffer | null;

const toBinding = (value: unknown): Binding => {
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (value instanceof Date) return value.toISOString();
  if (value === undefined) return null;
  return value as Binding;
};

export function sqliteReader(file: string): Reader {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  db.pragma('busy_timeout = 5000');
  const statements = new Map<string, Database.Statement>();
  const statement = (sql: string) => {
    let found = statements.get(sql);
    if (!found) {
      if (statements.size > 500) statements.clear();
      found = db.prepare(sql);
      statements.set(sql, found);
    }
    return found;
  };
  const run = <T>(query: Knex.QueryBuilder, one: boolean) => {
    const { sql, bindings } = query.toSQL().toNative();
    const prepared = statement(sql);
    return (one ? prepared.get(...bindings.map(toBinding)) : prepared.all(...bindings.map(toBinding))) as T;
  };
  return {
    all: async <T>(query: Knex.QueryBuilder) => run<T[]>(query, false),
    first: async <T>(query: Knex.QueryBuilder) => run<T | undefined>(query.clone().limit(1), true),
    prepare: <T>(build: (s: Slot) => Knex.QueryBuilder) => {
      const t = template(build(slot));
      return async (values: unknown[]) => statement(t.native).all(...t.bind(values).map(toBinding)) as T[];
    },
    close: () => db.close(),
  };
}
