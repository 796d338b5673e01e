// Idempotency-Key (header) or idempotency_key (query): a repeated create returns the stored response.
import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import { ApiError } from '../errors';
import type { Scope } from '../store/objects';
import { nowIso } from '../util/time';

const DAY_MS = 24 * 60 * 60 * 1000;

export function idempotencyKey(header: string | undefined, query: Record<string, unknown>): string | undefined {
  const fromQuery = query.idempotency_key;
  if (header !== undefined && fromQuery !== undefined) {
    throw new ApiError('invalid', 'use either the Idempotency-Key header or the idempotency_key query parameter, not both', 422);
  }
  const key = header ?? (fromQuery === undefined ? undefined : String(fromQuery));
  if (key === undefined) return undefined;
  if (key.length === 0 || key.length > 256) throw new ApiError('invalid', 'idempotency key must be 1 to 256 characters', 422);
  return key;
}

export interface StoredResponse {
  status: number;
  body: unknown;
}

export class IdempotencyStore {
  constructor(private readonly knex: Knex) {}

  async find(scope: Scope, kind: string, key: string): Promise<StoredResponse | undefined> {
    const row = (await this.knex('idempotency_keys')
      .where({ account_id: scope.accountId, mode: scope.mode, kind, key })
      .where('date_created', '>', new Date(Date.now() - DAY_MS).toISOString())
      .first('status', 'body')) as { status: number; body: string } | undefined;
    return row && { status: row.status, body: JSON.parse(row.body) };
  }

  /** Records the response; a concurrent twin that stored first wins and its response is returned. */
  async save(scope: Scope, kind: string, key: string, response: StoredResponse): Promise<StoredResponse> {
    const where = { account_id: scope.accountId, mode: scope.mode, kind, key };
    await this.knex('idempotency_keys').where(where).where('date_created', '<=', new Date(Date.now() - DAY_MS).toISOString()).delete();
    await this.knex('idempotency_keys')
      .insert({ ...where, request_hash: createHash('sha256').update(key).digest('hex'), status: response.status, body: JSON.stringify(response.body), date_created: nowIso() })
      .onConflict(['account_id', 'mode', 'kind', 'key'])
      .ignore();
    return (await this.find(scope, kind, key)) ?? response;
  }
}
