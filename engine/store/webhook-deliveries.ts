// Webhook delivery as stored: the dispatcher fans each committed event out to the webhooks of its
// account and mode that take its type (a delivery each, in one transaction with its own progress past
// the event, so an event is fanned out once and never lost); a webhook's deliveries are then taken in
// order, each attempt kept with what the receiver answered.
import type { Knex } from 'knex';
import { newId } from '../base/ids';
import { nowIso } from '../base/time';
import type { ObjectColumns } from './columns';
import type { Scope } from './scope';
import { parseStored } from './stored';
import { syncTransaction, type SyncQueries } from './sqlite-sync';

/** Event types a webhook takes: these, or every type (`*`). */
const takes = (types: unknown, type: string) => Array.isArray(types) && (types.includes('*') || types.includes(type));

export interface WebhookTarget {
  id: string;
  scope: Scope;
  url: string;
  secret: string;
  /** the secret a rotation replaced, still signing until `until` (epoch ms) */
  previous?: { secret: string; until: number };
  enabled: boolean;
  /** its last change (enabling it again, a new URL): failures before it do not count towards disabling it */
  modified: string;
}

interface EventRow {
  id: string;
  account_id: string;
  mode: string;
  event_type: string;
}

interface HookRow {
  id: string;
  account_id: string;
  mode: string;
  body: string;
}

const isPostgres = (knex: Knex) => knex.client.config.client === 'pg';

/**
 * Fans out up to `limit` events not yet fanned out, oldest first; returns the webhooks given
 * deliveries. On PostgreSQL the events are taken off a queue table under row locks (SKIP LOCKED), so
 * several dispatchers share the work without doubling any; on SQLite a cursor follows the events in
 * commit order, moved in the same (immediate) transaction as the deliveries it wrote.
 */
export async function dispatchEvents(knex: Knex, limit: number): Promise<string[]> {
  if (!isPostgres(knex))
    return syncTransaction(knex, (db) => {
      const [cursor] = db.rows<{ position: number }>(knex('event_cursors').select('position').where(SQLITE_CURSOR));
      // With no webhook anywhere (an engine nobody subscribes to) nothing is read: the cursor moves to
      // the last event. Events before a webhook existed are not its to receive, and none can commit
      // meanwhile: the transaction holds the write lock.
      if (db.rows(anyWebhook(knex)).length === 0) {
        const [last] = db.rows<{ position: number | null }>(knex('events').max({ position: 'rowid' }));
        if (last?.position != null && last.position > (cursor?.position ?? 0)) moveCursor(db, knex, last.position);
        return [];
      }
      const events = db.rows<EventRow & { position: number }>(
        knex('events')
          .select({ position: 'rowid' }, 'id', 'account_id', 'mode', 'event_type')
          .where('rowid', '>', cursor?.position ?? 0)
          .orderBy('rowid')
          .limit(limit),
      );
      if (events.length === 0) return [];
      const rows = deliveryRows(events, db.rows<HookRow>(webhooksOf(knex, events)));
      for (const chunk of chunks(rows, 200)) db.change(knex('webhook_deliveries').insert(chunk));
      moveCursor(db, knex, events[events.length - 1].position);
      return [...new Set(rows.map((r) => r.webhook_id))];
    });
  return knex.transaction(async (trx) => {
    const events = await takeFromOutbox(trx, limit);
    if (events.length === 0) return [];
    const rows = deliveryRows(events, await webhooksOf(trx, events));
    for (const chunk of chunks(rows, 200)) await trx('webhook_deliveries').insert(chunk);
    return [...new Set(rows.map((r) => r.webhook_id))];
  });
}

/**
 * On PostgreSQL: the oldest `limit` events of the queue (migrations/014_event_outbox.ts), taken off it
 * in the caller's transaction, in the order they happened; rows another dispatcher holds are skipped,
 * not waited for.
 */
async function takeFromOutbox(trx: Knex.Transaction, limit: number): Promise<EventRow[]> {
  const { rows: taken } = (await trx.raw(
    `delete from event_outbox where ctid in (
       select ctid from event_outbox order by date_created, event_id limit ? for update skip locked
     ) returning event_id`,
    [limit],
  )) as { rows: { event_id: string }[] };
  if (taken.length === 0) return [];
  return trx<EventRow>('events')
    .select('id', 'account_id', 'mode', 'event_type')
    .whereIn(
      'id',
      taken.map((t) => t.event_id),
    )
    .orderBy([{ column: 'date_created' }, { column: 'id' }]);
}

