// A query PostgreSQL keeps prepared: the `pg` client's named statement, parsed once on each pooled
// connection and planned generically after a few runs, where Knex's unnamed statements are parsed and
// planned anew on every call (half a millisecond for the street lookup, three times its execution).
import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import type { Slot } from './reader';

/** What a `pg` client connection of Knex's pool offers here (Knex types its connections `any`). */
interface PgConnection {
  query<R>(config: { name: string; text: string; values: unknown[] }): Promise<{ rows: R[] }>;
}

const SLOT = '\u0000named-slot:';
const slot: Slot = (index) => `${SLOT}${index}`;

/**
 * A query of fixed shape (`slot(0)`, `slot(1)`… stand for the values of each call), run as a named
 * statement on a connection borrowed from Knex's pool and handed back after. The name carries a hash
 * of the text, so two shapes never share a name (the `pg` client refuses that on one connection).
 */
export function namedStatement<T>(
  knex: Knex,
  label: string,
  build: (s: Slot) => Knex.QueryBuilder,
): (values: unknown[]) => Promise<T[]> {
  const native = build(slot).toSQL().toNative();
  const slots = native.bindings.map((b) =>
    typeof b === 'string' && b.startsWith(SLOT) ? Number(b.slice(SLOT.length)) : -1,
  );
  const name = `printpost_${label}_${createHash('sha1').update(native.sql).digest('hex').slice(0, 12)}`;
  return async (values) => {
    const bound = slots.map((s, i) => (s >= 0 ? values[s] : native.bindings[i]));
    const connection: PgConnection = await knex.client.acquireConnection();
    try {
      return (await connection.query<T>({ name, text: native.sql, values: bound })).rows;
    } finally {
      await knex.client.releaseConnection(connection);
    }
  };
}
