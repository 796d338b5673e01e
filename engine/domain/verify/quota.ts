// The free monthly allowance of live US verifications for accounts without a payment method
// (spec: 300 a month, then 403). Counted in `usage_counters`, one row per account and month.
import { ApiError } from '../../base/errors';
import type { CounterKey } from '../../store/counters';
import type { Store } from '../../store/store';

const FREE_US_VERIFICATIONS = 'free_us_verifications';

/** 'YYYY-MM' of a date, UTC. */
export const usagePeriod = (at = new Date()): string => at.toISOString().slice(0, 7);

/**
 * Takes one free verification of this month's allowance, atomically: the upsert only counts while
 * the count is under the quota, so concurrent requests cannot overshoot it. Throws 403 when spent.
 */
const freeKey = (accountId: string, period: string): CounterKey => ({ accountId, name: FREE_US_VERIFICATIONS, period });

export async function takeFreeVerification(
  counters: Store['counters'],
  accountId: string,
  quota: number,
  period = usagePeriod(),
): Promise<number> {
  const count = await counters.incrementBelow(freeKey(accountId, period), quota);
  if (count === undefined) {
    throw new ApiError(
      'payment_method_unverified',
      `This account has used its ${quota} free live US verifications this month. Add a payment method to verify more.`,
      403,
    );
  }
  return count;
}

/** How many free verifications the account used in a period. */
export async function freeVerificationsUsed(
  counters: Store['counters'],
  accountId: string,
  period = usagePeriod(),
): Promise<number> {
  return counters.readCounter(freeKey(accountId, period));
}

/** Sets the count directly: for operators (and tests) that need to grant or use up the allowance. */
export async function setFreeVerificationsUsed(
  counters: Store['counters'],
  accountId: string,
  count: number,
  period = usagePeriod(),
): Promise<void> {
  await counters.setCounter(freeKey(accountId, period), count);
}
