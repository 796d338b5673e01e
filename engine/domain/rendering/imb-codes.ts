// The IMb codes a render prints, decided once per piece and stored on it (`imb`), so the PDF, any
// re-render, the job ticket and the API show one value. A test piece gets a sample's (the sample
// Mailer ID, no serial used up). A live piece is only drawn with the operator's USPS identity: its
// serial comes from the database (engine/store/imb-serials.ts), unique per Mailer ID for 45 days;
// without the identity, or with every serial in use, the piece waits (`production_hold`) and is
// taken up again by an engine that can draw it (wakeHeldPieces).
import type { ApiObject, Scope } from '../../store/objects';
import type { Resource } from '../../catalog/types';
import { SerialsExhausted } from '../../store/imb-serials';
import { imbTracking, routingOf, sampleTracking, serialDigitsOf } from '../../print/overlay/imb';
import { type ImbCodes, overlayPiece } from '../../print/overlay/types';
import { missingSentence, type UspsIdentity } from '../../catalog/usps-identity';
import { RENDER_PIECE, RENDER_PIECE_OPTIONS, type RenderPieceData } from '../../platform/jobs/names';
import { nowIso } from '../../base/time';
import type { RenderContext } from './context';
import { isPlainObject } from '../../base/records';
import { certifiedNumber } from '../pieces/tracking-numbers';

class Unchanged extends Error {}

/** `trackingNumber`: a live certified letter created before the Mailer ID was set gets its number now */
export type PieceCodes = { imb: ImbCodes; usps?: UspsIdentity; trackingNumber?: string } | { hold: string };

/** A live certified letter that has no number yet (created while no Mailer ID was configured). */
const needsCertifiedNumber = (piece: ApiObject): piece is ApiObject & { extra_service: string } =>
  typeof piece.extra_service === 'string' &&
  piece.extra_service.startsWith('certified') &&
  (piece.tracking_number === null || piece.tracking_number === undefined);

/** A check always goes First-Class (it has no mail_type to choose). */
const mailTypeOf = (resource: Resource, piece: ApiObject): string | null =>
  resource.name === 'checks' ? 'usps_first_class' : typeof piece.mail_type === 'string' ? piece.mail_type : null;

/** The Mailer ID in a 20-digit tracking code, given the configured one's length. */
export const mailerIdIn = (tracking: string, mailerId: string): string => tracking.slice(5, 5 + mailerId.length);

/** The codes of a piece about to be drawn, or why it must wait. */
export async function codesForRender(
  tools: RenderContext,
  scope: Scope,
  resource: Resource,
  piece: ApiObject,
): Promise<PieceCodes> {
  const mailType = mailTypeOf(resource, piece);
  const routing = routingOf(overlayPiece(piece).to);
  if (scope.mode !== 'live')
    return { imb: { tracking_code: sampleTracking(piece.id, mailType), routing_code: routing } };
  if (!tools.usps.ready) return { hold: missingSentence(tools.usps.missing) };
  const { identity } = tools.usps;
  try {
    const serial = await tools.store.imbSerials.allocateSerial({
      mailerId: identity.mailerId,
      pieceId: piece.id,
      digits: serialDigitsOf(identity.mailerId),
    });
    const imb = { tracking_code: imbTracking(serial, mailType, identity), routing_code: routing };
    if (!needsCertifiedNumber(piece)) return { imb, usps: identity };
    const trackingNumber = await certifiedNumber(tools.store, piece.extra_service, identity.mailerId);
    return { imb, usps: identity, trackingNumber };
  } catch (error) {
    if (error instanceof SerialsExhausted) return { hold: error.message };
    throw error;
  }
}

/**
 * The live piece waits, still `processed`: listed for wakeHeldPieces (first, so a crash never leaves
 * a waiting piece nobody looks for), then the reason recorded on it.
 */
export async function holdForRender(
  tools: RenderContext,
  scope: Scope,
  resource: Resource,
  pieceId: string,
  reason: string,
): Promise<void> {
  await tools.store.productionHolds.holdPiece(pieceId);
  await tools.objects
    .transition(scope, resource.name, pieceId, {
      refuse: (piece) =>
        piece.status !== 'processed' ||
        (isPlainObject(piece.production_hold) && piece.production_hold.reason === reason)
          ? new Unchanged()
          : undefined,
      change: (piece) => ({ ...piece, production_hold: { reason, date_created: nowIso() } }),
    })
    .catch((error: unknown) => {
      if (!(error instanceof Unchanged)) throw error;
    });
}

/** The piece no longer waits (rendered, failed, cancelled, gone). */
export const releaseRenderHold = (tools: RenderContext, pieceId: string): Promise<void> =>
  tools.store.productionHolds.releaseHold(pieceId);

/** Pieces taken up per pass. */
const WAKE_BATCH = 1000;

/**
 * Queues a render of every waiting piece (once each: a render already queued or running is not
 * doubled). A piece that still cannot be drawn waits again; one drawn leaves the list.
 */
export async function wakeHeldPieces(tools: RenderContext): Promise<number> {
  const held = await tools.store.productionHolds.heldPieces(WAKE_BATCH);
  for (const piece of held) {
    await tools.jobs.send(RENDER_PIECE, { piece } satisfies RenderPieceData, {
      ...RENDER_PIECE_OPTIONS,
      singletonKey: `held:${piece}`,
    });
  }
  return held.length;
}
