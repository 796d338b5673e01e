// The two micro-deposit amounts of a live bank account (`microdeposits`), written in the commit that
// creates the account (commit.ts) and never returned by the API: its verify must be given them, and
// the operator reads them with `printpost deposits`.
import type { Knex } from 'knex';
import type { Scope } from './scope';

export interface Microdeposits {
  bankAccountId: string;
  amounts: [number, number];
}

export function microdepositsRow(scope: Scope, given: Microdeposits): Record<string, unknown> {
  return {
    bank_account_id: given.bankAccountId,
    account_id: scope.accountId,
    mode: scope.mode,
    first: given.amounts[0],
    second: given.amounts[1],
  };
}

/** The two amounts deposited into the account, or undefined (a test account, or none such). */
export async function readMicrodeposits(knex: Knex, bankAccountId: string): Promise<[number, number] | undefined> {
  const row = await knex<{ bank_account_id: string; first: number; second: number }>('microdeposits')
    .where({ bank_account_id: bankAccountId })
    .first();
  return row ? [Number(row.first), Number(row.second)] : undefined;
}
