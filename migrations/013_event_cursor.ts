import type { Knex } from 'knex';

// On SQLite the webhook dispatcher follows the events table's rowid with a cursor instead of clearing
// a flag on each event: SQLite has one writer, so rowids are handed out in commit order and nothing
// commits below the cursor once the dispatcher (in an immediate transaction) has read past it.
// Clearing the flag rewrote every event row (each carries its object's JSON) and a partial index, which
// cost a third of the create rate. PostgreSQL keeps the flag: concurrent commits take sequence values
// out of order, and several dispatchers share the work through row locks.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('event_cursors', (t) => {
    t.string('name', 40).primary();
    t.bigInteger('position').notNullable();
  });
  if (knex.client.config.client === 'pg') return;
  // Whatever was not yet fanned out stays after the cursor.
  await knex.raw(
    `insert into event_cursors (name, position) values ('webhooks',
       coalesce((select min(rowid) - 1 from events where dispatched = 0), (select max(rowid) from events), 0))`,
  );
  await knex.schema.alterTable('events', (t) => {
    t.dropIndex([], 'events_undispatched');
  });
}

export async function down(knex: Knex): Promise<void> {
  if (knex.client.config.client !== 'pg') {
    const [cursor] = (await knex('event_cursors').select('position').where({ name: 'webhooks' })) as {
      position: number;
    }[];
    await knex('events')
      .where('rowid', '<=', cursor?.position ?? 0)
      .update({ dispatched: true });
    await knex.schema.alterTable('events', (t) => {
      t.index(['date_created', 'id'], 'events_undispatched', { predicate: knex.whereRaw('dispatched = false') });
    });
  }
  await knex.schema.dropTableIfExists('event_cursors');
}
