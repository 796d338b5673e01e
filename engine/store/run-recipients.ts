// A campaign run's recipients (`run_recipients`, migrations/010 and 012): one row per recipient (an
// address, or a row of an uploaded file) and creative, with the piece made for it or why none was. A
// made piece's row commits with the piece (commit.ts), so the unique (run, address, row, creative)
// refuses a second piece for the same recipient.
import type { Knex } from 'knex';
import type { Scope } from './scope';

export interface RunRecipient {
  runId: string;
  /** the address; for a row of an upload, the upload */
  addressId: string;
  /** the row of the upload's file (its number there, the header being row 1); absent for an address */
  rowNumber?: number;
  creativeId: string;
  /** the piece made for the recipient; absent when it was skipped */
  pieceId?: string;
  skipReason?: string;
  skipCode?: SkipCode;
}

/**
 * Why a recipient got no piece: the same person as an earlier recipient of the run, a person the
 * campaign mailed already, or a recipient the piece's own rules refused (its reason says which).
 */
export type SkipCode = 'duplicate' | 'already_mailed' | 'refused';

export interface SkippedRecipient {
  /** null for a row of an upload */
  address_id: string | null;
  creative_id: string;
  reason: string;
  code: SkipCode;
  /** a row of an upload: the upload and the row's number */
  upload_id?: string;
  row_number?: number;
}

/** A recipient's key among those a run recorded (recordedRecipients). */
export const recipientKey = (r: Pick<RunRecipient, 'addressId' | 'rowNumber' | 'creativeId'>) =>
  `${r.addressId}:${r.rowNumber ?? 0}:${r.creativeId}`;

export interface RunTally {
  pieces: number;
  skippedCount: number;
  /** the first skipped recipients, in the order they were recorded */
  skipped: SkippedRecipient[];
}

export function runRecipientRow(
  scope: Scope,
  r: RunRecipient,
  now = new Date().toISOString(),
): Record<string, unknown> {
  return {
    run_id: r.runId,
    address_id: r.addressId,
    row_number: r.rowNumber ?? 0,
    creative_id: r.creativeId,
    account_id: scope.accountId,
    mode: scope.mode,
    piece_id: r.pieceId ?? null,
    skip_reason: r.skipReason?.slice(0, 500) ?? null,
    skip_code: r.pieceId ? null : (r.skipCode ?? 'refused'),
    date_created: now,
  };
}

/** A `run_recipients` row as read (PostgreSQL may answer its integers as text). */
interface RecipientRow {
  seq: number;
  run_id: string;
  address_id: string;
  row_number: number | string;
  creative_id: string;
  piece_id: string | null;
  skip_reason: string | null;
  skip_code: SkipCode | null;
}

/** The keys (recipientKey) of the recipients the run has already recorded, made or skipped. */
export async function recordedRecipients(knex: Knex, runId: string): Promise<Set<string>> {
  const rows = await knex<RecipientRow>('run_recipients')
    .select('address_id', 'row_number', 'creative_id')
    .where({ run_id: runId });
  return new Set(
    rows.map((r) =>
      recipientKey({ addressId: r.address_id, rowNumber: Number(r.row_number), creativeId: r.creative_id }),
    ),
  );
}

/** Whether the recipient is recorded (after a commit of its piece failed: did another process win?). */
export async function isRecorded(
  knex: Knex,
  r: Pick<RunRecipient, 'runId' | 'addressId' | 'rowNumber' | 'creativeId'>,
) {
  const row: unknown = await knex('run_recipients')
    .first('seq')
    .where({
      run_id: r.runId,
      address_id: r.addressId,
      row_number: r.rowNumber ?? 0,
      creative_id: r.creativeId,
    });
  return row !== undefined;
}

/** What a run recorded for a row of an upload: its piece, or why none was made. */
export interface RowOutcome {
  pieceId: string | null;
  skipReason: string | null;
}

/** The outcomes the run recorded for these rows of the upload (the first creative's, when it has several). */
export async function rowOutcomes(
  knex: Knex,
  runId: string,
  uploadId: string,
  rows: readonly number[],
): Promise<Map<number, RowOutcome>> {
  const found = new Map<number, RowOutcome>();
  if (rows.length === 0) return found;
  const recorded = await knex<RecipientRow>('run_recipients')
    .select('row_number', 'piece_id', 'skip_reason')
    .where({ run_id: runId, address_id: uploadId })
    .whereIn('row_number', rows)
    .orderBy('seq');
  for (const r of recorded) {
    const row = Number(r.row_number);
    if (!found.has(row)) found.set(row, { pieceId: r.piece_id, skipReason: r.skip_reason });
  }
  return found;
}

/** Records a skipped recipient; one already recorded (by another attempt) stays as it was. */
export async function recordSkipped(knex: Knex, scope: Scope, r: RunRecipient): Promise<void> {
  await knex('run_recipients').insert(runRecipientRow(scope, r)).onConflict().ignore();
}

/** What the run has done so far. */
export async function tallyRun(knex: Knex, runId: string, keep = 100): Promise<RunTally> {
  const counts = (await knex('run_recipients')
    .where({ run_id: runId })
    .select(knex.raw('count(piece_id) as pieces'), knex.raw('count(*) - count(piece_id) as skipped'))
    .first()) as { pieces: number | string; skipped: number | string };
  const skipped = await knex<RecipientRow>('run_recipients')
    .select('address_id', 'row_number', 'creative_id', 'skip_reason', 'skip_code')
    .where({ run_id: runId })
    .whereNull('piece_id')
    .orderBy('seq')
    .limit(keep);
  return {
    pieces: Number(counts.pieces),
    skippedCount: Number(counts.skipped),
    skipped: skipped.map((s) => {
      const reason = s.skip_reason ?? '';
      const code = s.skip_code ?? 'refused';
      const row = Number(s.row_number);
      return row > 0
        ? { address_id: null, upload_id: s.address_id, row_number: row, creative_id: s.creative_id, reason, code }
        : { address_id: s.address_id, creative_id: s.creative_id, reason, code };
    }),
  };
}
