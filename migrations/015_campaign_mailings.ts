import type { Knex } from 'knex';

// Who a campaign has mailed, as people rather than address rows: one row per piece a run made, keyed by
// the recipient's standardized name and address (engine/domain/addresses/person-key.ts). The unique (run, creative,
// person) refuses a second piece for the same person in one run whatever the audience holds (two
// address-book entries, two processes); later runs read the campaign's rows to mail only people it has
// not mailed yet. `return_addresses` marks the addresses saved as a sender (an inline `from`): they stay
// in the address book, and a whole-book audience leaves them out. Events get an index by the object
// they are about (GET /v1/events?reference_id=). The partial unique index lets a
// campaign have one running run at a time, whatever arrives at once, in any number of processes.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(
    "create unique index objects_one_running_run on objects (account_id, mode, campaign_id) where kind = 'campaign_runs' and status = 'running'",
  );
  await knex.schema.createTable('campaign_mailings', (t) => {
    t.bigIncrements('seq');
    t.string('account_id', 64).notNullable();
    t.string('mode', 8).notNullable();
    t.string('campaign_id', 64).notNullable();
    t.string('creative_id', 64).notNullable();
    t.string('run_id', 64).notNullable();
    t.string('person_key', 64).notNullable();
    t.string('piece_id', 64).notNullable();
    t.string('date_created', 32).notNullable();
    t.unique(['run_id', 'creative_id', 'person_key'], { indexName: 'campaign_mailings_once_a_run' });
    t.index(['campaign_id', 'creative_id', 'date_created'], 'campaign_mailings_by_campaign');
  });
  // why a recipient was skipped, as a word a workflow can branch on (duplicate, already_mailed, refused)
  await knex.schema.alterTable('run_recipients', (t) => {
    t.string('skip_code', 16).nullable();
  });
  await knex.schema.createTable('return_addresses', (t) => {
    t.string('address_id', 64).primary();
    t.string('account_id', 64).notNullable();
    t.string('mode', 8).notNullable();
  });
  // GET /v1/events?reference_id=: the events of one object
  await knex.schema.alterTable('events', (t) => {
    t.index(['account_id', 'mode', 'reference_id', 'date_created', 'id'], 'events_by_reference');
  });
  await knex.raw(backfillReturnAddresses(knex.client.config.client === 'pg' ? 'pg' : 'sqlite'));
}

/** The senders of what exists already: each piece's `from.id` and each creative's `from` (an id). */
function backfillReturnAddresses(dialect: 'pg' | 'sqlite'): string {
  const sender =
    dialect === 'pg'
      ? `case when jsonb_typeof(body::jsonb -> 'from') = 'string' then body::jsonb ->> 'from' else body::jsonb -> 'from' ->> 'id' end`
      : `case when json_type(body, '$.from') = 'text' then json_extract(body, '$.from') else json_extract(body, '$.from.id') end`;
  const select = `select distinct ${sender} as address_id, account_id, mode from objects where kind <> 'addresses' and body like '%"from":%'`;
  return dialect === 'pg'
    ? `insert into return_addresses (address_id, account_id, mode) select * from (${select}) s where address_id is not null on conflict do nothing`
    : `insert or ignore into return_addresses (address_id, account_id, mode) select * from (${select}) where address_id is not null`;
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('return_addresses');
  await knex.schema.alterTable('run_recipients', (t) => {
    t.dropColumn('skip_code');
  });
  await knex.schema.dropTable('campaign_mailings');
  await knex.raw('drop index objects_one_running_run');
  await knex.schema.alterTable('events', (t) => {
    t.dropIndex(['account_id', 'mode', 'reference_id', 'date_created', 'id'], 'events_by_reference');
  });
}
