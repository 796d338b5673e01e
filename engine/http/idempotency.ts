// Idempotency-Key (header) or idempotency_key (query): a repeated create returns the stored response.
//
// A request claims the key (a row holding a random claim token and a lease) before its work starts;
// concurrent repeats get 409 while the lease runs. The stored answer is written in the same
// transaction as the object it describes (the store completes the claim), and only while the claim
// is still ours. So after a crash a retry finds either the committed object's answer, or an
// unfinished claim whose lease lapses and which the retry then takes over: never a second object.
import { randomBytes } from 'node:crypto';
import { ApiError } from '../base/errors';
import type { Scope } from '../store/objects';
import { IN_PROGRESS, type IdempotencyClaim } from '../store/idempotency-keys';
import type { Store } from '../store/store';

const DAY_MS = 24 * 60 * 60 * 1000;
const SWEEP_MS = 60 * 60 * 1000;

export function idempotencyKey(header: string | undefined, query: Record<string, unknown>): string | undefined {
  const fromQuery = query.idempotency_key;
  if (header !== undefined && fromQuery !== undefined) {
    throw new ApiError(
      'invalid',
      'use either the Idempotency-Key header or the idempotency_key query parameter, not both',
      422,
    );
  }
  const key = header ?? (fromQuery === undefined ? undefined : String(fromQuery));
  if (key === undefined) return undefined;
  if (key.length === 0 || key.length > 256 || key.includes('\u0000')) {
    throw new ApiError('invalid', 'idempotency key must be 1 to 256 characters, without NUL', 422);
  }
  return key;
}

export interface StoredResponse {
  status: number;
  body: unknown;
}

export class IdempotencyStore {
  private lastSweep = 0;

  constructor(
    private readonly keys: Store['idempotencyKeys'],
    private readonly leaseMs: number,
  ) {}

  /**
   * Runs `work` once per key within 24 hours; repeats get the first response. `work` receives the
   * claim so the store can record the response in the transaction that creates the object; where it
   * does not, the response is recorded here afterwards.
   */
  async once(
    scope: Scope,
    kind: string,
    key: string,
    work: (claim: IdempotencyClaim) => Promise<StoredResponse>,
  ): Promise<StoredResponse> {
    const where = { account_id: scope.accountId, mode: scope.mode, kind, key };
    await this.sweep();
    const claim: IdempotencyClaim = { where, token: randomBytes(12).toString('hex'), recorded: false };
    const stored = await this.acquire(claim);
    if (stored) return stored;
    let response: StoredResponse;
    try {
      response = await work(claim);
    } catch (error) {
      // Failed work leaves nothing behind: the key may be retried at once. (An answer committed with
      // its object is no longer IN_PROGRESS, so this never removes one.)
      await this.keys.releaseClaim(claim);
      throw error;
    }
    if (!claim.recorded)
      await this.keys.completeClaim(claim, { status: response.status, body: JSON.stringify(response.body) });
    return response;
  }

  /** Claims the key, or returns the stored response; 409 while another request holds a live lease. */
  private async acquire(claim: IdempotencyClaim): Promise<StoredResponse | undefined> {
    for (let attempt = 0; attempt < 3; attempt++) {
      const now = new Date();
      const row = await this.keys.findKey(claim.where);
      const lease = new Date(now.getTime() + this.leaseMs).toISOString();
      if (!row) {
        if (await this.keys.claimNewKey(claim, lease)) return undefined;
        continue;
      }
      const expired = row.date_created <= new Date(now.getTime() - DAY_MS).toISOString();
      if (row.status !== IN_PROGRESS && !expired) return { status: row.status, body: JSON.parse(row.body) };
      if (row.status === IN_PROGRESS && !expired && row.lease_until > now.toISOString())
        throw inProgress(row.lease_until, now);
      // Expired, or an unfinished claim whose holder is gone: take it over, unless someone else just did.
      if (await this.keys.takeOverKey(claim, row, lease)) return undefined;
    }
    throw inProgress(new Date(Date.now() + 1000).toISOString(), new Date());
  }

  /** Keys expire after 24 hours: drop them at most once an hour per process. */
  private async sweep(): Promise<void> {
    if (Date.now() - this.lastSweep < SWEEP_MS) return;
    this.lastSweep = Date.now();
    await this.keys.dropKeysBefore(new Date(Date.now() - DAY_MS).toISOString());
  }
}

function inProgress(leaseUntil: string, now: Date): ApiError {
  const seconds = Math.max(1, Math.ceil((Date.parse(leaseUntil) - now.getTime()) / 1000));
  return new ApiError(
    'conflict',
    `A request with this idempotency key is already in progress. Retry after it finishes (at most ${seconds} s).`,
    409,
    { 'Retry-After': String(seconds) },
  );
}
