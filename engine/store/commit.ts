// What goes into one commit. The code above the store declares it as data (`CommitWrites`): objects
// created with it, their events, the idempotency answer, files, a piece's inputs, micro-deposits, jobs,
// places taken under a limit, objects that must still be live or are deleted with it. Only the store
// writes it, whichever way the commit is made: the group commit of inserts (insert-batcher.ts), an
// insert's own transaction when it must take something first, or a transition's compare-and-set
// (objects.ts). So what commits together is said once, and no SQL lives above the store.
import type { Knex } from 'knex';
import { objectRow, type ApiObject } from './columns';
import { eventRow } from './events';
import { blobRow, type NewBlob } from './blobs';
import { pieceInputsRow, type PieceInputs } from './piece-inputs';
import { microdepositsRow, type Microdeposits } from './microdeposits';
import { runRecipientRow, type RunRecipient } from './run-recipients';
import { mailingRow, returnAddressRow, type CampaignMailing } from './campaign-mailings';
import { incrementBelow, type CounterKey } from './counters';
import { useConfirmationOnce, type UsedConfirmation } from './agent-confirmations';
import { completeClaim, type ClaimCompletion, type IdempotencyClaim } from './idempotency-keys';
import type { Scope } from './scope';
import { pgBossTransaction, type PgBossTransaction } from './pg-boss-db';
import { isPlainObject } from '../base/records';

export interface EventType {
  type: string;
  resource: string;
  /** what the event shows when not the object as stored (a webhook's, without its secrets) */
  shows?(object: ApiObject): ApiObject;
}

/** An object created in the commit besides the one inserted or changed. */
export interface NewObject {
  kind: string;
  object: ApiObject;
  /** the object it lives under (a template, for a version) */
  parent?: string;
  events?: EventType[];
}

/** An object the commit names; `refusal` is thrown, and nothing commits, when it is not live. */
export interface ObjectRef {
  kind: string;
  id: string;
  parent?: string;
  refusal(): Error;
}

/**
 * One more (or `count` more) on `counter` while it stays at most `below`; past the limit `refusal` is
 * thrown and nothing commits.
 */
export interface CounterTake {
  counter: CounterKey;
  below: number;
  /** places taken at once (a campaign run's whole audience); one when left out */
  count?: number;
  refusal(): Error;
}

/** A confirmation token used by the commit (an agent's send: domain/agents/confirmations.ts); used already, `refusal`. */
export interface ConfirmationUse {
  used: UsedConfirmation;
  refusal(): Error;
}

/** A row of the SQLite `jobs` table (migrations/007_jobs.ts), as engine/platform/jobs/sqlite.ts makes it. */
// A type, not an interface: rows are handed on as plain records.
export type JobRow = {
  id: string;
  name: string;
  data: string;
  state: 'queued';
  attempt: 0;
  retry_limit: number;
  retry_delay_ms: number;
  run_at: number;
  singleton_key: string | null;
  /** higher first (migration 018) */
  priority: number;
  last_error: null;
  created_at: number;
};

/**
 * A job committed with the rest, as its backend enqueues it (JobQueue.enqueueWith): a `jobs` row on
 * SQLite (skipped when its singleton key has a job queued or active), or pg-boss's send run in the
 * commit's transaction on PostgreSQL (the SQLite group commit, written synchronously, refuses it).
 */
export type JobWrite = { row: JobRow } | { send(tx: PgBossTransaction): Promise<void> };

export interface CommitWrites {
  /** objects created in the same commit (a mailpiece's inline addresses, a template's version) */
  objects?: NewObject[];
  /** events of the object inserted or changed, in order, a millisecond apart so a sort by date keeps it */
  events?: EventType[];
  /** the request's idempotency claim: the object inserted or changed is its answer, recorded while the claim is ours */
  claim?: IdempotencyClaim;
  /** files stored with it (a piece's uploads) */
  blobs?: NewBlob[];
  /** what a piece's renderer reads */
  pieceInputs?: PieceInputs[];
  /** a live bank account's two deposits */
  microdeposits?: Microdeposits[];
  /** a campaign run's recipient and the piece made for it: a second commit of the same recipient fails whole */
  runRecipients?: RunRecipient[];
  /** the person a campaign's piece mails: a second piece for the same person in one run fails whole */
  mailings?: CampaignMailing[];
  /** addresses saved as a sender's (an inline `from`): kept out of whole-book audiences */
  returnAddresses?: string[];
  jobs?: JobWrite[];
  /** places taken under a limit (live addresses), in the commit's transaction */
  takes?: CounterTake[];
  /** confirmation tokens it uses, once: a refused commit leaves them unused */
  confirmations?: ConfirmationUse[];
  /** objects that must still be live when it commits (the version a template publishes) */
  requires?: ObjectRef[];
  /** objects marked deleted with it (a version, deleted through its template) */
  deletes?: ObjectRef[];
}

