import type { Knex } from 'knex';

// AI agents (issue 38): a key the operator marks as an agent's is held to the account's agent limits
// (engine/domain/agents/limits.ts); a preview's confirmation token is used once, which the row of its
// hash records (the unique key refuses a second use, in every process sharing the database).
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('api_keys', (t) => {
    t.boolean('agent').notNullable().defaultTo(false);
  });
  await knex.schema.createTable('agent_confirmations', (t) => {
    t.string('token_hash', 64).primary();
    t.string('account_id').notNullable();
    t.string('tool').notNullable();
    t.string('used_at').notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('agent_confirmations');
  await knex.schema.alterTable('api_keys', (t) => {
    t.dropColumn('agent');
  });
}
