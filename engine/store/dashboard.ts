// What the dashboard (engine/faces/dashboard) reads and writes beside the object store: its sessions
// (`dashboard_sessions`, migration 020), an account's keys as operators see them (hints only, never
// hashes), revoking one, and the pieces of every kind in one list and in counts by status.
import type { Knex } from 'knex';
import type { Mode } from '../catalog/types';
import type { Scope } from './scope';
import { parseStored, type StoredObject } from './stored';

export interface SessionRow {
  id_hash: string;
  account_id: string;
  mode: Mode;
  /** the modes whose secret keys were given in this session, comma-separated */
  modes: string;
  /** the hashes of the keys given in this session, comma-separated: it lasts while they are not revoked */
  key_hashes: string;
  csrf_secret: string;
  created_at: string;
  expires_at: string;
  ended_at: string | null;
}

export async function insertSession(knex: Knex, row: SessionRow): Promise<void> {
  await knex('dashboard_sessions').insert(row);
}

/** The session with this id hash, if it was not ended and has not expired by `now`. */
export async function liveSession(knex: Knex, idHash: string, now: string): Promise<SessionRow | undefined> {
  return knex<SessionRow>('dashboard_sessions')
    .where({ id_hash: idHash })
    .whereNull('ended_at')
    .where('expires_at', '>', now)
    .first();
}

export async function setSessionModes(
  knex: Knex,
  idHash: string,
  mode: Mode,
  modes: string,
  keyHashes: string,
): Promise<void> {
  await knex('dashboard_sessions')
    .where({ id_hash: idHash })
    .whereNull('ended_at')
    .update({ mode, modes, key_hashes: keyHashes });
}

export async function endSession(knex: Knex, idHash: string, now: string): Promise<void> {
  await knex('dashboard_sessions').where({ id_hash: idHash }).whereNull('ended_at').update({ ended_at: now });
}

/** Sessions long over are of no use: dropped when someone signs in. */
export async function dropSessionsBefore(knex: Knex, before: string): Promise<void> {
  await knex('dashboard_sessions').where('expires_at', '<', before).delete();
}

export interface KeyListing {
  id: string;
  mode: Mode;
  kind: string;
  hint: string;
  agent: boolean;
  date_created: string;
  date_revoked: string | null;
}

