// Group commit: inserts that arrive while the previous batch is being written go out together as
// one multi-row insert in one transaction. Under load a commit is the dominant cost of a create on
// both SQLite and PostgreSQL; batching amortizes it without delaying a lone request (the first
// insert is flushed on the next turn of the event loop).
import type { Knex } from 'knex';
import { checkLive, insertRows, type CommitPlan, type CommitRow, type LiveCheck } from './commit';
import { claimLost, completeClaim, completionParams, SQLITE_COMPLETE_SQL } from './idempotency-keys';

interface Waiter {
  plan: CommitPlan;
  resolve(): void;
  reject(error: unknown): void;
}

const MAX_BATCH = 200;

export class InsertBatcher {
  private queue: Waiter[] = [];
  private writing = false;

  constructor(
    private readonly knex: Knex,
    private readonly sqlite: boolean,
  ) {}

  insert(plan: CommitPlan): Promise<void> {
    // The SQLite batch is written synchronously, so it cannot await a send's own statements.
    if (this.sqlite && plan.sends.length > 0)
      return Promise.reject(new Error('SQLite group commits take job rows, not sends run in a transaction'));
    return new Promise((resolve, reject) => {
      this.queue.push({ plan, resolve, reject });
      if (!this.writing) setImmediate(() => void this.drain());
    });
  }

  private async drain(): Promise<void> {
    if (this.writing) return;
    this.writing = true;
    try {
      while (this.queue.length > 0) {
        const batch = this.queue.splice(0, MAX_BATCH);
        try {
          await this.write(batch.map((w) => w.plan));
          for (const waiter of batch) settle(waiter);
        } catch {
          // One bad row (or lost claim) must not fail its neighbours: retry each on its own.
          for (const waiter of batch) await this.write([waiter.plan]).then(() => settle(waiter), waiter.reject);
        }
      }
    } finally {
      this.writing = false;
    }
  }

  private async write(all: CommitPlan[]): Promise<void> {
    const rows = all.length === 1 ? all[0].rows : all.flatMap((p) => p.rows);
    const completions = all.flatMap((p) => p.completions);
    // once per object however many commits require it (a run's pieces all require their campaign)
    const live = [...new Map(all.flatMap((p) => p.live).map((c) => [JSON.stringify(c.where), c])).values()];
    if (this.sqlite) return writeSqlite(this.knex, rows, completions, live);
    await this.knex.transaction(async (trx) => {
      // a refusal fails the batch, and each commit is then tried alone: only the refused one fails
      await checkLive(trx, live);
      await insertRows(trx, rows);
      // sent together, so a backend may write the batch's jobs as one statement (platform/jobs/postgres.ts)
      await Promise.all(all.flatMap((p) => p.sends).map((send) => send(trx)));
      for (const c of completions) await completeClaim(trx, c.claim, c);
    });
  }
}

/** Marks the waiter's claims recorded (only now: a rolled-back batch recorded nothing) and resolves it. */
function settle(waiter: Waiter): void {
  for (const c of waiter.plan.completions) c.claim.recorded = true;
  waiter.resolve();
}

interface SqliteConnection {
  prepare(sql: string): { run(...params: unknown[]): { changes: number }; get(...params: unknown[]): unknown };
  transaction(fn: () => void): () => void;
}

interface PoolClient {
  acquireConnection(): Promise<SqliteConnection>;
  releaseConnection(connection: SqliteConnection): void;
}

interface InsertStatement {
  run(...params: unknown[]): { changes: number };
}

/** An insert Knex built once for a table and set of columns, with the columns in its binding order. */
interface PreparedInsert {
  statement: InsertStatement;
  columns: string[];
}

const statementsByConnection = new WeakMap<SqliteConnection, Map<string, PreparedInsert>>();

/** A prepared read of one live object, and how it binds a `where` of its columns. */
interface LiveStatement {
  get(where: Record<string, unknown>): unknown;
}

const liveByConnection = new WeakMap<SqliteConnection, Map<string, LiveStatement>>();

