// Cancelling a piece: allowed until its send_date when scheduled, else within the account's
// cancellation window, and never once it is in production; afterwards 422 not_deletable. A
// compare-and-set transition, so a cancel racing the renderer, the production job or a second cancel
// is applied once. Its files go after the commit (piece-files.ts).
import { ApiError, notFound } from '../../base/errors';
import type { Resource } from '../../catalog/types';
import type { Settings } from '../accounts/settings';
import type { ApiObject, ObjectStore, Scope } from '../../store/objects';
import type { AssetStore } from '../../platform/assets/store';
import { cancelDeadline } from './schedule';
import { pieceFileKeys } from './piece-files';

/**
 * Cancels the piece within its window; with no `settings` (its campaign deleted), at any time until
 * it goes to production.
 */
export async function cancelPiece(
  objects: ObjectStore,
  assets: AssetStore,
  scope: Scope,
  settings: Settings | undefined,
  resource: Resource,
  id: string,
): Promise<{ id: string; deleted: true }> {
  // a piece in production stays there, whatever the window says now (its settings may have changed)
  const refuse = (piece: ApiObject) =>
    piece.production ||
    (settings !== undefined && Date.now() >= cancelDeadline(piece, settings.cancellation_window_minutes))
      ? new ApiError(
          'not_deletable',
          `${resource.title.toLowerCase()} ${id} can no longer be cancelled: its send date or cancellation window has passed`,
          422,
        )
      : undefined;
  if (!(await objects.delete(scope, resource, id, undefined, refuse))) throw notFound(resource.title.toLowerCase());
  // Read back as committed: thumbnails recorded up to the cancel are named; any stored later are removed
  // by the job that finds the piece gone. The cancel stands if a file cannot be removed now.
  const cancelled = await objects.get(scope, resource.name, id, { includeDeleted: true });
  if (cancelled) {
    await assets.delete(pieceFileKeys(resource, cancelled)).catch((error: unknown) => {
      process.stderr.write(`cancel ${id}: its files were not all removed: ${String(error)}\n`);
    });
  }
  return { id, deleted: true };
}
