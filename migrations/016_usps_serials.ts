import type { Knex } from 'knex';

// USPS serial numbers of Intelligent Mail barcodes, handed out by the database so they are unique per
// Mailer ID across every engine process and restart (USPS asks for 45 days at least): a cursor per
// Mailer ID walks the serial space in order, and each serial in use names its piece and when it was
// given, so a piece asking again gets its own back and a serial comes round again only once its last
// use is older than 45 days. Live pieces waiting for the operator's USPS identity are listed in
// `production_holds`, so an engine that has it takes them up again.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('imb_serial_cursors', (t) => {
    t.string('mailer_id', 9).primary();
    t.bigInteger('next_serial').notNullable();
  });
  await knex.schema.createTable('imb_serials', (t) => {
    t.string('mailer_id', 9).notNullable();
    t.bigInteger('serial').notNullable();
    t.string('piece_id', 64).notNullable();
    /** epoch milliseconds of the last time it was given */
    t.bigInteger('used_at').notNullable();
    t.primary(['mailer_id', 'serial']);
    t.unique(['mailer_id', 'piece_id'], { indexName: 'imb_serials_piece' });
  });
  await knex.schema.createTable('production_holds', (t) => {
    t.string('piece_id', 64).primary();
    t.bigInteger('held_at').notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('production_holds');
  await knex.schema.dropTableIfExists('imb_serials');
  await knex.schema.dropTableIfExists('imb_serial_cursors');
}
