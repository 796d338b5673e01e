// A piece goes to production by one compare-and-set transition that records `production` on it: of
// any number of attempts (two processes, a retried job, a simulate racing a cancel) exactly one
// succeeds, and a cancel decided afterwards sees it and refuses.
import type { Resource } from '../../catalog/types';
import type { ApiObject, ObjectStore, Scope } from '../../store/objects';
import { isPlainObject } from '../../base/records';

/** The piece's `production` (catalog/mailpieces/fields.ts). */
export interface Production {
  id: string;
  date_created: string;
  simulated: boolean;
}

export function productionOf(piece: ApiObject): Production | undefined {
  const p = piece.production;
  return isPlainObject(p) && typeof p.id === 'string' && typeof p.date_created === 'string'
    ? { id: p.id, date_created: p.date_created, simulated: p.simulated === true }
    : undefined;
}

class NotClaimable extends Error {}

/**
 * Records `production` on the piece if, as it is now, it is rendered, not yet in production, and
 * `ready` holds; true when this call did it, false otherwise (or when the piece is gone).
 */
export async function claimProduction(
  objects: ObjectStore,
  scope: Scope,
  resource: Resource,
  id: string,
  production: Production,
  ready: (piece: ApiObject) => boolean,
): Promise<boolean> {
  try {
    const next = await objects.transition(scope, resource.name, id, {
      refuse: (piece) =>
        piece.status !== 'rendered' || productionOf(piece) || !ready(piece)
          ? new NotClaimable(`${id} is not ready for production`)
          : undefined,
      change: (piece) => ({ ...piece, production }),
    });
    return next !== undefined;
  } catch (error) {
    if (error instanceof NotClaimable) return false;
    throw error;
  }
}
