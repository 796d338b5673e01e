// Idempotency-Key (header) or idempotency_key (query): a repeated create returns the stored response.
// The key is claimed before the work starts, so two concurrent requests with one key cannot both
// create: the second gets 409 until the first has finished, then the stored response.
import type { Knex } from 'knex';
import { ApiError } from '../errors';
import type { Scope } from '../store/objects';
import { nowIso } from '../util/time';

const DAY_MS = 24 * 60 * 60 * 1000;
const SWEEP_MS = 60 * 60 * 1000;
const IN_PROGRESS = 0;

/** A primary-key clash on either database: someone else claimed the key first. */
function isDuplicateKey(error: unknown): boolean {
  const code = (error as { code?: string }).code ?? '';
  return code === '23505' || code.startsWith('SQLITE_CONSTRAINT');
}

export function idempotencyKey(header: string | undefined, query: Record<string, unknown>): string | undefined {
  const fromQuery = query.idempotency_key;
  if (header !== undefined && fromQuery !== undefined) {
    throw new ApiError('invalid', 'use either the Idempotency-Key header or the idempotency_key query parameter, not both', 422);
  }
  const key = header ?? (fromQuery === undefined ? undefined : String(fromQuery));
  if (key === undefined) return undefined;
  if (key.length === 0 || key.length > 256 || key.includes('\u0000')) throw new ApiError('invalid', 'idempotency key must be 1 to 256 characters, without NUL', 422);
  return key;
}

export interface StoredResponse {
  status: number;
  body: unknown;
}

export class IdempotencyStore {
  private lastSweep = 0;

  constructor(private readonly knex: Knex) {}

  /** Runs `work` once per key within 24 hours; repeats get the first response. */
  async once(scope: Scope, kind: string, key: string, work: () => Promise<StoredResponse>): Promise<StoredResponse> {
    const where = { account_id: scope.accountId, mode: scope.mode, kind, key };
    const cutoff = new Date(Date.now() - DAY_MS).toISOString();
    await this.sweep(cutoff);
    const existing = (await this.knex('idempotency_keys').where(where).first('status', 'body', 'date_created')) as { status: number; body: string; date_created: string } | undefined;
    if (existing && existing.date_created > cutoff) {
      if (existing.status === IN_PROGRESS) throw inProgress();
      return { status: existing.status, body: JSON.parse(existing.body) };
    }
    if (existing) await this.knex('idempotency_keys').where(where).where('date_created', '<=', cutoff).delete();
    try {
      await this.knex('idempotency_keys').insert({ ...where, status: IN_PROGRESS, body: 'null', date_created: nowIso() });
    } catch (error) {
      if (isDuplicateKey(error)) throw inProgress();
      throw error;
    }
    let response: StoredResponse;
    try {
      response = await work();
    } catch (error) {
      await this.knex('idempotency_keys').where(where).delete(); // failed work may be retried with the key
      throw error;
    }
    await this.knex('idempotency_keys').where(where).update({ status: response.status, body: JSON.stringify(response.body) });
    return response;
  }

  /** Keys expire after 24 hours: drop them at most once an hour per process. */
  private async sweep(cutoff: string): Promise<void> {
    if (Date.now() - this.lastSweep < SWEEP_MS) return;
    this.lastSweep = Date.now();
    await this.knex('idempotency_keys').where('date_created', '<=', cutoff).delete();
  }
}

const inProgress = () => new ApiError('conflict', 'A request with this idempotency key is already in progress. Retry after it finishes.', 409);
