import type { Knex } from 'knex';

// The two micro-deposit amounts of each live bank account: what its verify must be given. Kept out of
// the object (never returned by the API); the operator reads them with `printpost deposits`.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('microdeposits', (t) => {
    t.string('bank_account_id', 64).primary();
    t.string('account_id', 40).notNullable();
    t.string('mode', 4).notNullable();
    t.integer('first').notNullable();
    t.integer('second').notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('microdeposits');
}
