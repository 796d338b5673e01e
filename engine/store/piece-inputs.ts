// What a mailpiece is made from (`piece_inputs`): its resolved artwork and production options, written
// in the piece's own commit (commit.ts) and read by the renderer, which knows the piece only by its id.
// A creative's uploaded files are recorded here too (kind `creatives`), read by each run of its campaign.
import type { Knex } from 'knex';
import type { Scope } from './scope';

/** What an artwork file is, as its bytes say (domain/artwork/sniff.ts). */
export type ArtworkType = 'application/pdf' | 'image/png' | 'image/jpeg' | 'text/html';

/** An artwork file in the asset store, as a piece's inputs name it (its `blobs` row holds the rest). */
export interface FileSource {
  kind: 'file';
  blob_id: string;
  content_type: ArtworkType;
  filename: string;
  size: number;
}

/** Where a side's artwork comes from, resolved at create. */
export type ArtworkSource =
  | { kind: 'html'; html: string }
  | { kind: 'template'; template_id: string; version_id: string }
  /** pieces made before remote files were fetched at create */
  | { kind: 'url'; url: string }
  | FileSource;

/** What a piece is made from, kept as JSON: its artwork by side (a creative's: its uploaded files). */
export interface MadeFrom {
  artwork: Record<string, ArtworkSource>;
  qr_code?: unknown;
}

export interface PieceInputs {
  pieceId: string;
  /** the piece's resource (`letters`) */
  kind: string;
  inputs: MadeFrom;
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
): Promise<{ scope: Scope; kind: string; inputs: MadeFrom } | undefined> {
  const row = await knex<{ piece_id: string; account_id: string; mode: Scope['mode']; kind: string; inputs: string }>(
    'piece_inputs',
  )
    .where({ piece_id: pieceId })
    .first();
  if (!row) return undefined;
  // written by pieceInputsRow from a MadeFrom
  const inputs = JSON.parse(row.inputs) as MadeFrom;
  return { scope: { accountId: row.account_id, mode: row.mode }, kind: row.kind, inputs };
}