/** A row of the commit with its table; `ignoreConflict`: a unique index refusing it skips it (a singleton job). */
export interface CommitRow {
  table: string;
  row: Record<string, unknown>;
  ignoreConflict?: boolean;
}

/** A commit's writes as statements: rows in order (objects first: metadata refers to them), sends, answers. */
export interface CommitPlan {
  rows: CommitRow[];
  sends: ((trx: Knex) => Promise<void>)[];
  completions: ClaimCompletion[];
  /** objects that must be live when it commits: checked in the transaction before its rows (`requires`) */
  live: LiveCheck[];
}

/** A `requires` reference as the row it must find, and the refusal when there is none. */
export interface LiveCheck {
  where: Record<string, unknown>;
  refusal(): Error;
}

/**
 * Whether the commit changes rows besides inserting its own (places taken, objects deleted): an insert
 * carrying such a commit gets a transaction of its own instead of the group commit. Objects it only
 * requires live are checked inside the group commit (insert-batcher.ts), so a campaign run's pieces,
 * which each require their campaign, still commit together.
 */
export function hasGuards(writes: CommitWrites): boolean {
  return Boolean(writes.takes?.length || writes.confirmations?.length || writes.deletes?.length);
}

/** The plan of inserting `object` (with its parent) and the rest of `writes`. */
export function insertPlan(
  scope: Scope,
  kind: string,
  object: ApiObject,
  parent: string | undefined,
  writes: CommitWrites,
): CommitPlan {
  const main = { kind, object, parent, events: writes.events };
  const created = writes.objects?.length ? [...writes.objects, main] : [main];
  const { rows, bodies } = createdRows(scope, created);
  const body = bodies[created.length - 1];
  return plan(scope, rows, writes, body);
}

/** The plan of what commits with `next`, the object a transition just wrote (as `body`). */
export function changePlan(scope: Scope, next: ApiObject, body: string, writes: CommitWrites): CommitPlan {
  const { rows } = createdRows(scope, writes.objects ?? []);
  rows.push(...eventRows(scope, writes.events, next, body));
  return plan(scope, rows, writes, writes.claim ? body : '');
}

/** Object rows, then their metadata, then their events: the order the tables refer to each other in. */
function createdRows(scope: Scope, created: readonly NewObject[]): { rows: CommitRow[]; bodies: string[] } {
  const objectRows = created.map((o) => objectRow(scope, o.kind, o.object, o.parent));
  const objects = objectRows.map((row): CommitRow => ({ table: 'objects', row }));
  const metadata = created.flatMap((o) =>
    Object.entries(isPlainObject(o.object.metadata) ? o.object.metadata : {}).map(([key, value]): CommitRow => ({
      table: 'object_metadata',
      row: { object_id: o.object.id, account_id: scope.accountId, mode: scope.mode, kind: o.kind, key, value },
    })),
  );
  const events = created.flatMap((o, i) => eventRows(scope, o.events, o.object, objectRows[i].body));
  return { rows: [...objects, ...metadata, ...events], bodies: objectRows.map((row) => row.body) };
}

function eventRows(
  scope: Scope,
  types: readonly EventType[] | undefined,
  object: ApiObject,
  json: string,
): CommitRow[] {
  if (!types?.length) return [];
  const now = Date.now();
  return types.map((e, i) => {
    const shown = e.shows?.(object);
    return {
      table: 'events',
      row: eventRow(
        scope,
        e.type,
        e.resource,
        shown ?? object,
        shown ? JSON.stringify(shown) : json,
        new Date(now + i).toISOString(),
      ),
    };
  });
}

