// What a mailpiece is made from (`piece_inputs`): its resolved artwork and production options, written
// in the piece's own commit (commit.ts) and read by the renderer, which knows the piece only by its id.
// A creative's uploaded files are recorded here too (kind `creatives`), read by each run of its campaign.
import type { Knex } from 'knex';
import type { Scope } from './scope';

export interface PieceInputs {
  pieceId: string;
  /** the piece's resource (`letters`) */
  kind: string;
  /** kept as JSON; its shape is the renderer's */
  inputs: object;
}

export function pieceInputsRow(scope: Scope, given: PieceInputs): Record<string, unknown> {
  return {
    piece_id: given.pieceId,
    account_id: scope.accountId,
    mode: scope.mode,
    kind: given.kind,
    inputs: JSON.stringify(given.inputs),
  };
}

/** The inputs of a piece and the scope it lives in, or undefined when none were recorded. */
export async function readPieceInputs(
  knex: Knex,
  pieceId: string,
): Promise<{ scope: Scope; kind: string; inputs: unknown } | undefined> {
  const row = (await knex('piece_inputs').where({ piece_id: pieceId }).first()) as
    { account_id: string; mode: Scope['mode']; kind: string; inputs: string } | undefined;
  return (
    row && { scope: { accountId: row.account_id, mode: row.mode }, kind: row.kind, inputs: JSON.parse(row.inputs) }
  );
}
