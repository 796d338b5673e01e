import type { Knex } from 'knex';

// Campaign runs record each recipient as they go: a row per (run, address, creative), written in the
// same commit as the piece it made (or alone, with the reason, when none could be made). The unique
// key is what makes a run create each recipient's piece once, whether it resumes after a crash or a
// second process takes the same job: a second commit of the same recipient is refused as a whole.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('run_recipients', (t) => {
    t.bigIncrements('seq').primary();
    t.string('run_id', 64).notNullable();
    t.string('address_id', 64).notNullable();
    t.string('creative_id', 64).notNullable();
    t.string('account_id', 40).notNullable();
    t.string('mode', 4).notNullable();
    // null when the recipient was skipped
    t.string('piece_id', 64);
    t.string('skip_reason', 500);
    t.string('date_created', 30).notNullable();
    t.unique(['run_id', 'address_id', 'creative_id'], { indexName: 'run_recipients_once' });
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('run_recipients');
}
