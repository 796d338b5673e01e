// The `agent_confirmations` table: the confirmation tokens of mail previews that have been used
// (migration 019). Only a token's hash is kept; its primary key makes a second use fail everywhere.
import type { Knex } from 'knex';

export interface UsedConfirmation {
  tokenHash: string;
  accountId: string;
  tool: string;
  usedAt: string;
}

/** Records the token as used; false when it had been used already (by any process). */
export async function useConfirmationOnce(knex: Knex, used: UsedConfirmation): Promise<boolean> {
  const rows = (await knex('agent_confirmations')
    .insert({ token_hash: used.tokenHash, account_id: used.accountId, tool: used.tool, used_at: used.usedAt })
    .onConflict('token_hash')
    .ignore()
    .returning('token_hash')) as unknown[];
  return rows.length === 1;
}
