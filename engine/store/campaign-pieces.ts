// A campaign's pieces cancelled with its delete, set-based: in the delete's own transaction (the
// campaign's row locked first), its live pieces are read (locked on PostgreSQL), those production has
// not claimed are marked deleted as a single cancel marks one (the stored body says `deleted` with a
// later `date_modified`), their metadata goes, and each gets its `<kind>.deleted` event, rows written
// a chunk at a time. A piece by piece cancel took 39.7 s for 3,000 pieces; a run's piece commit
// requires the campaign live (commit.ts `requires`), so none is added after the delete commits.
import type BetterSqlite3 from 'better-sqlite3';
import type { Knex } from 'knex';
import type { ApiObject } from './columns';
import { insertRows, type CommitRow, type EventType } from './commit';
import { eventRow } from './events';
import type { Scope } from './scope';
import { onConnection } from './sqlite-sync';

/** What the delete of a campaign cancels with it; the store fills in `cancelled` and `kept` as it commits. */
export interface CampaignPieceCancel {
  campaignId: string;
  /** the mailpiece kinds, each with the event a cancel of one of its pieces records */
  kinds: readonly { kind: string; event?: EventType }[];
  /** a piece that stays as it is: one in production */
  keeps(piece: ApiObject): boolean;
  /** the pieces cancelled, as committed (their files are removed afterwards) */
  cancelled: { kind: string; piece: ApiObject }[];
  /** how many pieces stayed (in production) */
  kept: number;
}

/** Rows changed by one statement: small enough for SQLite's bound values and PostgreSQL's messages. */
const CHUNK = 500;

/** Cancels the campaign's live pieces not kept, in `trx` (the transaction that deletes the campaign). */
export async function cancelCampaignPieces(
  trx: Knex,
  scope: Scope,
  cancel: CampaignPieceCancel,
  stamp: string,
): Promise<void> {
  const pg = trx.client.config.client === 'pg';
  cancel.cancelled = [];
  cancel.kept = 0;
  const kinds = new Map(cancel.kinds.map((k) => [k.kind, k]));
  const query = trx('objects')
    .select('kind', 'body')
    .where({ account_id: scope.accountId, mode: scope.mode, deleted: false, campaign_id: cancel.campaignId })
    .whereIn('kind', [...kinds.keys()]);
  // locked, so production's claim of a piece (a transition, which locks it) waits and then finds it gone
  const rows: { kind: string; body: string }[] = await (pg ? query.forUpdate() : query);
  const changed: Changed[] = [];
  const events: CommitRow[] = [];
  for (const row of rows) {
    const current = JSON.parse(row.body) as ApiObject;
    if (cancel.keeps(current)) {
      cancel.kept++;
      continue;
    }
    const piece: ApiObject = { ...current, deleted: true, date_modified: after(current.date_modified, stamp) };
    const body = JSON.stringify(piece);
    changed.push({ id: piece.id, modified: piece.date_modified, body });
    cancel.cancelled.push({ kind: row.kind, piece });
    const event = kinds.get(row.kind)?.event;
    if (event) events.push({ table: 'events', row: eventRow(scope, event.type, event.resource, piece, body) });
  }
  if (pg) await markPostgres(trx, changed, events);
  else await onConnection(trx, (db) => markSqlite(db, changed, events));
}

interface Changed {
  id: string;
  modified: string;
  body: string;
}

/** PostgreSQL: one statement a chunk of pieces, and the events as multi-row inserts (with their outbox rows). */
async function markPostgres(trx: Knex, changed: readonly Changed[], events: readonly CommitRow[]): Promise<void> {
  for (let i = 0; i < changed.length; i += CHUNK) {
    const chunk = changed.slice(i, i + CHUNK);
    await trx.raw(PG_MARK, [JSON.stringify(chunk.map((c) => [c.id, c.modified, c.body]))]);
    await trx('object_metadata')
      .whereIn(
        'object_id',
        chunk.map((c) => c.id),
      )
      .delete();
  }
  await insertRows(trx, events);
}

/**
 * SQLite: the transaction's own connection, used synchronously; a prepared statement a row costs a few
 * microseconds there (no round trip), less than building a statement for a chunk.
 */
function markSqlite(db: BetterSqlite3.Database, changed: readonly Changed[], events: readonly CommitRow[]): void {
  const mark = db.prepare('update objects set deleted = 1, date_modified = ?, body = ? where id = ?');
  const unindex = db.prepare('delete from object_metadata where object_id = ?');
  for (const c of changed) {
    mark.run(c.modified, c.body, c.id);
    unindex.run(c.id);
  }
  const insert = db.prepare(
    'insert into events (id, account_id, mode, event_type, reference_id, date_created, body) values (?, ?, ?, ?, ?, ?, ?)',
  );
  for (const { row } of events)
    insert.run(row.id, row.account_id, row.mode, row.event_type, row.reference_id, row.date_created, row.body);
}

// One statement a chunk: each row's new body and stamp from a JSON array of [id, date_modified, body].
const PG_MARK = `update objects set deleted = true, date_modified = v.value ->> 1, body = v.value ->> 2
  from json_array_elements(?::json) as v where objects.id = v.value ->> 0`;

/** The cancel's stamp, or one strictly after the piece's own (another process's clock may lead). */
function after(previous: string, stamp: string): string {
  return stamp > previous ? stamp : new Date(Date.parse(previous) + 1).toISOString();
}
