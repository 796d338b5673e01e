// Knex's better-sqlite3 client, with its transactions begun IMMEDIATE. Knex begins them DEFERRED: a
// transaction that reads, then writes, asks for the write lock only at its first write, and if another
// process (the CLI beside a served engine, a second engine on the same file) committed in between,
// SQLite answers SQLITE_BUSY at once: its busy timeout cannot help, since waiting would not make the
// snapshot read current. Taken at BEGIN, the lock is waited for (busy_timeout) and what was read stays
// true until the commit. In one process nothing changes: its single connection already serializes.
import type { Knex } from 'knex';

type TransactionClass = new (...args: unknown[]) => { begin(conn: unknown): Promise<unknown> };
interface TransactionInternals {
  query(conn: unknown, sql: string): Promise<unknown>;
}

// knex has no export map; this is the class its own `client: 'better-sqlite3'` begins transactions with
// eslint-disable-next-line @typescript-eslint/no-require-imports
const SqliteTransaction = require('knex/lib/dialects/sqlite3/execution/sqlite-transaction') as TransactionClass;

class ImmediateTransaction extends SqliteTransaction {
  override begin(conn: unknown): Promise<unknown> {
    return (this as unknown as TransactionInternals).query(conn, 'BEGIN IMMEDIATE;');
  }
}

/**
 * Makes every transaction of this better-sqlite3 Knex begin IMMEDIATE. The client stays knex's own
 * (`config.client` still reads 'better-sqlite3'); only the transaction it makes is replaced, also for
 * the strict copies knex derives from it for schema changes.
 */
export function beginImmediate(db: Knex): Knex {
  const client = db.client as { transaction: (...args: unknown[]) => unknown };
  client.transaction = function (this: unknown, ...args: unknown[]) {
    return new ImmediateTransaction(this, ...args);
  };
  return db;
}
