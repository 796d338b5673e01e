import type { Knex } from 'knex';

// Jobs of the SQLite queue get a priority (higher first, default 0), as pg-boss's have: a campaign's
// render jobs go behind another account's single piece (engine/platform/jobs, JobOptions.priority). The claim
// walks the new index in (priority, run_at) order.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('jobs', (t) => {
    t.integer('priority').notNullable().defaultTo(0);
  });
  await knex.schema.alterTable('jobs', (t) => {
    t.index(['name', 'state', 'priority', 'run_at'], 'jobs_claim_by_priority');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('jobs', (t) => {
    t.dropIndex(['name', 'state', 'priority', 'run_at'], 'jobs_claim_by_priority');
  });
  await knex.schema.alterTable('jobs', (t) => {
    t.dropColumn('priority');
  });
}
