import type { Knex } from 'knex';

// Campaign audiences from uploaded CSV files: a run's recipient is then a row of the upload's file, not
// an address. `row_number` is that row (0 for an address recipient, whose `address_id` is the address;
// for a row, `address_id` holds the upload's id), and the unique key takes it in, so a row, like an
// address, gets its piece once per run and creative. A NOT NULL column with a default, and the key
// replaced by a wider one, keep the table as it is on SQLite (no rebuild) and on PostgreSQL.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('run_recipients', (t) => {
    t.integer('row_number').notNullable().defaultTo(0);
  });
  await knex.schema.alterTable('run_recipients', (t) => {
    t.unique(['run_id', 'address_id', 'row_number', 'creative_id'], { indexName: 'run_recipients_row_once' });
  });
  await knex.schema.alterTable('run_recipients', (t) => {
    t.dropUnique(['run_id', 'address_id', 'creative_id'], 'run_recipients_once');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex('run_recipients').where('row_number', '>', 0).delete();
  await knex.schema.alterTable('run_recipients', (t) => {
    t.unique(['run_id', 'address_id', 'creative_id'], { indexName: 'run_recipients_once' });
  });
  await knex.schema.alterTable('run_recipients', (t) => {
    t.dropUnique(['run_id', 'address_id', 'row_number', 'creative_id'], 'run_recipients_row_once');
    t.dropColumn('row_number');
  });
}
