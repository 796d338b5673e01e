// The `idempotency_keys` table: a request's claim on a key (a random token and a lease), taken over
// when the lease lapses or the answer expires, and the answer recorded only while the claim is still
// ours, inside whatever transaction creates the object, so answer and object commit (or vanish)
// together. When a key may be claimed and for how long is the HTTP layer's (engine/http/idempotency.ts).
import type { Knex } from 'knex';
import { ApiError } from '../base/errors';
import { nowIso } from '../base/time';
import { codeOf } from '../base/thrown';

export interface KeyWhere {
  account_id: string;
  mode: string;
  kind: string;
  key: string;
}

export interface IdempotencyClaim {
  where: KeyWhere;
  /** random token naming this request's hold on the key */
  token: string;
  /** set once the answer has been written */
  recorded: boolean;
}

export interface ClaimCompletion {
  claim: IdempotencyClaim;
  status: number;
  body: string;
}

/** A key as stored: `status` 0 while a claim holds it, the answer's status once answered. */
export interface KeyRow {
  status: number;
  body: string;
  claim: string;
  lease_until: string;
  date_created: string;
}

/** The status of a key held by a claim, not yet answered. */
export const IN_PROGRESS = 0;

/** The request held the key past its lease and a retry took it over: this one must not commit. */
export const claimLost = () =>
  new ApiError('conflict', 'This request took too long and a retry with the same idempotency key took it over.', 409);

/** The update that records the answer, for the SQLite batcher's statement prepared once. */
export const SQLITE_COMPLETE_SQL =
  'update idempotency_keys set status = ?, body = ? where account_id = ? and mode = ? and kind = ? and key = ? and claim = ? and status = 0';

export function completionParams(c: ClaimCompletion): unknown[] {
  const w = c.claim.where;
  return [c.status, c.body, w.account_id, w.mode, w.kind, w.key, c.claim.token];
}

/** Records the answer on `db` (a transaction, or the connection itself); throws if the claim was lost. */
export async function completeClaim(
  db: Knex,
  claim: IdempotencyClaim,
  response: { status: number; body: string },
): Promise<void> {
  const changed = await db('idempotency_keys')
    .where({ ...claim.where, claim: claim.token, status: IN_PROGRESS })
    .update({ status: response.status, body: response.body });
  if (changed !== 1) throw claimLost();
  claim.recorded = true;
}

export async function findKey(knex: Knex, where: KeyWhere): Promise<KeyRow | undefined> {
  return knex<KeyRow>('idempotency_keys').where(where).first();
}

/** A claim on a key nobody holds; false when another request inserted the key first. */
export async function claimNewKey(knex: Knex, claim: IdempotencyClaim, leaseUntil: string): Promise<boolean> {
  try {
    await knex('idempotency_keys').insert({
      ...claim.where,
      status: IN_PROGRESS,
      body: 'null',
      claim: claim.token,
      lease_until: leaseUntil,
      date_created: nowIso(),
    });
    return true;
  } catch (error) {
    if (isDuplicateKey(error)) return false;
    throw error;
  }
}

/** Takes over `seen` (expired, or a claim whose holder is gone); false when someone else just did. */
export async function takeOverKey(
  knex: Knex,
  claim: IdempotencyClaim,
  seen: Pick<KeyRow, 'claim' | 'status'>,
  leaseUntil: string,
): Promise<boolean> {
  const taken = await knex('idempotency_keys')
    .where({ ...claim.where, claim: seen.claim, status: seen.status })
    .update({ status: IN_PROGRESS, body: 'null', claim: claim.token, lease_until: leaseUntil, date_created: nowIso() });
  return taken === 1;
}

/** Gives the key up when its work failed (an answered key is no longer IN_PROGRESS: never removed here). */
export async function releaseClaim(knex: Knex, claim: IdempotencyClaim): Promise<void> {
  await knex('idempotency_keys')
    .where({ ...claim.where, claim: claim.token, status: IN_PROGRESS })
    .delete();
}

/** Drops keys created at or before `cutoff`. */
export async function dropKeysBefore(knex: Knex, cutoff: string): Promise<void> {
  await knex('idempotency_keys').where('date_created', '<=', cutoff).delete();
}

/** A primary-key clash on either database: someone else claimed the key first. */
function isDuplicateKey(error: unknown): boolean {
  const code = codeOf(error) ?? '';
  return code === '23505' || code.startsWith('SQLITE_CONSTRAINT');
}
