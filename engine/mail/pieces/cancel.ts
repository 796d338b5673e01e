// Cancelling a piece: allowed until its send_date when scheduled, else within the account's
// cancellation window; afterwards 422 not_deletable. A compare-and-set transition, so a cancel racing
// the renderer or a second cancel is applied once.
import { ApiError, notFound } from '../../errors';
import type { Resource } from '../../catalog/types';
import type { Settings } from '../../accounts/settings';
import type { ObjectStore, Scope } from '../../store/objects';
import { cancelDeadline } from './schedule';

export async function cancelPiece(
  objects: ObjectStore,
  scope: Scope,
  settings: Settings,
  resource: Resource,
  id: string,
): Promise<{ id: string; deleted: true }> {
  const type = `${resource.object}.deleted`;
  const cancelled = await objects.transition(scope, resource.name, id, {
    refuse: (piece) =>
      Date.now() >= cancelDeadline(piece, settings.cancellation_window_minutes)
        ? new ApiError(
            'not_deletable',
            `${resource.title.toLowerCase()} ${id} can no longer be cancelled: its send date or cancellation window has passed`,
            422,
          )
        : undefined,
    change: (piece) => ({ ...piece, deleted: true }),
    event: resource.events.includes(type) ? { type, resource: resource.name } : undefined,
  });
  if (!cancelled) throw notFound(resource.title.toLowerCase());
  return { id, deleted: true };
}
