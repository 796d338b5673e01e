import type { Knex } from 'knex';

// Objects that live under another (a template's versions) name it: lists and lookups under a parent
// read this indexed column, and deleting the parent reaches its children in one statement.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('objects', (t) => {
    t.string('parent_id', 64).nullable();
  });
  await knex.schema.alterTable('objects', (t) => {
    t.index(['account_id', 'mode', 'kind', 'parent_id', 'deleted', 'date_created', 'id'], 'objects_by_parent', {
      predicate: knex.whereNotNull('parent_id'),
    });
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('objects', (t) => t.dropIndex([], 'objects_by_parent'));
  await knex.schema.alterTable('objects', (t) => t.dropColumn('parent_id'));
}
