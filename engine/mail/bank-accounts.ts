// Bank accounts: created unverified; live accounts get two micro-deposits (recorded for the operator)
// whose amounts verify them; test accounts verify with any two amounts, as the spec says.
import { randomInt } from 'node:crypto';
import type { Knex } from 'knex';
import { ApiError, notFound } from '../errors';
import { eventOf } from '../catalog';
import { bankAccounts, type BankAccountInput } from '../catalog/bank-accounts';
import type { ApiObject, ObjectStore, Scope } from '../store/objects';
import type { IdempotencyClaim } from '../store/idempotency-claims';
import { newId } from '../util/ids';
import { nowIso } from '../util/time';

const KIND = bankAccounts.name;
const CREATED = eventOf(bankAccounts, 'created');
const VERIFIED = eventOf(bankAccounts, 'verified');

export async function createBankAccount(
  objects: ObjectStore,
  knex: Knex,
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
  if (scope.mode === 'test') {
    await objects.insert(scope, KIND, account, { claim, event: CREATED });
    return account;
  }
  await knex.transaction(async (trx) => {
    await objects.insert(scope, KIND, account, { trx, claim, event: CREATED });
    await trx('microdeposits').insert({
      bank_account_id: account.id,
      account_id: scope.accountId,
      mode: scope.mode,
      first: randomInt(1, 101),
      second: randomInt(1, 101),
    });
  });
  return account;
}

/** The two amounts deposited into a live account, for the operator (`printpost deposits`). */
export async function microdeposits(knex: Knex, bankAccountId: string): Promise<[number, number] | undefined> {
  const row = (await knex('microdeposits').where({ bank_account_id: bankAccountId }).first()) as
    { first: number; second: number } | undefined;
  return row ? [Number(row.first), Number(row.second)] : undefined;
}

const sameAmounts = (given: readonly number[], expected: readonly number[]) =>
  [...given].sort((a, b) => a - b).join() === [...expected].sort((a, b) => a - b).join();

export async function verifyBankAccount(
  objects: ObjectStore,
  scope: Scope,
  id: string,
  amounts: number[],
): Promise<ApiObject> {
  const verified = await objects.transition(scope, KIND, id, {
    refuse: (current) =>
      current.verified === true
        ? new ApiError('bank_account_already_verified', 'This bank account is already verified.', 422)
        : undefined,
    change: (current) => ({ ...current, verified: true }),
    event: VERIFIED,
    alsoWrite: async (trx) => {
      if (scope.mode === 'test') return;
      const expected = await microdeposits(trx, id);
      if (!expected || !sameAmounts(amounts, expected)) {
        throw new ApiError(
          'invalid_bank_account_verification',
          'The amounts do not match the two micro-deposits.',
          422,
        );
      }
    },
  });
  if (!verified) throw notFound('bank account');
  return verified;
}
