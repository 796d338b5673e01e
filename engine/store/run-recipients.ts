// A campaign run's recipients (`run_recipients`, migrations/010_campaigns.ts): one row per address and
// creative, with the piece made for it or why none was. A made piece's row commits with the piece
// (commit.ts), so the unique (run, address, creative) refuses a second piece for the same recipient.
import type { Knex } from 'knex';
import type { Scope } from './scope';

export interface RunRecipient {
  runId: string;
  addressId: string;
  creativeId: string;
  /** the piece made for the recipient; absent when it was skipped */
  pieceId?: string;
  skipReason?: string;
}

export interface SkippedRecipient {
  address_id: string;
  creative_id: string;
  reason: string;
}

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
    creative_id: r.creativeId,
    account_id: scope.accountId,
    mode: scope.mode,
    piece_id: r.pieceId ?? null,
    skip_reason: r.skipReason?.slice(0, 500) ?? null,
    date_created: now,
  };
}

/** The `address:creative` keys the run has already recorded, made or skipped. */
export async function recordedRecipients(knex: Knex, runId: string): Promise<Set<string>> {
  const rows = (await knex('run_recipients').select('address_id', 'creative_id').where({ run_id: runId })) as {
    address_id: string;
    creative_id: string;
  }[];
  return new Set(rows.map((r) => `${r.address_id}:${r.creative_id}`));
}

/** Whether the recipient is recorded (after a commit of its piece failed: did another process win?). */
export async function isRecorded(knex: Knex, r: Pick<RunRecipient, 'runId' | 'addressId' | 'creativeId'>) {
  const row: unknown = await knex('run_recipients')
    .first('seq')
    .where({ run_id: r.runId, address_id: r.addressId, creative_id: r.creativeId });
  return row !== undefined;
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
  const skipped = (await knex('run_recipients')
    .select('address_id', 'creative_id', 'skip_reason')
    .where({ run_id: runId })
    .whereNull('piece_id')
    .orderBy('seq')
    .limit(keep)) as { address_id: string; creative_id: string; skip_reason: string | null }[];
  return {
    pieces: Number(counts.pieces),
    skippedCount: Number(counts.skipped),
    skipped: skipped.map((s) => ({
      address_id: s.address_id,
      creative_id: s.creative_id,
      reason: s.skip_reason ?? '',
    })),
  };
}
