import type { Knex } from 'knex';

// Street data an operator loads (issue 46): TIGER/Line address ranges and address points, each row
// tagged with the load that brought it. A load is `loading` while its rows arrive in batches, then
// one short transaction makes it `active` and the load it replaces `replaced`; readers join the active
// loads only, so they never see half a load, and the replaced rows are deleted afterwards.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('street_loads', (t) => {
    t.string('id', 40).primary();
    // tiger_addrfeat | openaddresses | nad
    t.string('kind', 24).notNullable();
    // the county FIPS of a TIGER file, the source name of a points file: what a new load replaces
    t.string('source', 200).notNullable();
    t.text('file').notNullable();
    t.string('state', 12).notNullable();
    t.integer('rows').notNullable().defaultTo(0);
    t.integer('skipped').notNullable().defaultTo(0);
    // JSON: reason -> count
    t.text('skipped_reasons').notNullable().defaultTo('{}');
    t.string('started_at').notNullable();
    t.string('loaded_at').nullable();
    t.float('seconds').nullable();
    t.index(['kind', 'source', 'state']);
    t.index(['state']);
  });
  // One row per ZIP a TIGER feature's ranges belong to: both sides when ZIPL = ZIPR, else one row a side.
  await knex.schema.createTable('street_segments', (t) => {
    t.string('load_id', 40).notNullable();
    t.string('zip', 5).notNullable();
    // Pub 28 parts joined by '|': predirectional, name, suffix, postdirectional
    t.string('street_key', 160).notNullable();
    t.integer('l_from').nullable();
    t.integer('l_to').nullable();
    // O odd, E even, B both
    t.string('l_parity', 1).nullable();
    t.integer('r_from').nullable();
    t.integer('r_to').nullable();
    t.string('r_parity', 1).nullable();
    // "lon,lat lon,lat ..." at 6 decimals (about 10 cm), in the line's direction (from the ranges' from end)
    t.text('coords').notNullable();
    t.string('county_fips', 5).notNullable();
    t.index(['zip', 'street_key']);
    t.index(['load_id']);
  });
  await knex.schema.createTable('street_points', (t) => {
    t.string('load_id', 40).notNullable();
    t.string('zip', 5).notNullable();
    t.string('street_key', 160).notNullable();
    t.string('number', 24).notNullable();
    // designator and number as Pub 28 writes them ("APT 4"), '' for the building itself
    t.string('unit', 40).notNullable();
    t.double('lon').notNullable();
    t.double('lat').notNullable();
    t.index(['zip', 'street_key', 'number']);
    t.index(['load_id']);
  });
  // Distinct street keys of a load in each ZIP: whether a ZIP has data, and the names a typo is checked against.
  await knex.schema.createTable('street_names', (t) => {
    t.string('load_id', 40).notNullable();
    t.string('zip', 5).notNullable();
    t.string('street_key', 160).notNullable();
    t.index(['zip', 'street_key']);
    t.index(['load_id']);
  });
  // The ZIPs each load covers: an engine keeps the active ones in memory, so a ZIP without data costs
  // no query at all.
  await knex.schema.createTable('street_zips', (t) => {
    t.string('load_id', 40).notNullable();
    t.string('zip', 5).notNullable();
    t.index(['load_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('street_zips');
  await knex.schema.dropTable('street_names');
  await knex.schema.dropTable('street_points');
  await knex.schema.dropTable('street_segments');
  await knex.schema.dropTable('street_loads');
}
