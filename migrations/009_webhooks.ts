import type { Knex } from 'knex';

// Webhook delivery. Events already commit with their change (003's outbox); here each gets a flag the
// dispatcher clears once it has fanned the event out to the webhooks that take it (events written
// before this migration count as sent: nothing delivers history). A delivery is one event for one
// webhook, delivered in `seq` order per webhook; every attempt at it is kept.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('events', (t) => {
    t.boolean('dispatched').notNullable().defaultTo(false);
  });
  await knex('events').update({ dispatched: true });
  await knex.schema.alterTable('events', (t) => {
    t.index(['date_created', 'id'], 'events_undispatched', { predicate: knex.whereRaw('dispatched = false') });
    t.index(['account_id', 'mode', 'event_type', 'date_created', 'id'], 'events_by_type');
  });
  await knex.schema.createTable('webhook_deliveries', (t) => {
    t.bigIncrements('seq').primary();
    t.string('webhook_id', 64).notNullable();
    t.string('account_id', 40).notNullable();
    t.string('mode', 4).notNullable();
    t.string('event_id', 64).notNullable();
    t.string('event_type', 80).notNullable();
    // pending, succeeded, failed (every attempt failed)
    t.string('state', 10).notNullable();
    t.integer('attempts').notNullable().defaultTo(0);
    /** epoch ms: not tried again before this */
    t.bigInteger('next_attempt_at').notNullable();
    t.string('date_created', 30).notNullable();
    t.index(['webhook_id', 'state', 'seq'], 'webhook_deliveries_queue');
  });
  await knex.schema.createTable('webhook_attempts', (t) => {
    t.string('id', 64).primary();
    t.string('webhook_id', 64).notNullable();
    t.string('account_id', 40).notNullable();
    t.string('mode', 4).notNullable();
    t.bigInteger('delivery_seq').notNullable();
    t.string('event_id', 64).notNullable();
    t.string('event_type', 80).notNullable();
    t.integer('attempt').notNullable();
    t.string('status', 10).notNullable();
    t.integer('response_status').nullable();
    t.integer('duration_ms').notNullable();
    t.text('response_excerpt').notNullable();
    t.string('date_created', 30).notNullable();
    t.index(['webhook_id', 'date_created', 'id'], 'webhook_attempts_order');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('webhook_attempts');
  await knex.schema.dropTableIfExists('webhook_deliveries');
  await knex.schema.alterTable('events', (t) => {
    t.dropIndex([], 'events_by_type');
    t.dropIndex([], 'events_undispatched');
  });
  await knex.schema.alterTable('events', (t) => {
    t.dropColumn('dispatched');
  });
}
