// Bank accounts: created unverified; live accounts get two micro-deposits (recorded for the operator)
// whose amounts verify them; test accounts verify with any two amounts, as the spec says.
import { randomInt } from 'node:crypto';
import { ApiError, notFound } from '../../base/errors';
import { eventOf } from '../../catalog';
import { bankAccounts, type BankAccountInput } from '../../catalog/bank-accounts';
import type { ApiObject, ObjectStore, Scope } from '../../store/objects';
import type { IdempotencyClaim } from '../../store/idempotency-keys';
import type { Services } from '../services';
import { newId } from '../../base/ids';
import { nowIso } from '../../base/time';

const KIND = bankAccounts.name;
const CREATED = eventOf(bankAccounts, 'created');
const VERIFIED = eventOf(bankAccounts, 'verified');

export async function createBankAccount(
  objects: ObjectStore,
  scope: Scope,
  input: BankAccountInput,
  claim?: IdempotencyClaim,
): Promise<ApiObject> {
  const now = nowIso();
  const account: ApiObject = {
    id: newId('bank'),
    description: input.description ?? null,
    routing_number: input.routing_number,
    account_number: input.account_number,
    account_type: input.account_type,
    signatory: input.signatory,
    check_template: input.check_template ?? 'common',
    ...(input.fractional_routing_number !== undefined && {
      fractional_routing_number: input.fractional_routing_number,
    }),
    ...(input.city !== undefined && { city: input.city }),
    ...(input.state !== undefined && { state: input.state }),
    ...(input.zipcode !== undefined && { zipcode: input.zipcode }),
    signature_url: null,
    // No routing directory is bundled: the bank's name is left empty rather than guessed.
    bank_name: '',
    verified: false,
    microdeposit_type: 'amounts',
    metadata: input.metadata ?? {},
    date_created: now,
    date_modified: now,
    object: 'bank_account',
  };
  const deposits =
    scope.mode === 'live'
      ? [{ bankAccountId: account.id, amounts: [randomInt(1, 101), randomInt(1, 101)] as [number, number] }]
      : undefined;
  return objects.insert(scope, KIND, account, { claim, events: [CREATED], microdeposits: deposits });
}

const sameAmounts = (given: readonly number[], expected: readonly number[]) =>
  [...given].sort((a, b) => a - b).join() === [...expected].sort((a, b) => a - b).join();

export async function verifyBankAccount(
  { objects, store }: Services,
  scope: Scope,
  id: string,
  amounts: number[],
): Promise<ApiObject> {
  // The deposits never change once the account's commit wrote them, so they are read before the
  // transition; whether the account is already verified is decided on its latest state, first.
  const expected = scope.mode === 'live' ? await store.microdeposits.readMicrodeposits(id) : undefined;
  const verified = await objects.transition(scope, KIND, id, {
    refuse: (current) => {
      if (current.verified === true)
        return new ApiError('bank_account_already_verified', 'This bank account is already verified.', 422);
      if (scope.mode === 'live' && !(expected && sameAmounts(amounts, expected)))
        return new ApiError(
          'invalid_bank_account_verification',
          'The amounts do not match the two micro-deposits.',
          422,
        );
      return undefined;
    },
    change: (current) => ({ ...current, verified: true }),
    events: [VERIFIED],
  });
  if (!verified) throw notFound('bank account');
  return verified;
}
