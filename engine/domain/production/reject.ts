// A print room refusing a piece it was handed (a damaged PDF, an address it cannot mail, a wrong
// insert): a reply file in the outbox's `replies/` folder or `printpost reject`. The piece keeps why in
// `rejection` (the engine's extension; absent until then) and `<object>.rejected` is emitted, in one
// transition. Its status stays `rendered` (the vendor's statuses are the render's) and it keeps its
// `production`, so it cannot be cancelled nor sent again; scans of it are refused (tracking.ts): a
// rejected piece is not mailed. Only live pieces in production can be rejected (and test pieces in
// simulated production, by simulate, marked `simulated`), and only once: a
// second rejection, by a retried reply or a repeated command, changes nothing and emits nothing.
import { eventOf, findResource } from '../../catalog';
import type { ApiObject, ObjectStore } from '../../store/objects';
import { nowIso } from '../../base/time';
import { productionOf } from './claim';
import { ScanRefused } from './scan-refused';
import { isPlainObject } from '../../base/records';

export interface Rejection {
  reason: string;
  date_created: string;
  /** only on a test piece rejected by `simulate` (simulate.ts) */
  simulated?: true;
}

export interface Rejected {
  piece: ApiObject;
  rejection: Rejection;
  /** it was rejected before: nothing changed */
  duplicate: boolean;
}

/** A reply record as the print room writes it: `{"piece_id", "action": "reject", "reason"}`. */
export function parseReply(input: unknown): { piece_id: string; reason: string } {
  if (!isPlainObject(input)) throw new ScanRefused('a reply is a JSON object {piece_id, action: "reject", reason}');
  const r = input;
  if (typeof r.piece_id !== 'string' || r.piece_id === '') throw new ScanRefused('piece_id is required');
  if (r.action !== 'reject') throw new ScanRefused('action must be "reject"');
  return { piece_id: r.piece_id, reason: reasonOf(r.reason) };
}

const MAX_REASON = 1_000;

function reasonOf(value: unknown): string {
  if (typeof value !== 'string' || value.trim() === '') throw new ScanRefused('reason is required');
  if (value.length > MAX_REASON) throw new ScanRefused(`reason must be at most ${MAX_REASON} characters`);
  return value.trim();
}

export const rejectionOf = (piece: ApiObject): Rejection | undefined => {
  const r = piece.rejection;
  return isPlainObject(r) && typeof r.reason === 'string' && typeof r.date_created === 'string'
    ? { reason: r.reason, date_created: r.date_created, ...(r.simulated === true ? { simulated: true as const } : {}) }
    : undefined;
};

class AlreadyRejected extends Error {}

/**
 * Records the print room's rejection of `pieceId`; throws ScanRefused when it cannot be rejected.
 * `simulated` is simulate's: a test piece in simulated production, its rejection marked so.
 */
export async function rejectPiece(
  objects: ObjectStore,
  pieceId: string,
  reason: unknown,
  options: { simulated?: boolean } = {},
): Promise<Rejected> {
  const simulated = options.simulated === true;
  const why = reasonOf(reason);
  const where = await objects.locate(pieceId);
  const resource = where && findResource(where.kind);
  if (!where || !resource?.mailpiece) throw new ScanRefused(`no mailpiece ${pieceId}`);
  if ((where.scope.mode === 'test') !== simulated)
    throw new ScanRefused(
      simulated
        ? `${pieceId} is a live piece: only its print room rejects it`
        : `${pieceId} is a test piece: test pieces are never printed (try simulate)`,
    );
  const refusal = (piece: ApiObject) => {
    if (rejectionOf(piece)) return new AlreadyRejected();
    const production = productionOf(piece);
    if (!production) return new ScanRefused(`${pieceId} is not in production`);
    return production.simulated === simulated ? undefined : new ScanRefused(`${pieceId} was not simulated`);
  };
  const rejection: Rejection = { reason: why, date_created: nowIso(), ...(simulated ? { simulated: true } : {}) };
  try {
    const piece = await objects.transition(where.scope, resource.name, pieceId, {
      refuse: refusal,
      change: (current) => ({ ...current, rejection }),
      // snap packs have no webhook events at all
      events: resource.events.length ? [eventOf(resource, 'rejected')] : undefined,
    });
    if (!piece) throw new ScanRefused(`${pieceId} was cancelled`);
    return { piece, rejection, duplicate: false };
  } catch (error) {
    if (!(error instanceof AlreadyRejected)) throw error;
    const piece = await objects.get(where.scope, resource.name, pieceId);
    const kept = piece && rejectionOf(piece);
    if (!piece || !kept) throw error;
    return { piece, rejection: kept, duplicate: true };
  }
}
