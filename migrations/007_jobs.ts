import type { Knex } from 'knex';

// The durable job queue on SQLite (engine/platform/jobs/sqlite.ts); PostgreSQL deployments use pg-boss's own
// schema instead, so there the table stays empty. `run_at` (epoch milliseconds) means, by state:
// queued -> not before; active -> the lease's end; completed or failed -> when it ended. One column
// serves the claim, lease recovery and clean-up through one index.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('jobs', (t) => {
    t.string('id', 36).primary();
    t.string('name', 100).notNullable();
    t.text('data').notNullable();
    t.string('state', 10).notNullable();
    /** attempts started so far */
    t.integer('attempt').notNullable().defaultTo(0);
    t.integer('retry_limit').notNullable();
    t.integer('retry_delay_ms').notNullable();
    t.bigInteger('run_at').notNullable();
    t.string('singleton_key', 200).nullable();
    t.text('last_error').nullable();
    t.bigInteger('created_at').notNullable();
    t.index(['name', 'state', 'run_at'], 'jobs_claim');
  });
  // At most one queued-or-active job per name and singleton key.
  await knex.raw(
    `create unique index jobs_singleton on jobs (name, singleton_key)
     where singleton_key is not null and state in ('queued', 'active')`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('jobs');
}
