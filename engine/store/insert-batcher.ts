// Group commit: inserts that arrive while the previous batch is being written go out together as
// one multi-row insert in one transaction. Under load a commit is the dominant cost of a create on
// both SQLite and PostgreSQL; batching amortizes it without delaying a lone request (the first
// insert is flushed on the next turn of the event loop).
import type { Knex } from 'knex';
import { insertEvents, type EventRow } from './events';
import {
  claimLost,
  completeClaim,
  completionParams,
  SQLITE_COMPLETE_SQL,
  type ClaimCompletion,
} from './idempotency-claims';

export interface PendingRows {
  objects: Record<string, unknown>[];
  metadata: Record<string, unknown>[];
  /** idempotency answers committed with these rows */
  completions: ClaimCompletion[];
  /** outbox events committed with these rows */
  events: EventRow[];
  /** other writes committed with these rows (a piece's inputs, its uploaded files, its render job) */
  extra: ExtraWrite[];
}

export interface ExtraRow {
  table: string;
  row: Record<string, unknown>;
  /** skip the row when it collides with a unique index (a job already queued under its singleton key) */
  onConflict?: 'ignore';
}

/** Writes of their own kind, run in the commit's transaction (PostgreSQL only: SQLite batches take rows). */
export interface ExtraCallback {
  write(trx: Knex): Promise<void>;
}

export type ExtraWrite = ExtraRow | ExtraCallback;

export function isExtraRow(extra: ExtraWrite): extra is ExtraRow {
  return 'table' in extra;
}

/** Runs other writes in the caller's transaction, in order. */
export async function writeExtra(trx: Knex, extra: ExtraWrite[]): Promise<void> {
  for (const e of extra) {
    if (!isExtraRow(e)) await e.write(trx);
    else if (e.onConflict === 'ignore') await trx(e.table).insert(e.row).onConflict().ignore();
    else await trx(e.table).insert(e.row);
  }
}

interface Waiter {
  rows: PendingRows;
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

  insert(rows: PendingRows): Promise<void> {
    // The SQLite batch is written synchronously, so it cannot await a callback's own statements.
    if (this.sqlite && !rows.extra.every(isExtraRow))
      return Promise.reject(new Error('SQLite group commits take extra rows ({ table, row }), not write callbacks'));
    return new Promise((resolve, reject) => {
      this.queue.push({ rows, resolve, reject });
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
          await this.write(batch.map((w) => w.rows));
          for (const waiter of batch) settle(waiter);
        } catch {
          // One bad row (or lost claim) must not fail its neighbours: retry each on its own.
          for (const waiter of batch) await this.write([waiter.rows]).then(() => settle(waiter), waiter.reject);
        }
      }
    } finally {
      this.writing = false;
    }
  }

  private async write(all: PendingRows[]): Promise<void> {
    const objects = all.flatMap((r) => r.objects);
    const metadata = all.flatMap((r) => r.metadata);
    const completions = all.flatMap((r) => r.completions);
    const events = all.flatMap((r) => r.events);
    const extra = all.flatMap((r) => r.extra);
    if (this.sqlite)
      return writeSqlite(
        this.knex,
        objects,
        [
          ...metadata.map((row) => ['object_metadata', row] as const),
          ...events.map((row) => ['events', row] as const),
          ...extra.filter(isExtraRow).map((e) => [e.table, e.row, e.onConflict === 'ignore'] as const),
        ],
        completions,
      );
    await this.knex.transaction(async (trx) => {
      // Chunks of 100 rows keep each statement's parameter count modest.
      for (let i = 0; i < objects.length; i += 100) await trx('objects').insert(objects.slice(i, i + 100));
      for (let i = 0; i < metadata.length; i += 100) await trx('object_metadata').insert(metadata.slice(i, i + 100));
      await insertEvents(trx, events);
      await writeExtra(trx, extra);
      for (const c of completions) await completeClaim(trx, c.claim, { status: c.status, body: JSON.parse(c.body) });
    });
  }
}

/** Marks the waiter's claims recorded (only now: a rolled-back batch recorded nothing) and resolves it. */
function settle(waiter: Waiter): void {
  for (const c of waiter.rows.completions) c.claim.recorded = true;
  waiter.resolve();
}

interface SqliteConnection {
  prepare(sql: string): { run(...params: unknown[]): { changes: number } };
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
  objects: Record<string, unknown>[],
  /** rows of other tables (metadata, events), with their table and whether a unique collision skips them */
  related: (readonly [string, object, boolean?])[],
  completions: ClaimCompletion[],
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
    connection.transaction(() => {
      for (const row of objects) insert('objects', row);
      for (const [table, row, ignoreConflict] of related) insert(table, row as Record<string, unknown>, ignoreConflict);
      for (const c of completions) if (completeStatement.run(...completionParams(c)).changes !== 1) throw claimLost();
    })();
  } finally {
    client.releaseConnection(connection);
  }
}
