// Cancelling a piece: allowed until its send_date when scheduled, else within the account's
// cancellation window; afterwards 422 not_deletable. A compare-and-set transition, so a cancel racing
// the renderer or a second cancel is applied once.
import { ApiError, notFound } from '../../errors';
import type { Resource } from '../../catalog/types';
import type { Settings } from '../../accounts/settings';
import type { ApiObject, ObjectStore, Scope } from '../../store/objects';
import { cancelDeadline } from './schedule';

export async function cancelPiece(
  objects: ObjectStore,
  scope: Scope,
  settings: Settings,
  resource: Resource,
  id: string,
): Promise<{ id: string; deleted: true }> {
  const refuse = (piece: ApiObject) =>
    Date.now() >= cancelDeadline(piece, settings.cancellation_window_minutes)
      ? new ApiError(
          'not_deletable',
          `${resource.title.toLowerCase()} ${id} can no longer be cancelled: its send date or cancellation window has passed`,
          422,
        )
      : undefined;
  if (!(await objects.delete(scope, resource, id, undefined, refuse))) throw notFound(resource.title.toLowerCase());
  return { id, deleted: true };
}
