import type { Knex } from 'knex';

// Postcards and self mailers without a sender are kept without a `from` key: the vendor's schema types
// `from` as an address object, never null, and clients that check it refused whole lists holding one
// such piece. Pieces stored before kept `"from":null`; it is taken out of their bodies here, so the
// events of their later changes (which carry the stored body) leave it out too. Answers were already
// shaped by the catalog, whatever the stored body.
const KINDS = ['postcards', 'self_mailers'];
const BATCH = 500;

export async function up(knex: Knex): Promise<void> {
  let after = '';
  for (;;) {
    const rows = (await knex('objects')
      .select('id', 'body')
      .whereIn('kind', KINDS)
      .where('id', '>', after)
      .where('body', 'like', '%"from":null%')
      .orderBy('id')
      .limit(BATCH)) as { id: string; body: string }[];
    for (const row of rows) {
      const body = JSON.parse(row.body) as Record<string, unknown>;
      if (!('from' in body) || body.from !== null) continue;
      delete body.from;
      await knex('objects')
        .where({ id: row.id })
        .update({ body: JSON.stringify(body) });
    }
    if (rows.length < BATCH) return;
    after = rows[rows.length - 1].id;
  }
}

/** Nothing to undo: a body without `from` reads as one without a sender, as before. */
export async function down(): Promise<void> {}
