// The end of a render, as one compare-and-set transition of the piece: `processed` becomes `rendered`
// (file keys recorded, `*.rendered_pdf` then `*.rendered_thumbnails` in the outbox) or `failed`
// (`failure_reason`, `*.failed`). A piece cancelled meanwhile, or already finished by an earlier
// attempt of the same job, is left as it is: the transition refuses, so each piece ends once.
import { eventOf } from '../../catalog';
import type { Resource } from '../../catalog/types';
import { eventRow, insertEvents } from '../../store/events';
import type { ApiObject, ObjectStore, Scope } from '../../store/objects';

export interface FailureReason {
  failure_reason: string;
  remediation: string;
  errors: null;
}

export class AlreadySettled extends Error {}

const stillProcessing = (piece: ApiObject) =>
  piece.status === 'processed' ? undefined : new AlreadySettled(`${piece.id} is ${String(piece.status)}`);

/** Settles the piece; false when it was not `processed` any more (or is gone). */
async function settle(
  objects: ObjectStore,
  scope: Scope,
  resource: Resource,
  id: string,
  change: (piece: ApiObject) => ApiObject,
  events: string[],
): Promise<boolean> {
  const types = events.map((action) => eventOf(resource, action));
  try {
    const next = await objects.transition(scope, resource.name, id, {
      refuse: stillProcessing,
      change,
      // Events of one change are a millisecond apart, so their order survives a sort by date.
      alsoWrite: (trx, piece) => {
        const start = Date.now();
        const rows = types.map((e, i) =>
          eventRow(scope, e.type, e.resource, piece, undefined, new Date(start + i).toISOString()),
        );
        return insertEvents(trx, rows);
      },
    });
    return next !== undefined;
  } catch (error) {
    if (error instanceof AlreadySettled) return false;
    throw error;
  }
}

export function markRendered(
  objects: ObjectStore,
  scope: Scope,
  resource: Resource,
  id: string,
  files: { url: string; thumbnails: Record<string, string>[] },
): Promise<boolean> {
  const events = resource.events.length ? ['rendered_pdf', 'rendered_thumbnails'] : [];
  return settle(
    objects,
    scope,
    resource,
    id,
    (piece) => ({ ...piece, status: 'rendered', url: files.url, thumbnails: files.thumbnails, failure_reason: null }),
    events,
  );
}

export function markFailed(
  objects: ObjectStore,
  scope: Scope,
  resource: Resource,
  id: string,
  reason: FailureReason,
): Promise<boolean> {
  return settle(
    objects,
    scope,
    resource,
    id,
    (piece) => ({ ...piece, status: 'failed', failure_reason: reason }),
    resource.events.length ? ['failed'] : [],
  );
}