/**
 * The read a `requires` check makes, built by Knex once per set of columns (as the inserts are): a run
 * checks its campaign in every batch of its pieces.
 */
function liveStatement(knex: Knex, connection: SqliteConnection, where: Record<string, unknown>): LiveStatement {
  let cache = liveByConnection.get(connection);
  if (!cache) {
    cache = new Map();
    liveByConnection.set(connection, cache);
  }
  const columns = Object.keys(where);
  const signature = columns.join(',');
  let found = cache.get(signature);
  if (!found) {
    const marker = (i: number) => `\u0000col:${i}`;
    const query = knex('objects')
      .first('id')
      .where(Object.fromEntries(columns.map((c, i) => [c, marker(i)])));
    const { sql, bindings } = query.toSQL().toNative();
    // each binding is a column's value (by its marker) or Knex's own (the limit)
    const order = bindings.map((b): ((values: Record<string, unknown>) => unknown) => {
      const column = typeof b === 'string' && b.startsWith('\u0000col:') ? columns[Number(b.slice(5))] : undefined;
      return column === undefined ? () => b : (values) => values[column];
    });
    const statement = connection.prepare(sql);
    found = {
      get: (values) =>
        statement.get(
          ...order.map((valueOf) => {
            const v = valueOf(values);
            return typeof v === 'boolean' ? Number(v) : v;
          }),
        ),
    };
    cache.set(signature, found);
  }
  return found;
}

function prepareInsert(
  knex: Knex,
  connection: SqliteConnection,
  table: string,
  columns: string[],
  ignoreConflict: boolean,
): PreparedInsert {
  const marker = (i: number) => `\u0000col:${i}`;
  const insert = knex(table).insert(Object.fromEntries(columns.map((c, i) => [c, marker(i)])));
  const { sql, bindings } = (ignoreConflict ? insert.onConflict().ignore() : insert).toSQL().toNative();
  const order = bindings.map((b) => columns[Number(String(b).slice(marker(0).length - 1))]);
  return { statement: connection.prepare(sql), columns: order };
}

/**
 * On SQLite the batch runs synchronously on Knex's own (single) connection, borrowed from its pool
 * so Knex transactions never interleave with it; each insert is built by Knex once and prepared.
 */
async function writeSqlite(
  knex: Knex,
  rows: readonly CommitRow[],
  completions: CommitPlan['completions'],
  live: readonly LiveCheck[],
): Promise<void> {
  const client = knex.client as unknown as PoolClient;
  const connection = await client.acquireConnection();
  try {
    let cache = statementsByConnection.get(connection);
    if (!cache) {
      cache = new Map();
      statementsByConnection.set(connection, cache);
    }
    const insert = (table: string, row: Record<string, unknown>, ignoreConflict = false) => {
      const columns = Object.keys(row);
      const signature = `${table}(${columns.join(',')})${ignoreConflict ? ' or ignore' : ''}`;
      let prepared = cache!.get(signature);
      if (!prepared) {
        prepared = prepareInsert(knex, connection, table, columns, ignoreConflict);
        cache!.set(signature, prepared);
      }
      prepared.statement.run(...prepared.columns.map((c) => (typeof row[c] === 'boolean' ? Number(row[c]) : row[c])));
    };
    let complete = cache.get(SQLITE_COMPLETE_SQL);
    if (!complete) {
      complete = { statement: connection.prepare(SQLITE_COMPLETE_SQL), columns: [] };
      cache.set(SQLITE_COMPLETE_SQL, complete);
    }
    const completeStatement = complete.statement;
    const isLive = (check: LiveCheck) => liveStatement(knex, connection, check.where).get(check.where) !== undefined;
    connection.transaction(() => {
      for (const check of live) if (!isLive(check)) throw check.refusal();
      for (const r of rows) insert(r.table, r.row, r.ignoreConflict);
      for (const c of completions) if (completeStatement.run(...completionParams(c)).changes !== 1) throw claimLost();
    })();
  } finally {
    client.releaseConnection(connection);
  }
}
