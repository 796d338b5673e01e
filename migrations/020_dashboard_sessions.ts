import type { Knex } from 'knex';

// The dashboard's sessions (issue 37): a row per sign-in, found by the hash of the cookie's random id
// (the cookie itself is never stored), holding the account, the modes its keys unlocked, the mode
// shown, the hashes of the keys that opened it (revoking one ends the session) and the form token
// secret. Sign-out and expiry end the row on the server.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('dashboard_sessions', (t) => {
    t.string('id_hash', 64).primary();
    t.string('account_id').notNullable();
    t.string('mode', 8).notNullable();
    t.string('modes', 16).notNullable();
    t.text('key_hashes').notNullable();
    t.string('csrf_secret', 64).notNullable();
    t.string('created_at').notNullable();
    t.string('expires_at').notNullable();
    t.string('ended_at').nullable();
    t.index(['account_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('dashboard_sessions');
}