/** On SQLite: the last event fanned out, by rowid (migrations/013_event_cursor.ts says why). */
const SQLITE_CURSOR = { name: 'webhooks' };

const moveCursor = (db: SyncQueries, knex: Knex, position: number) =>
  db.change(
    knex('event_cursors')
      .insert({ ...SQLITE_CURSOR, position })
      .onConflict('name')
      .merge(),
  );

/** One webhook of any account, if there is one: per account through the objects' scope index. */
const anyWebhook = (knex: Knex) =>
  knex('accounts')
    .select('id')
    .whereExists((q) =>
      q
        .select(knex.raw('1'))
        .from('objects')
        .whereRaw('objects.account_id = accounts.id')
        .whereIn('mode', ['test', 'live'])
        .where({ kind: 'webhooks', deleted: false }),
    )
    .limit(1);

/** The webhooks of the events' accounts and modes. */
function webhooksOf(knex: Knex, events: readonly EventRow[]) {
  const scopes = [...new Set(events.map((e) => `${e.account_id} ${e.mode}`))].map((key) => key.split(' '));
  return knex<HookRow & { kind: string; deleted: boolean }>('objects')
    .select('id', 'account_id', 'mode', 'body')
    .where({ kind: 'webhooks', deleted: false })
    .where((q) => {
      for (const [account, mode] of scopes) q.orWhere({ account_id: account, mode });
    });
}

/** A delivery per event and enabled webhook of its account and mode that takes its type. */
function deliveryRows(events: readonly EventRow[], hooks: readonly HookRow[]) {
  const live = hooks
    .map((h) => ({ ...h, parsed: parseStored('webhooks', h.body) }))
    .filter((h) => h.parsed.enabled !== false);
  const now = Date.now();
  const created = nowIso();
  return events.flatMap((e) =>
    live
      .filter((h) => h.account_id === e.account_id && h.mode === e.mode && takes(h.parsed.event_types, e.event_type))
      .map((h) => ({
        webhook_id: h.id,
        account_id: e.account_id,
        mode: e.mode,
        event_id: e.id,
        event_type: e.event_type,
        state: 'pending',
        attempts: 0,
        next_attempt_at: now,
        date_created: created,
      })),
  );
}

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** Webhooks with a delivery due now (new, or its wait after a failure over): their jobs are queued. */
export async function webhooksDue(knex: Knex, now = Date.now()): Promise<string[]> {
  const rows = await knex<{ webhook_id: string; state: string; next_attempt_at: number }>('webhook_deliveries')
    .distinct('webhook_id')
    .where('state', 'pending')
    .where('next_attempt_at', '<=', now);
  return rows.map((r) => r.webhook_id);
}

export interface DueDelivery {
  seq: number;
  eventId: string;
  eventType: string;
  attempts: number;
  /** epoch ms */
  nextAttemptAt: number;
  /** the event as stored (the delivered body) */
  body: string;
}

/** The webhook's next `limit` pending deliveries in order, with their events. */
export async function pendingInOrder(knex: Knex, webhookId: string, limit: number): Promise<DueDelivery[]> {
  const rows = (await knex('webhook_deliveries as d')
    .join('events as e', 'e.id', 'd.event_id')
    .select('d.seq', 'd.event_id', 'd.event_type', 'd.attempts', 'd.next_attempt_at', 'e.body')
    .where({ 'd.webhook_id': webhookId, 'd.state': 'pending' })
    .orderBy('d.seq')
    .limit(limit)) as {
    seq: number | string;
    event_id: string;
    event_type: string;
    attempts: number;
    next_attempt_at: number | string;
    body: string;
  }[];
  return rows.map((row) => ({
    seq: Number(row.seq),
    eventId: row.event_id,
    eventType: row.event_type,
    attempts: Number(row.attempts),
    nextAttemptAt: Number(row.next_attempt_at),
    body: row.body,
  }));
}

/** The webhook as delivery needs it, or undefined when it is deleted. */
export async function webhookTarget(knex: Knex, webhookId: string): Promise<WebhookTarget | undefined> {
  const row = await knex<ObjectColumns>('objects')
    .select('account_id', 'mode', 'body')
    .where({ kind: 'webhooks', id: webhookId, deleted: false })
    .first();
  if (!row) return undefined;
  const body = JSON.parse(row.body) as {
    url: string;
    secret: string;
    previous_secret?: string | null;
    previous_secret_expires_at?: string | null;
    enabled?: boolean;
    date_modified: string;
  };
  const until = body.previous_secret_expires_at ? Date.parse(body.previous_secret_expires_at) : NaN;
  return {
    id: webhookId,
    scope: { accountId: row.account_id, mode: row.mode },
    url: body.url,
    secret: body.secret,
    ...(body.previous_secret && Number.isFinite(until) && { previous: { secret: body.previous_secret, until } }),
    enabled: body.enabled !== false,
    modified: body.date_modified,
  };
}

