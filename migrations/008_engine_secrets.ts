import type { Knex } from 'knex';

// Secrets the engine makes for itself and every process sharing the database must agree on (the key
// that signs asset links, unless the operator sets one).
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('engine_secrets', (t) => {
    t.string('name', 64).primary();
    t.text('value').notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('engine_secrets');
}
