import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  // An idempotency key is held by one request (its claim) until a lease lapses; the stored answer is
  // written in the transaction that creates the object, so a crash leaves either both or neither.
  await knex.schema.alterTable('idempotency_keys', (t) => {
    t.string('claim', 32).notNullable().defaultTo('');
    t.string('lease_until', 30).notNullable().defaultTo('');
  });
  // Rate-limit windows counted in the database, so processes sharing it share the limit.
  await knex.schema.createTable('rate_windows', (t) => {
    t.string('bucket', 200).notNullable();
    t.bigInteger('window_start').notNullable();
    t.integer('count').notNullable();
    t.primary(['bucket', 'window_start']);
    t.index(['window_start'], 'rate_windows_expiry');
  });
  // Counters that live five seconds need no write-ahead log.
  if (knex.client.config.client === 'pg') await knex.raw('alter table rate_windows set unlogged');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('rate_windows');
  await knex.schema.alterTable('idempotency_keys', (t) => {
    t.dropColumn('claim');
    t.dropColumn('lease_until');
  });
}
