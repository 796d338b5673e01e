// Secrets the engine generates once and every process sharing the database then uses (`engine_secrets`).
import type { Knex } from 'knex';

/** The secret stored under `name`; `candidate` becomes it when there is none yet (the first process wins). */
export async function keepFirstSecret(knex: Knex, name: string, candidate: string): Promise<string> {
  await knex('engine_secrets').insert({ name, value: candidate }).onConflict('name').ignore();
  const row = await knex<{ name: string; value: string }>('engine_secrets').where({ name }).first();
  if (!row) throw new Error(`engine secret ${name} was not kept`);
  return row.value;
}