function plan(scope: Scope, rows: CommitRow[], writes: CommitWrites, answer: string): CommitPlan {
  for (const blob of writes.blobs ?? []) rows.push({ table: 'blobs', row: blobRow(scope, blob) });
  for (const inputs of writes.pieceInputs ?? [])
    rows.push({ table: 'piece_inputs', row: pieceInputsRow(scope, inputs) });
  for (const deposits of writes.microdeposits ?? [])
    rows.push({ table: 'microdeposits', row: microdepositsRow(scope, deposits) });
  for (const recipient of writes.runRecipients ?? [])
    rows.push({ table: 'run_recipients', row: runRecipientRow(scope, recipient) });
  for (const mailing of writes.mailings ?? [])
    rows.push({ table: 'campaign_mailings', row: mailingRow(scope, mailing) });
  for (const id of writes.returnAddresses ?? [])
    rows.push({ table: 'return_addresses', row: returnAddressRow(scope, id), ignoreConflict: true });
  const sends: CommitPlan['sends'] = [];
  for (const job of writes.jobs ?? []) {
    if ('row' in job) rows.push({ table: 'jobs', row: job.row, ignoreConflict: true });
    else sends.push((trx) => job.send(pgBossTransaction(trx)));
  }
  const completions = writes.claim ? [{ claim: writes.claim, status: 200, body: answer }] : [];
  const live = (writes.requires ?? []).map((ref) => ({ where: liveRef(scope, ref), refusal: ref.refusal }));
  return { rows, sends, completions, live };
}

/** Takes the commit's places and checks the objects it requires, in its transaction, before it writes. */
export async function runGuards(trx: Knex, scope: Scope, writes: CommitWrites): Promise<void> {
  for (const take of writes.takes ?? [])
    if ((await incrementBelow(trx, take.counter, take.below, take.count)) === undefined) throw take.refusal();
  for (const use of writes.confirmations ?? []) if (!(await useConfirmationOnce(trx, use.used))) throw use.refusal();
  // PostgreSQL: the row stays share-locked until the commit, so a delete (which locks it to change it)
  // waits and then finds the commit done; SQLite's one write connection serializes them already
  await checkLive(
    trx,
    (writes.requires ?? []).map((ref) => ({ where: liveRef(scope, ref), refusal: ref.refusal })),
  );
}

/** Throws the refusal of the first object not live; on PostgreSQL share-locks each until the commit. */
export async function checkLive(trx: Knex, checks: readonly LiveCheck[]): Promise<void> {
  const share = trx.client.config.client !== 'better-sqlite3';
  for (const check of checks) {
    const query = trx('objects').first('id').where(check.where);
    const row: unknown = await (share ? query.forShare() : query);
    if (row === undefined) throw check.refusal();
  }
}

/** Writes the plan in the caller's transaction, then marks `writes.deletes` deleted at `stamp`. */
export async function writePlan(
  trx: Knex,
  scope: Scope,
  commit: CommitPlan,
  deletes: readonly ObjectRef[] = [],
  stamp?: string,
): Promise<void> {
  await insertRows(trx, commit.rows);
  for (const send of commit.sends) await send(trx);
  for (const ref of deletes) {
    const changed = await trx('objects')
      .where(liveRef(scope, ref))
      .update({ deleted: true, ...(stamp ? { date_modified: stamp } : {}) });
    if (changed !== 1) throw ref.refusal();
    await trx('object_metadata').where({ object_id: ref.id }).delete();
  }
  for (const c of commit.completions) await completeClaim(trx, c.claim, c);
}

/**
 * Rows of one table (and conflict rule) go out as multi-row inserts of up to 100, in order of first
 * appearance. On PostgreSQL each event also takes its place in the dispatcher's queue (event_outbox).
 */
export async function insertRows(trx: Knex, rows: readonly CommitRow[]): Promise<void> {
  const groups = new Map<string, CommitRow[]>();
  const outbox = trx.client.config.client === 'pg';
  for (const r of outbox ? withOutbox(rows) : rows) {
    const key = r.ignoreConflict ? `${r.table} or ignore` : r.table;
    const group = groups.get(key);
    if (group) group.push(r);
    else groups.set(key, [r]);
  }
  for (const group of groups.values()) {
    const { table, ignoreConflict } = group[0];
    for (let i = 0; i < group.length; i += 100) {
      const insert = trx(table).insert(group.slice(i, i + 100).map((r) => r.row));
      await (ignoreConflict ? insert.onConflict().ignore() : insert);
    }
  }
}

/** The rows with an event_outbox row after each event row (migrations/014_event_outbox.ts). */
function withOutbox(rows: readonly CommitRow[]): readonly CommitRow[] {
  if (!rows.some((r) => r.table === 'events')) return rows;
  return rows.flatMap((r) =>
    r.table === 'events'
      ? [r, { table: 'event_outbox', row: { date_created: r.row.date_created, event_id: r.row.id } }]
      : [r],
  );
}

function liveRef(scope: Scope, ref: ObjectRef): Record<string, unknown> {
  return {
    account_id: scope.accountId,
    mode: scope.mode,
    kind: ref.kind,
    id: ref.id,
    deleted: false,
    ...(ref.parent ? { parent_id: ref.parent } : {}),
  };
}
