// Reads on the hot path. Knex builds every query (one dialect-neutral source of SQL); on SQLite the
// built statement then runs on a read-only connection with prepared statements cached by their SQL,
// which costs a few microseconds instead of Knex's ~40 per query. WAL mode lets this connection read
// while Knex's connection writes, and it sees every committed write.
import Database from 'better-sqlite3';
import type { Knex } from 'knex';

export interface Reader {
  all<T>(query: Knex.QueryBuilder): Promise<T[]>;
  first<T>(query: Knex.QueryBuilder): Promise<T | undefined>;
  close(): void;
}

export const knexReader: Reader = {
  all: async <T>(query: Knex.QueryBuilder) => (await query) as T[],
  first: async <T>(query: Knex.QueryBuilder) => ((await query.clone().limit(1)) as T[])[0],
  close: () => undefined,
};

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
  const prepared = (query: Knex.QueryBuilder) => {
    const { sql, bindings } = query.toSQL().toNative();
    let statement = statements.get(sql);
    if (!statement) {
      if (statements.size > 500) statements.clear();
      statement = db.prepare(sql);
      statements.set(sql, statement);
    }
    return { statement, bindings: bindings.map(toBinding) };
  };
  return {
    all: async <T>(query: Knex.QueryBuilder) => {
      const { statement, bindings } = prepared(query);
      return statement.all(...bindings) as T[];
    },
    first: async <T>(query: Knex.QueryBuilder) => {
      const { statement, bindings } = prepared(query.clone().limit(1));
      return statement.get(...bindings) as T | undefined;
    },
    close: () => db.close(),
  };
}
