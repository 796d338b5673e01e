import type { Knex } from 'knex';

// Every change of an account setting (issue 45), written in the transaction that changes it: the
// setting, its value before and after (JSON), who changed it (a key by id, hint and mode, or the
// operator's CLI) and when. Read newest first by the dashboard's settings page.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('setting_changes', (t) => {
    t.increments('id').primary();
    t.string('account_id').notNullable();
    t.string('setting').notNullable();
    t.text('value_before').notNullable();
    t.text('value_after').notNullable();
    /** `key` or `cli` */
    t.string('changed_via', 8).notNullable();
    t.string('key_id').nullable();
    t.string('key_hint').nullable();
    t.string('key_mode', 8).nullable();
    t.string('date_created').notNullable();
    t.index(['account_id', 'id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('setting_changes');
}
