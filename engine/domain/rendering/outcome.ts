// The ends of a render, each one compare-and-set transition of the piece. `processed` becomes
// `rendered` once its PDF is stored (`url`, `*.rendered_pdf`, and the thumbnails job, in one commit)
// or `failed` (`failure_reason`, `*.failed`); later a rendered piece gets its `thumbnails`
// (`*.rendered_thumbnails`). A piece cancelled meanwhile, or already moved on by an earlier attempt
// of the same job, is left as it is: the transition refuses, so each step happens once.
import { eventOf } from '../../catalog';
import type { Resource } from '../../catalog/types';
import type { JobWrite } from '../../store/commit';
import type { ApiObject, ObjectStore, Scope } from '../../store/objects';

import type { FailureReason } from '../../print/failure';
import type { ImbCodes } from '../../print/overlay/types';

class AlreadySettled extends Error {}

interface Step {
  /** whether the piece, as it is now, is where this step starts */
  from(piece: ApiObject): boolean;
  change(piece: ApiObject): ApiObject;
  /** event actions of the resource (`rendered_pdf`), written only where the resource declares events */
  events: string[];
  /** jobs committed with the change (the next one) */
  jobs?: JobWrite[];
}

/** Applies `step`; false when the piece was not where the step starts (or is gone). */
async function settle(
  objects: ObjectStore,
  scope: Scope,
  resource: Resource,
  id: string,
  step: Step,
): Promise<boolean> {
  const types = resource.events.length ? step.events.map((action) => eventOf(resource, action)) : [];
  try {
    const next = await objects.transition(scope, resource.name, id, {
      refuse: (piece) => (step.from(piece) ? undefined : new AlreadySettled(`${piece.id} is ${String(piece.status)}`)),
      change: step.change,
      events: types,
      jobs: step.jobs,
    });
    return next !== undefined;
  } catch (error) {
    if (error instanceof AlreadySettled) return false;
    throw error;
  }
}

const processing = (piece: ApiObject) => piece.status === 'processed';

/**
 * `processed` -> `rendered` with the PDF's key; `thumbnailsJob` commits with it, and for a live piece
 * `productionJob`, which sends it to production once it can no longer be cancelled.
 */
export function markRendered(
  objects: ObjectStore,
  scope: Scope,
  resource: Resource,
  id: string,
  files: { url: string; imb: ImbCodes; tracking_number?: string; thumbnailsJob?: JobWrite; productionJob?: JobWrite },
): Promise<boolean> {
  return settle(objects, scope, resource, id, {
    from: processing,
    change: ({ production_hold: _waited, ...piece }) => ({
      ...piece,
      status: 'rendered',
      url: files.url,
      imb: files.imb,
      // a live certified letter numbered as it was drawn: the number its cover sheet prints
      ...(files.tracking_number ? { tracking_number: files.tracking_number } : {}),
      failure_reason: null,
    }),
    events: ['rendered_pdf'],
    jobs: [files.thumbnailsJob, files.productionJob].filter((job): job is JobWrite => job !== undefined),
  });
}

/** A rendered piece without thumbnails gets their keys (one { small, medium, large } per page). */
export function markThumbnails(
  objects: ObjectStore,
  scope: Scope,
  resource: Resource,
  id: string,
  thumbnails: Record<string, string>[],
): Promise<boolean> {
  return settle(objects, scope, resource, id, {
    from: (piece) => piece.status === 'rendered' && !(Array.isArray(piece.thumbnails) && piece.thumbnails.length > 0),
    change: (piece) => ({ ...piece, thumbnails }),
    events: ['rendered_thumbnails'],
  });
}

/**
 * A rendered piece not yet in production whose PDF cannot be mailed as it is (drawn without the
 * operator's USPS identity, or under another Mailer ID) goes back to `processed` with a render job:
 * it is drawn again, with new codes, and comes to production through `rendered` again.
 */
export function markForRerender(
  objects: ObjectStore,
  scope: Scope,
  resource: Resource,
  id: string,
  renderJob: JobWrite,
): Promise<boolean> {
  return settle(objects, scope, resource, id, {
    from: (piece) => piece.status === 'rendered' && !piece.production,
    change: ({ imb: _stale, ...piece }) => ({ ...piece, status: 'processed', thumbnails: [] }),
    events: [],
    jobs: [renderJob],
  });
}

export function markFailed(
  objects: ObjectStore,
  scope: Scope,
  resource: Resource,
  id: string,
  reason: FailureReason,
): Promise<boolean> {
  return settle(objects, scope, resource, id, {
    from: processing,
    change: (piece) => ({ ...piece, status: 'failed', failure_reason: reason }),
    events: ['failed'],
  });
}