/** The account's keys, newest first, revoked ones included. */
export async function keysOf(knex: Knex, accountId: string): Promise<KeyListing[]> {
  const rows = await knex('api_keys')
    .where({ account_id: accountId })
    .orderBy([
      { column: 'date_created', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .select<(Omit<KeyListing, 'agent'> & { agent: boolean | number })[]>(
      'id',
      'mode',
      'kind',
      'hint',
      'agent',
      'date_created',
      'date_revoked',
    );
  return rows.map((row) => ({ ...row, agent: Boolean(row.agent) }));
}

/** Revokes the account's key `keyId`; false when it has no such active key. */
export async function revokeKey(knex: Knex, accountId: string, keyId: string, now: string): Promise<boolean> {
  const changed = await knex('api_keys')
    .where({ account_id: accountId, id: keyId })
    .whereNull('date_revoked')
    .update({ date_revoked: now });
  return changed === 1;
}

export interface PieceFilter {
  kinds: readonly string[];
  status?: string;
  campaignId?: string;
  /** ISO dates: created on or after `from`, before `to` */
  from?: string;
  to?: string;
  metadata?: { key: string; value: string };
  /** keyset page: rows created before this (date_created, id) */
  before?: { dateCreated: string; id: string };
  limit: number;
}

/** Pieces of the given kinds in one list, newest first; one row more than `limit` says a next page exists. */
export async function listPieces(
  knex: Knex,
  scope: Scope,
  filter: PieceFilter,
): Promise<{ kind: string; piece: StoredObject<string> }[]> {
  const query = knex('objects')
    .where({ account_id: scope.accountId, mode: scope.mode, deleted: false })
    .whereIn('kind', [...filter.kinds]);
  if (filter.status) query.where('status', filter.status);
  if (filter.campaignId) query.where('campaign_id', filter.campaignId);
  if (filter.from) query.where('date_created', '>=', filter.from);
  if (filter.to) query.where('date_created', '<', filter.to);
  if (filter.metadata) {
    const { key, value } = filter.metadata;
    query.whereIn(
      'id',
      knex('object_metadata').select('object_id').where({ account_id: scope.accountId, mode: scope.mode, key, value }),
    );
  }
  const before = filter.before;
  if (before)
    query.where((q) =>
      q
        .where('date_created', '<', before.dateCreated)
        .orWhere((same) => same.where('date_created', before.dateCreated).where('id', '<', before.id)),
    );
  const rows = await query
    .orderBy([
      { column: 'date_created', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .limit(filter.limit + 1)
    .select<{ kind: string; body: string }[]>('kind', 'body');
  return rows.map((row) => ({ kind: row.kind, piece: parseStored(row.kind, row.body) }));
}

/** Pieces of the given kinds created since `since`, counted by status (deleted ones as `cancelled`). */
export async function pieceCounts(
  knex: Knex,
  scope: Scope,
  kinds: readonly string[],
  since: string,
): Promise<Record<string, number>> {
  const rows = await knex('objects')
    .where({ account_id: scope.accountId, mode: scope.mode })
    .whereIn('kind', [...kinds])
    .where('date_created', '>=', since)
    .groupBy('status', 'deleted')
    .select('status', 'deleted')
    .count<{ status: string | null; deleted: boolean | number; n: number | string }[]>({ n: '*' });
  const counts: Record<string, number> = {};
  for (const row of rows) {
    const status = row.deleted ? 'cancelled' : (row.status ?? 'unknown');
    counts[status] = (counts[status] ?? 0) + Number(row.n);
  }
  return counts;
}

/** The next pieces to go to production: not cancelled, not yet in production, soonest send date first. */
export async function nextToProduction(
  knex: Knex,
  scope: Scope,
  kinds: readonly string[],
  limit: number,
): Promise<{ kind: string; piece: StoredObject<string> }[]> {
  const rows = await knex('objects')
    .where({ account_id: scope.accountId, mode: scope.mode, deleted: false })
    .whereIn('kind', [...kinds])
    .whereIn('status', ['processed', 'rendered'])
    .orderBy([
      { column: 'send_date', order: 'asc' },
      { column: 'id', order: 'asc' },
    ])
    .limit(limit)
    .select<{ kind: string; body: string }[]>('kind', 'body');
  return rows.map((row) => ({ kind: row.kind, piece: parseStored(row.kind, row.body) }));
}

export interface AttemptListing {
  webhook_id: string;
  event_id: string;
  event_type: string;
  attempt: number;
  status: string;
  response_status: number | null;
  date_created: string;
}

/** The webhook delivery attempts of these events in this scope, newest first (a piece's page). */
export async function attemptsForEvents(
  knex: Knex,
  scope: Scope,
  eventIds: readonly string[],
  limit: number,
): Promise<AttemptListing[]> {
  if (eventIds.length === 0) return [];
  return knex('webhook_attempts')
    .where({ account_id: scope.accountId, mode: scope.mode })
    .whereIn('event_id', [...eventIds])
    .orderBy([
      { column: 'date_created', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .limit(limit)
    .select<AttemptListing[]>(
      'webhook_id',
      'event_id',
      'event_type',
      'attempt',
      'status',
      'response_status',
      'date_created',
    );
}

/** A rate window's count so far (0 when it has none), read without counting a hit. */
export async function windowCount(knex: Knex, bucket: string, windowStart: number): Promise<number> {
  const row = await knex('rate_windows')
    .where({ bucket, window_start: windowStart })
    .first<{ count: number | string } | undefined>('count');
  return Number(row?.count ?? 0);
}
