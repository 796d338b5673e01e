// Per-account counters in `usage_counters` (one row per account, name and period), changed
// atomically so concurrent requests never overshoot a limit, on SQLite and PostgreSQL alike.
import type { Knex } from 'knex';

export interface CounterKey {
  accountId: string;
  name: string;
  /** 'YYYY-MM' for monthly allowances, 'all' for standing totals */
  period: string;
}

/** A `usage_counters` row (PostgreSQL may answer the count as text). */
export interface CounterRow {
  account_id: string;
  name: string;
  period: string;
  count: number | string;
}

/**
 * Adds `by` (one by default) while the count stays at most `limit`; returns the new count, or undefined
 * when that would pass the limit (a campaign run takes its whole audience's places at once).
 */
export async function incrementBelow(knex: Knex, key: CounterKey, limit: number, by = 1): Promise<number | undefined> {
  if (by > limit) return undefined;
  const rows = await knex<CounterRow>('usage_counters')
    .insert({ account_id: key.accountId, name: key.name, period: key.period, count: by })
    .onConflict(['account_id', 'name', 'period'])
    .merge({ count: knex.raw('?? + ?', ['usage_counters.count', by]) })
    .where('usage_counters.count', '<=', limit - by)
    .returning('count');
  return rows.length === 0 ? undefined : Number(rows[0].count);
}

/** Moves the count by `delta` (never below zero). */
export async function adjustCounter(knex: Knex, key: CounterKey, delta: number): Promise<void> {
  await knex('usage_counters')
    .where({ account_id: key.accountId, name: key.name, period: key.period })
    .update({ count: knex.raw('case when ?? + ? < 0 then 0 else ?? + ? end', ['count', delta, 'count', delta]) });
}

/** Sets the count: for operators and tests that grant or use up an allowance. */
export async function setCounter(knex: Knex, key: CounterKey, count: number): Promise<void> {
  await knex('usage_counters')
    .insert({ account_id: key.accountId, name: key.name, period: key.period, count })
    .onConflict(['account_id', 'name', 'period'])
    .merge({ count });
}

/** The current count (0 when never counted). */
export async function readCounter(knex: Knex, key: CounterKey): Promise<number> {
  const row = await knex<CounterRow>('usage_counters')
    .where({ account_id: key.accountId, name: key.name, period: key.period })
    .first('count');
  return Number(row?.count ?? 0);
}
