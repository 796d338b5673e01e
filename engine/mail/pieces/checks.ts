// What only checks need at create: the verified bank account they are drawn on, and their number,
// counted per bank account from 10000 (a given number overrides and later ones continue after it).
import type { Knex } from 'knex';
import { ApiError } from '../../errors';
import { bankAccounts } from '../../catalog/bank-accounts';
import type { ApiObject, ObjectStore, Scope } from '../../store/objects';

const FIRST_CHECK_NUMBER = 10_000;

export async function drawableBankAccount(objects: ObjectStore, scope: Scope, id: string): Promise<ApiObject> {
  const account = await objects.get(scope, bankAccounts.name, id, { includeDeleted: true });
  if (!account) throw new ApiError('not_found', `bank_account ${id} not found`, 404);
  if (account.deleted === true) throw new ApiError('deleted_bank_account', `bank_account ${id} has been deleted`, 404);
  if (account.verified !== true)
    throw new ApiError('bank_error', `bank_account ${id} must be verified before checks can be drawn on it`, 422);
  return account;
}

/** The check's number, taken in the transaction that inserts the check. */
export async function takeCheckNumber(trx: Knex, scope: Scope, bankAccountId: string, given?: number): Promise<number> {
  const key = { account_id: scope.accountId, name: `check_number:${bankAccountId}`, period: 'all' };
  if (given !== undefined) {
    await trx('usage_counters')
      .insert({ ...key, count: given })
      .onConflict(['account_id', 'name', 'period'])
      .merge({
        count: given,
      });
    return given;
  }
  const rows = (await trx('usage_counters')
    .insert({ ...key, count: FIRST_CHECK_NUMBER })
    .onConflict(['account_id', 'name', 'period'])
    .merge({ count: trx.raw('?? + 1', ['usage_counters.count']) })
    .returning('count')) as { count: number | string }[];
  return Number(rows[0].count);
}
