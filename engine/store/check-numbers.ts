// Check numbers, counted per bank account in `usage_counters` from 10000: a number given at create
// overrides the count and later checks continue after it. Taken in the transaction that inserts the
// check (objects.ts), so numbers never repeat and a refused create uses none up.
import type { Knex } from 'knex';
import type { Scope } from './scope';
import type { CounterRow } from './counters';

const FIRST_CHECK_NUMBER = 10_000;

export interface CheckNumber {
  bankAccountId: string;
  /** the number the create asked for */
  given?: number;
}

export async function takeCheckNumber(trx: Knex, scope: Scope, check: CheckNumber): Promise<number> {
  const key = { account_id: scope.accountId, name: `check_number:${check.bankAccountId}`, period: 'all' };
  const { given } = check;
  if (given !== undefined) {
    await trx('usage_counters')
      .insert({ ...key, count: given })
      .onConflict(['account_id', 'name', 'period'])
      .merge({ count: given });
    return given;
  }
  const rows = await trx<CounterRow>('usage_counters')
    .insert({ ...key, count: FIRST_CHECK_NUMBER })
    .onConflict(['account_id', 'name', 'period'])
    .merge({ count: trx.raw('?? + 1', ['usage_counters.count']) })
    .returning('count');
  return Number(rows[0].count);
}
