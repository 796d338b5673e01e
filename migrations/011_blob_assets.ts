import type { Knex } from 'knex';

// Uploaded and fetched files move out of the database into the asset store (`uploads/<piece id>_<field>`),
// copied there as a stream: a `blobs` row keeps what is known of the file (type, size, sha256) and
// its `asset_key`. Rows written before keep their bytes (and no key), so their pieces still render.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('blobs', (t) => {
    t.binary('bytes').nullable().alter();
    t.string('asset_key', 255);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('blobs', (t) => {
    t.dropColumn('asset_key');
  });
}
