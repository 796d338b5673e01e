import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('accounts', (t) => {
    t.string('id', 40).primary();
    t.string('name', 200).notNullable().unique();
    t.text('settings').notNullable().defaultTo('{}');
    t.string('date_created', 30).notNullable();
  });
  await knex.schema.createTable('api_keys', (t) => {
    t.string('id', 40).primary();
    t.string('account_id', 40).notNullable().references('accounts.id');
    t.string('mode', 4).notNullable();
    t.string('kind', 12).notNullable();
    t.string('hash', 64).notNullable().unique();
    t.string('hint', 16).notNullable();
    t.string('date_created', 30).notNullable();
    t.string('date_revoked', 30).nullable();
  });
  // One table for every API object: the body is the object as returned, the columns are what
  // queries filter and sort on. Keyset pagination walks (date_created, id) inside a scope.
  await knex.schema.createTable('objects', (t) => {
    t.string('id', 64).primary();
    t.string('account_id', 40).notNullable();
    t.string('mode', 4).notNullable();
    t.string('kind', 40).notNullable();
    t.string('date_created', 30).notNullable();
    t.string('date_modified', 30).notNullable();
    t.boolean('deleted').notNullable().defaultTo(false);
    t.text('body').notNullable();
    t.index(['account_id', 'mode', 'kind', 'deleted', 'date_created', 'id'], 'objects_scope_order');
  });
  await knex.schema.createTable('object_metadata', (t) => {
    t.string('object_id', 64).notNullable().references('objects.id').onDelete('CASCADE');
    t.string('account_id', 40).notNullable();
    t.string('mode', 4).notNullable();
    t.string('kind', 40).notNullable();
    t.string('key', 40).notNullable();
    t.string('value', 500).notNullable();
    t.primary(['object_id', 'key']);
    t.index(['account_id', 'mode', 'kind', 'key', 'value'], 'object_metadata_lookup');
  });
  await knex.schema.createTable('idempotency_keys', (t) => {
    t.string('account_id', 40).notNullable();
    t.string('mode', 4).notNullable();
    t.string('kind', 40).notNullable();
    t.string('key', 256).notNullable();
    t.integer('status').notNullable();
    t.text('body').notNullable();
    t.string('date_created', 30).notNullable();
    t.primary(['account_id', 'mode', 'kind', 'key']);
    t.index(['date_created'], 'idempotency_keys_expiry');
  });
  // Monthly counters (free live verifications, ...).
  await knex.schema.createTable('usage_counters', (t) => {
    t.string('account_id', 40).notNullable();
    t.string('name', 60).notNullable();
    t.string('period', 7).notNullable();
    t.integer('count').notNullable().defaultTo(0);
    t.primary(['account_id', 'name', 'period']);
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of ['usage_counters', 'idempotency_keys', 'object_metadata', 'objects', 'api_keys', 'accounts']) {
    await knex.schema.dropTableIfExists(table);
  }
}
