// SQLite's one write connection, used synchronously. Knex holds it across turns of the event loop for
// each query of an async transaction, and every group commit of creates waits for it meanwhile; a
// transaction run here is one synchronous call, so it holds the connection only while it works.
// Queries are still built by Knex (one dialect-neutral source of SQL) and prepared once per text.
import type BetterSqlite3 from 'better-sqlite3';
import type { Knex } from 'knex';

type Binding = string | number | bigint | Buffer | null;

/** Knex's bindings as better-sqlite3 takes them (it refuses booleans, dates and undefined). */
export const toBinding = (value: unknown): Binding => {
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (value instanceof Date) return value.toISOString();
  if (value === undefined) return null;
  return value as Binding;
};

/**
 * SQLite re-prepares a statement whose LIMIT or OFFSET is a bound parameter each time it runs (its
 * planner reads the value), which costs more than a simple query itself; Knex always binds them. Whole
 * numbers are written into the SQL instead, so the statement is prepared once per value.
 */
export function inlineLimits(sql: string, bindings: readonly unknown[]): { sql: string; bindings: unknown[] } {
  if (!/ (limit|offset) \?/i.test(sql)) return { sql, bindings: [...bindings] };
  const kept: unknown[] = [];
  let index = 0;
  let quote: string | undefined;
  let out = '';
  for (const c of sql) {
    if (quote) {
      if (c === quote) quote = undefined;
    } else if (c === "'" || c === '"' || c === '`') quote = c;
    else if (c === '?') {
      const value = bindings[index++];
      if (Number.isSafeInteger(value) && (value as number) >= 0 && / (limit|offset) $/i.test(out.slice(-8))) {
        out += String(value);
        continue;
      }
      kept.push(value);
    }
    out += c;
  }
  return { sql: out, bindings: kept };
}

/** Prepared statements of one connection, by their SQL (bounded: texts with inlined limits vary a little). */
export function statementCache(db: BetterSqlite3.Database): (sql: string) => BetterSqlite3.Statement {
  const statements = new Map<string, BetterSqlite3.Statement>();
  return (sql) => {
    let found = statements.get(sql);
    if (!found) {
      if (statements.size > 500) statements.clear();
      found = db.prepare(sql);
      statements.set(sql, found);
    }
    return found;
  };
}

/** A Knex query as SQLite text and bindings, ready for a prepared statement. */
export function nativeQuery(query: Knex.QueryBuilder | Knex.Raw): { sql: string; bindings: Binding[] } {
  const native = query.toSQL().toNative();
  const { sql, bindings } = inlineLimits(native.sql, native.bindings);
  return { sql, bindings: bindings.map(toBinding) };
}

interface PoolClient {
  acquireConnection(): Promise<BetterSqlite3.Database>;
  releaseConnection(connection: BetterSqlite3.Database): void;
}

/** Runs `fn` on Knex's one SQLite connection, borrowed from its pool so Knex's own queries wait. */
export async function onConnection<T>(knex: Knex, fn: (connection: BetterSqlite3.Database) => T): Promise<T> {
  const client = knex.client as unknown as PoolClient;
  const connection = await client.acquireConnection();
  try {
    return fn(connection);
  } finally {
    client.releaseConnection(connection);
  }
}

/** Queries run at once, inside a synchronous transaction. */
export interface SyncQueries {
  rows<T>(query: Knex.QueryBuilder): T[];
  /** an insert, update or delete; the rows it changed */
  change(query: Knex.QueryBuilder): number;
}

const caches = new WeakMap<BetterSqlite3.Database, (sql: string) => BetterSqlite3.Statement>();

/**
 * `body` in one transaction on the write connection, run synchronously (it must not await). The
 * transaction is IMMEDIATE: it takes the write lock before it reads, so another process on the same
 * file cannot change what it read before it writes.
 */
export function syncTransaction<T>(knex: Knex, body: (db: SyncQueries) => T): Promise<T> {
  return onConnection(knex, (connection) => {
    let statement = caches.get(connection);
    if (!statement) {
      statement = statementCache(connection);
      caches.set(connection, statement);
    }
    const prepared = statement;
    const db: SyncQueries = {
      rows: <R>(query: Knex.QueryBuilder) => {
        const { sql, bindings } = nativeQuery(query);
        return prepared(sql).all(...bindings) as R[];
      },
      change: (query) => {
        const { sql, bindings } = nativeQuery(query);
        return prepared(sql).run(...bindings).changes;
      },
    };
    return connection.transaction(() => body(db)).immediate();
  });
}
