// The `accounts` and `api_keys` tables. What a key is and how it is hashed, settings and the key
// cache are engine/domain/accounts'; this is only how they are kept.
import type { Knex } from 'knex';
import type { Mode } from '../catalog/types';
import { codeOf } from '../base/thrown';
import { insertSettingChange, type SettingChanger } from './setting-changes';

export interface AccountRow {
  id: string;
  name: string;
  /** the account's own settings, as JSON */
  settings: string;
}

export interface ApiKeyRow {
  id: string;
  account_id: string;
  mode: Mode;
  kind: string;
  hash: string;
  hint: string;
  date_created: string;
  /** the operator marked it as an AI agent's: held to the account's agent limits (migration 019) */
  agent?: boolean;
}

/** Adds an account with no settings of its own; false when the name is taken. */
export async function insertAccount(knex: Knex, id: string, name: string, dateCreated: string): Promise<boolean> {
  try {
    await knex('accounts').insert({ id, name, settings: '{}', date_created: dateCreated });
    return true;
  } catch (error) {
    if (isUniqueViolation(error)) return false;
    throw error;
  }
}

export async function insertApiKey(knex: Knex, key: ApiKeyRow): Promise<void> {
  await knex('api_keys').insert(key);
}

export async function countAccounts(knex: Knex): Promise<number> {
  const row = await knex<AccountRow>('accounts').count({ n: '*' }).first();
  return Number(row?.n ?? 0);
}

export async function accountNamed(knex: Knex, name: string): Promise<AccountRow | undefined> {
  return knex<AccountRow>('accounts').where({ name }).first();
}

export async function accountWithId(knex: Knex, id: string): Promise<AccountRow | undefined> {
  return knex<AccountRow>('accounts').where({ id }).first();
}

export async function oldestAccount(knex: Knex): Promise<AccountRow | undefined> {
  return knex<AccountRow>('accounts').orderBy('date_created').first();
}

/** Every account, oldest first, with its active (unrevoked) keys counted by mode. */
export async function accountsWithKeyCounts(
  knex: Knex,
): Promise<{ id: string; name: string; dateCreated: string; keys: Record<Mode, number> }[]> {
  const rows = await knex<AccountRow & { date_created: string }>('accounts')
    .orderBy(['date_created', 'id'])
    .select('id', 'name', 'date_created');
  const counts = await knex<ApiKeyRow>('api_keys')
    .whereNull('date_revoked')
    .groupBy('account_id', 'mode')
    .select('account_id', 'mode')
    .count({ n: '*' });
  return rows.map((row) => {
    const keys: Record<Mode, number> = { test: 0, live: 0 };
    for (const c of counts) if (c.account_id === row.id) keys[c.mode] = Number(c.n);
    return { id: row.id, name: row.name, dateCreated: row.date_created, keys };
  });
}

/**
 * Sets one of the account's own settings and records the change (both in one transaction: no change
 * without its record); returns them all. `fallback` is the value an unset setting has, the record's
 * "before".
 */
export async function storeSetting<V>(
  knex: Knex,
  accountId: string,
  name: string,
  value: V,
  change: { fallback: V; by: SettingChanger; at: string },
): Promise<Record<string, V>> {
  return knex.transaction(async (trx) => {
    const query = trx<AccountRow>('accounts').where({ id: accountId }).first();
    // PostgreSQL's read committed would let a concurrent set be lost; SQLite's transaction holds the lock
    const row = await (trx.client.config.client === 'pg' ? query.forUpdate() : query);
    if (!row) throw new Error(`no account ${accountId}`);
    const before = JSON.parse(row.settings) as Record<string, V>;
    const stored = { ...before, [name]: value };
    await trx('accounts')
      .where({ id: accountId })
      .update({ settings: JSON.stringify(stored) });
    await insertSettingChange(trx, {
      accountId,
      setting: name,
      before: Object.prototype.hasOwnProperty.call(before, name) ? before[name] : change.fallback,
      after: value,
      by: change.by,
      at: change.at,
    });
    return stored;
  });
}

/** The id and hint of the unrevoked key of `mode` among these hashes (a dashboard session's keys). */
export async function keyOfMode(
  knex: Knex,
  hashes: string[],
  mode: Mode,
): Promise<{ id: string; hint: string } | undefined> {
  return knex<ApiKeyRow>('api_keys')
    .whereIn('hash', hashes)
    .where({ mode })
    .whereNull('date_revoked')
    .first('id', 'hint');
}

/** The unrevoked key with this hash and its account, or undefined. */
export async function keyWithAccount(
  knex: Knex,
  hash: string,
): Promise<(AccountRow & { hash: string; mode: Mode; kind: string; agent: boolean | number }) | undefined> {
  return knex('api_keys as k')
    .join('accounts as a', 'a.id', 'k.account_id')
    .where('k.hash', hash)
    .whereNull('k.date_revoked')
    .first<AccountRow & { hash: string; mode: Mode; kind: string; agent: boolean | number }>(
      'k.hash',
      'k.mode',
      'k.kind',
      'k.agent',
      'a.id',
      'a.name',
      'a.settings',
    );
}

/** A unique index refused the row (PostgreSQL 23505, SQLite SQLITE_CONSTRAINT_UNIQUE). */
function isUniqueViolation(error: unknown): boolean {
  const code = codeOf(error);
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE';
}
