// What only checks need at create: the verified bank account they are drawn on. Their number is taken
// in the check's own commit (store/check-numbers.ts).
import { ApiError } from '../../base/errors';
import { bankAccounts } from '../../catalog/bank-accounts';
import type { ApiObject, ObjectStore, Scope } from '../../store/objects';

export async function drawableBankAccount(objects: ObjectStore, scope: Scope, id: string): Promise<ApiObject> {
  const account = await objects.get(scope, bankAccounts.name, id, { includeDeleted: true });
  if (!account) throw new ApiError('not_found', `bank_account ${id} not found`, 404);
  if (account.deleted === true) throw new ApiError('deleted_bank_account', `bank_account ${id} has been deleted`, 404);
  if (account.verified !== true)
    throw new ApiError('bank_error', `bank_account ${id} must be verified before checks can be drawn on it`, 422);
  return account;
}