export interface AttemptOutcome {
  status: 'succeeded' | 'failed';
  responseStatus: number | null;
  durationMs: number;
  excerpt: string;
}

export interface Attempted {
  delivery: DueDelivery;
  outcome: AttemptOutcome;
  /** a failure's next try; undefined for a success, or a failure out of attempts */
  retryAt?: number;
}

/**
 * Records attempts and moves their deliveries on, all in one transaction: succeeded; or failed and
 * waiting until `retryAt`; or, with no `retryAt`, failed for good. Delivery records each attempt as it
 * is answered, so one attempt is kept cheap: on SQLite one synchronous transaction of prepared
 * statements; on PostgreSQL one statement (the attempt's insert as a data-modifying WITH of the
 * delivery's update), atomic without BEGIN and COMMIT: a Knex transaction's four round trips cost
 * about 0.5 ms of engine CPU an attempt.
 */
export async function recordAttempts(
  knex: Knex,
  target: WebhookTarget,
  attempted: readonly Attempted[],
): Promise<void> {
  if (attempted.length === 0) return;
  if (!isPostgres(knex))
    return syncTransaction(knex, (db) => {
      for (const query of attemptWrites(knex, knex, target, attempted)) db.change(query);
    });
  const [insert, ...updates] = attemptWrites(knex, knex, target, attempted);
  if (updates.length === 1) {
    await updates[0].with('attempts_recorded', insert);
    return;
  }
  await knex.transaction(async (trx) => {
    for (const query of attemptWrites(knex, trx, target, attempted)) await query;
  });
}

/** The writes that record `attempted`, built on `db` (the connection, or a transaction). */
function attemptWrites(
  knex: Knex,
  db: Knex | Knex.Transaction,
  target: WebhookTarget,
  attempted: readonly Attempted[],
): Knex.QueryBuilder[] {
  const date = nowIso();
  const rows = attempted.map(({ delivery, outcome }) => ({
    id: newId('whd'),
    webhook_id: target.id,
    account_id: target.scope.accountId,
    mode: target.scope.mode,
    delivery_seq: delivery.seq,
    event_id: delivery.eventId,
    event_type: delivery.eventType,
    attempt: delivery.attempts + 1,
    status: outcome.status,
    response_status: outcome.responseStatus,
    duration_ms: outcome.durationMs,
    response_excerpt: outcome.excerpt,
    date_created: date,
  }));
  const writes: Knex.QueryBuilder[] = [];
  for (let i = 0; i < rows.length; i += 100) writes.push(db('webhook_attempts').insert(rows.slice(i, i + 100)));
  const succeeded = attempted.filter((a) => a.outcome.status === 'succeeded').map((a) => a.delivery.seq);
  for (let i = 0; i < succeeded.length; i += 500)
    writes.push(
      db('webhook_deliveries')
        .whereIn('seq', succeeded.slice(i, i + 500))
        .update({ state: 'succeeded', attempts: knex.raw('attempts + 1') }),
    );
  for (const { delivery, outcome, retryAt } of attempted) {
    if (outcome.status === 'succeeded') continue;
    writes.push(
      db('webhook_deliveries')
        .where({ seq: delivery.seq })
        .update({
          state: retryAt === undefined ? 'failed' : 'pending',
          attempts: delivery.attempts + 1,
          next_attempt_at: retryAt ?? Date.now(),
        }),
    );
  }
  return writes;
}

/** Queues one event again for one webhook of the same account and mode (a replay); false when either is not there. */
export async function queueDelivery(knex: Knex, scope: Scope, webhookId: string, eventId: string): Promise<boolean> {
  const event = await knex<EventRow>('events')
    .select('id', 'event_type')
    .where({ id: eventId, account_id: scope.accountId, mode: scope.mode })
    .first();
  const hook = await webhookTarget(knex, webhookId);
  if (!event || !hook || hook.scope.accountId !== scope.accountId || hook.scope.mode !== scope.mode) return false;
  await knex('webhook_deliveries').insert({
    webhook_id: webhookId,
    account_id: scope.accountId,
    mode: scope.mode,
    event_id: event.id,
    event_type: event.event_type,
    state: 'pending',
    attempts: 0,
    next_attempt_at: Date.now(),
    date_created: nowIso(),
  });
  return true;
}
