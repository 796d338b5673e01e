// Completing an idempotency claim: the stored answer is written only while the claim is still ours,
// inside whatever transaction creates the object, so answer and object commit (or vanish) together.
import type { Knex } from 'knex';
import { ApiError } from '../errors';

export interface IdempotencyClaim {
  where: { account_id: string; mode: string; kind: string; key: string };
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
  response: { status: number; body: unknown },
): Promise<void> {
  const changed = await db('idempotency_keys')
    .where({ ...claim.where, claim: claim.token, status: 0 })
    .update({ status: response.status, body: JSON.stringify(response.body) });
  if (changed !== 1) throw claimLost();
  claim.recorded = true;
}
