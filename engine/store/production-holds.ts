// Live pieces waiting for the operator's USPS identity (or for serial numbers) before they render
// (migration 016): kept here so an engine that has the identity takes them up again, whichever
// process held them.
import type { Knex } from 'knex';

/** Records that a live piece waits for the USPS identity (or for serials), once. */
export async function holdPiece(knex: Knex, pieceId: string): Promise<void> {
  await knex('production_holds').insert({ piece_id: pieceId, held_at: Date.now() }).onConflict('piece_id').ignore();
}

/** The pieces waiting, oldest first, at most `max`. */
export async function heldPieces(knex: Knex, max: number): Promise<string[]> {
  const rows = await knex<{ piece_id: string; held_at: number }>('production_holds')
    .orderBy('held_at')
    .limit(max)
    .select('piece_id');
  return rows.map((row) => row.piece_id);
}

export async function releaseHold(knex: Knex, pieceId: string): Promise<void> {
  await knex('production_holds').where({ piece_id: pieceId }).delete();
}
