import type { Knex } from 'knex';

// Serials of letters' tracking numbers, drawn by the database so no two pieces get one, whatever
// number of engine processes create letters at once: one row per series (a certified Mailer ID,
// `impb:<MID>`; a registered service indicator, `s10:<indicator>`) holding the next serial to give.
// Serials only go up: a number is never given twice, even if the operator changes the range.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('tracking_serials', (t) => {
    t.string('series', 32).primary();
    t.bigInteger('next_serial').notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('tracking_serials');
}
