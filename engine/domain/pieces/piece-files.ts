// A piece's files (its uploaded or fetched artwork, its PDF, its thumbnails) live as long as the piece:
// a cancel removes them, and a render that finds its piece cancelled when it settles removes what it
// stored, since the signed links handed out before the cancel would serve them for 30 days.
import type { Resource } from '../../catalog/types';
import type { AssetStore } from '../../platform/assets/store';
import { pdfKey } from '../../platform/assets/links';
import type { ApiObject, ObjectStore, Scope } from '../../store/objects';

const isKey = (value: unknown): value is string => typeof value === 'string' && !value.includes('://');

/**
 * Where an artwork file of a piece is kept: named by the piece and field, so a cancel finds it from the
 * piece alone (the piece's id is drawn before its files are stored).
 */
export const uploadKey = (pieceId: string, field: string) => `uploads/${pieceId}_${field}`;

/** The keys a piece's uploaded or fetched artwork files may have (none is there for an HTML side). */
export const artworkFileKeys = (resource: Resource, pieceId: string): string[] =>
  (resource.mailpiece?.artwork ?? []).map((side) => uploadKey(pieceId, side.field));

/** Every file key the piece names: its artwork files' and PDF's (known from its id) and its thumbnails'. */
export function pieceFileKeys(resource: Resource, piece: ApiObject): string[] {
  const thumbnails: unknown[] = Array.isArray(piece.thumbnails) ? piece.thumbnails : [];
  const keys = [
    ...artworkFileKeys(resource, piece.id),
    pdfKey(resource, piece.id),
    piece.url,
    ...thumbnails.flatMap((sizes) => (typeof sizes === 'object' && sizes !== null ? Object.values(sizes) : [])),
  ];
  return [...new Set(keys.filter(isKey))];
}

/** Removes `keys` when the piece is gone (cancelled); whether it was. Run after a settle that did nothing. */
export async function discardIfCancelled(
  objects: ObjectStore,
  assets: AssetStore,
  scope: Scope,
  resource: Resource,
  id: string,
  keys: readonly string[],
): Promise<boolean> {
  if (await objects.get(scope, resource.name, id)) return false; // settled by an earlier attempt: its files
  await assets.delete(keys);
  return true;
}
