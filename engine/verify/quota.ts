// The free monthly allowance of live US verifications for accounts without a payment method
// (spec: 300 a month, then 403). Counted in `usage_counters`, one row per account and month.
import type { Knex } from 'knex';
import { ApiError } from '../errors';

export const FREE_US_VERIFICATIONS = 'free_us_verifications';

/** 'YYYY-MM' of a date, UTC. */
export const usagePeriod = (at = new Date()): string => at.toISOString().slice(0, 7);

/**
 * Takes one free verification of this month's allowance, atomically: the upsert only counts while
 * the count is under the quota, so concurrent requests cannot overshoot it. Throws 403 when spent.
 */
export async function takeFreeVerification(knex: Knex, accountId: string, quota: number, period = usagePeriod()): Promise<number> {
  const rows = (await knex('usage_counters')
    .insert({ account_id: accountId, name: FREE_US_VERIFICATIONS, period, count: 1 })
    .onConflict(['account_id', 'name', 'period'])
    .merge({ count: knex.raw('?? + 1', ['usage_counters.count']) })
    .where('usage_counters.count', '<', quota)
    .returning('count')) as { count: number | string }[];
  if (rows.length === 0) {
    throw new ApiError(
      'payment_method_unverified',
      `This account has used its ${quota} free live US verifications this month. Add a payment method to verify more.`,
      403,
    );
  }
  return Number(rows[0].count);
}

/** How many free verifications the account used in a period. */
export async function freeVerificationsUsed(knex: Knex, accountId: string, period = usagePeriod()): Promise<number> {
  const row = (await knex('usage_counters').where({ account_id: accountId, name: FREE_US_VERIFICATIONS, period }).first('count')) as { count: number | string } | undefined;
  return Number(row?.count ?? 0);
}

/** Sets the count directly: for operators (and tests) that need to grant or use up the allowance. */
export async function setFreeVerificationsUsed(knex: Knex, accountId: string, count: number, period = usagePeriod()): Promise<void> {
  await knex('usage_counters')
    .insert({ account_id: accountId, name: FREE_US_VERIFICATIONS, period, count })
    .onConflict(['account_id', 'name', 'period'])
    .merge({ count });
}
