import type { Knex } from 'knex';

// What a mailpiece is made from, kept beside it and never returned by the API: its resolved artwork
// (HTML, template version, remote URL or uploaded file) and production options, read by the renderer.
// Uploaded files live in `blobs`, in the database itself, so every engine process sharing a
// PostgreSQL database sees them and SQLite keeps them in its one file.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('piece_inputs', (t) => {
    t.string('piece_id', 64).primary();
    t.string('account_id', 40).notNullable();
    t.string('mode', 4).notNullable();
    t.string('kind', 40).notNullable();
    t.text('inputs').notNullable();
  });
  await knex.schema.createTable('blobs', (t) => {
    t.string('id', 64).primary();
    t.string('account_id', 40).notNullable();
    t.string('mode', 4).notNullable();
    t.string('content_type', 100).notNullable();
    t.string('filename', 255).notNullable();
    t.integer('size').notNullable();
    t.string('sha256', 64).notNullable();
    t.binary('bytes').notNullable();
    t.string('date_created', 30).notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('blobs');
  await knex.schema.dropTableIfExists('piece_inputs');
}
