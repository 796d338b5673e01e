// Trying a flow without live keys, the engine's explicit extension (docs/compat-notes.md,
// "Simulation"): `POST /v1/<kind>/{id}/simulate` and `printpost simulate` move a rendered TEST piece
// to production (nothing is printed: `production.simulated`), through its normal life up to `through`
// and then, if asked, one `event` more: an exception, a certified letter's own, a return envelope's
// scan or the print room's rejection (simulate-plan.ts decides what may follow what). Each tracking
// event is marked `simulated: true` and emits its webhook event, so a trigger in n8n or Zapier can be
// tried end to end. A test piece never simulated keeps the spec's behaviour: no production, no
// tracking events.
import { ApiError, notFound } from '../../base/errors';
import { NORMAL_LIFE, TRACKING_NAMES, type LifeStep } from '../../catalog/event-types';
import type { Resource } from '../../catalog/types';
import type { ApiObject, ObjectStore, Scope } from '../../store/objects';
import { newId } from '../../base/ids';
import { nowIso } from '../../base/time';
import { claimProduction, productionOf } from './claim';
import { planSimulation, type PlannedScan, type SimulateRequest } from './simulate-plan';
import { rejectPiece } from './reject';
import { recordScan, ScanRefused, type ScanRecord } from './tracking';

export type { SimulateRequest } from './simulate-plan';

export const isLifeStep = (value: unknown): value is LifeStep =>
  typeof value === 'string' && NORMAL_LIFE.some((known) => known === value);

const zipOf = (address: unknown): string | null => {
  const zip = (address as { address_zip?: unknown } | null)?.address_zip;
  return typeof zip === 'string' && /^\d{5}/.test(zip) ? zip.slice(0, 5) : null;
};

/**
 * Where a simulated scan happens: leaving the sender's area, then the recipient's; a return envelope
 * leaves the recipient's area for the sender's. An exit from the US and Mailed have no ZIP.
 */
function locationOf(piece: ApiObject, scan: PlannedScan): string | null {
  if (scan.action === 'mailed' || scan.action === 'international_exit') return null;
  const [near, far] = scan.envelope ? [piece.from, piece.to] : [piece.to, piece.from];
  if (scan.action === 'in_transit') return zipOf(far) ?? zipOf(near);
  return zipOf(near);
}

export async function simulatePiece(
  objects: ObjectStore,
  scope: Scope,
  resource: Resource,
  id: string,
  request: SimulateRequest = {},
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
  // an impossible story is refused before the piece moves to production
  const plan = planSimulation(resource, piece, request);
  if (!productionOf(piece)) {
    const production = { id: newId('pjob'), date_created: nowIso(), simulated: true };
    await claimProduction(objects, scope, resource, id, production, () => true);
    piece = await objects.get(scope, resource.name, id);
    // cancelled meanwhile; a simulate racing another is fine either way
    if (!piece || !productionOf(piece)) throw notFound(what);
  }
  try {
    if ('reject' in plan) return (await rejectPiece(objects, id, plan.reject, { simulated: true })).piece;
    const base = Date.now();
    for (const [i, scan] of plan.scans.entries()) {
      // a millisecond apart, so the story keeps its order however fast it is written
      const record: ScanRecord = {
        piece_id: id,
        name: TRACKING_NAMES[scan.action] ?? scan.action,
        location: locationOf(piece, scan),
        time: new Date(base + i).toISOString(),
        details: scan.details,
        return_envelope: scan.envelope,
      };
      piece = (await recordScan(objects, record, { simulated: true })).piece;
    }
  } catch (error) {
    if (error instanceof ScanRefused) throw new ApiError('invalid', error.message, 422);
    throw error;
  }
  return piece;
}
