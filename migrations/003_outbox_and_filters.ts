import type { Knex } from 'knex';

const COLUMNS: [string, (t: Knex.CreateTableBuilder) => Knex.ColumnBuilder][] = [
  ['status', (t) => t.string('status', 40)],
  ['size', (t) => t.string('size', 20)],
  ['send_date', (t) => t.string('send_date', 30)],
  ['mail_type', (t) => t.string('mail_type', 40)],
  ['campaign_id', (t) => t.string('campaign_id', 64)],
  ['color', (t) => t.boolean('color')],
  ['billing_group_id', (t) => t.string('billing_group_id', 64)],
];

export async function up(knex: Knex): Promise<void> {
  // Filter columns, filled from the object's field of the same name (null where a kind has none).
  // Each index is partial, so kinds without the field (addresses) pay nothing for it.
  await knex.schema.alterTable('objects', (t) => {
    for (const [, add] of COLUMNS) add(t).nullable();
  });
  await knex.schema.alterTable('objects', (t) => {
    for (const [name] of COLUMNS) {
      t.index(['account_id', 'mode', 'kind', 'deleted', name, 'date_created', 'id'], `objects_by_${name}`, {
        predicate: knex.whereNotNull(name),
      });
    }
  });
  // The event outbox: every state change writes its event here in the change's own transaction;
  // webhook delivery drains it.
  await knex.schema.createTable('events', (t) => {
    t.string('id', 64).primary();
    t.string('account_id', 40).notNullable();
    t.string('mode', 4).notNullable();
    t.string('event_type', 80).notNullable();
    t.string('reference_id', 64).notNullable();
    t.string('date_created', 30).notNullable();
    t.text('body').notNullable();
    t.index(['account_id', 'mode', 'date_created', 'id'], 'events_scope_order');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('events');
  await knex.schema.alterTable('objects', (t) => {
    for (const [name] of COLUMNS) t.dropIndex([], `objects_by_${name}`);
  });
  await knex.schema.alterTable('objects', (t) => {
    for (const [name] of COLUMNS) t.dropColumn(name);
  });
}
