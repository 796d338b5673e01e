// Trying a flow without live keys, the engine's explicit extension (docs/compat-notes.md,
// "Simulation"): `POST /v1/<kind>/{id}/simulate` and `printpost simulate` move a rendered TEST piece
// to production (nothing is printed: `production.simulated`) and through its normal life up to
// `through`, each tracking event marked `simulated: true` and emitting its webhook event, so a
// trigger in n8n or Zapier can be tried end to end. A test piece never simulated keeps the spec's
// behaviour: no production, no tracking events.
import { ApiError, notFound } from '../../errors';
import { NORMAL_LIFE, TRACKING_NAMES, type LifeStep } from '../../catalog/event-types';
import type { Resource } from '../../catalog/types';
import type { ApiObject, ObjectStore, Scope } from '../../store/objects';
import { newId } from '../../util/ids';
import { nowIso } from '../../util/time';
import { claimProduction, productionOf } from './claim';
import { recordScan, ScanRefused, type ScanRecord, type TrackingEvent } from './tracking';

export const isLifeStep = (value: unknown): value is LifeStep =>
  typeof value === 'string' && (NORMAL_LIFE as readonly string[]).includes(value);

const zipOf = (address: unknown): string | null => {
  const zip = (address as { address_zip?: unknown } | null)?.address_zip;
  return typeof zip === 'string' && /^\d{5}/.test(zip) ? zip.slice(0, 5) : null;
};

/** Where a simulated scan happens: leaving the sender's area, then the recipient's. */
function locationOf(piece: ApiObject, step: LifeStep): string | null {
  if (step === 'mailed') return null;
  if (step === 'in_transit') return zipOf(piece.from) ?? zipOf(piece.to);
  return zipOf(piece.to);
}

export async function simulatePiece(
  objects: ObjectStore,
  scope: Scope,
  resource: Resource,
  id: string,
  through: LifeStep = 'delivered',
): Promise<ApiObject> {
  const what = resource.title.toLowerCase();
  if (scope.mode !== 'test')
    throw new ApiError(
      'invalid',
      `simulate is for test pieces: a live ${what} goes to production and is tracked for real`,
      422,
    );
  let piece = await objects.get(scope, resource.name, id);
  if (!piece) throw notFound(what);
  if (piece.status !== 'rendered')
    throw new ApiError(
      'invalid',
      piece.status === 'failed'
        ? `${what} ${id} failed to render and cannot be simulated`
        : `${what} ${id} is still rendering: simulate it once its status is rendered (its rendered_pdf event)`,
      422,
    );
  if (!productionOf(piece)) {
    const production = { id: newId('pjob'), date_created: nowIso(), simulated: true };
    await claimProduction(objects, scope, resource, id, production, () => true);
    piece = await objects.get(scope, resource.name, id);
    // cancelled meanwhile; a simulate racing another is fine either way
    if (!piece || !productionOf(piece)) throw notFound(what);
  }
  // registered letters get no tracking events (spec)
  if (piece.extra_service === 'registered') return piece;
  const had = new Set(((piece.tracking_events ?? []) as TrackingEvent[]).map((e) => e.name));
  const base = Date.now();
  for (const [i, step] of NORMAL_LIFE.slice(0, NORMAL_LIFE.indexOf(through) + 1).entries()) {
    if (had.has(TRACKING_NAMES[step])) continue;
    // a millisecond apart, so the life keeps its order however fast it is written
    const scan: ScanRecord = {
      piece_id: id,
      name: TRACKING_NAMES[step],
      location: locationOf(piece, step),
      time: new Date(base + i).toISOString(),
    };
    try {
      piece = (await recordScan(objects, scan, { simulated: true })).piece;
    } catch (error) {
      if (error instanceof ScanRefused) throw new ApiError('invalid', error.message, 422);
      throw error;
    }
  }
  return piece;
}
