// A creative's uploaded artwork: checked as a direct create of its kind checks an upload (the same
// sniffing, size and decode limits, through pieces/artwork.ts), stored once under the creative's name
// (`uploads/<crv id>_<field>`) and recorded as its inputs; every piece a run makes from it names that
// file and its blob rather than copying it. Pieces remove only their own files (`uploads/<piece id>_*`),
// so a cancelled or failed piece, or the creative's delete, leaves the shared file to the other pieces.
import { CREATIVE_ARTWORK } from '../../catalog/creatives';
import { isUploadRef, type UploadRef } from '../../catalog/uploads';
import type { Resource } from '../../catalog/types';
import type { Services } from '../services';
import type { ApiObject, Scope } from '../../store/objects';
import type { NewBlob } from '../../store/blobs';
import type { PieceInputs } from '../../store/piece-inputs';
import { ApiError } from '../../base/errors';
import { discardStoredFiles, storeUpload } from '../pieces/artwork';
import { uploadKey } from '../pieces/piece-files';
import { storedArtwork, type FileSource, type StoredArtwork } from '../pieces/stored-artwork';

/** A creative's stored files by artwork field, as its pieces' bodies name them. */
export type CreativeFiles = Record<string, StoredArtwork>;

/** The sides of a create body sent as files. */
export function uploadedSides(body: Record<string, unknown>): Record<string, UploadRef> {
  const found: Record<string, UploadRef> = {};
  for (const side of CREATIVE_ARTWORK) {
    const value = body[side];
    if (isUploadRef(value)) found[side] = value;
  }
  return found;
}

export interface StoredSides {
  blobs: NewBlob[];
  /** the creative's inputs row: its files' sources, read by each run */
  inputs: PieceInputs[];
}

/**
 * Checks and stores the uploaded sides of creative `id` of `kind`, whose checked piece body (defaults
 * filled) gives the product. A letter is checked for a US recipient; one abroad is checked again at its
 * run (pieces/artwork.ts). Files already stored are removed if a later one is refused.
 */
export async function storeSides(
  services: Services,
  id: string,
  kind: Resource,
  checked: Record<string, unknown>,
  uploads: Record<string, UploadRef>,
  now: string,
): Promise<StoredSides> {
  const product = {
    kind: kind.name,
    size: String(checked.size ?? ''),
    abroad: false,
    doubleSided: checked.double_sided !== false,
  };
  const blobs: NewBlob[] = [];
  const sources: Record<string, FileSource> = {};
  try {
    for (const [field, upload] of Object.entries(uploads)) {
      const stored = await storeUpload(field, upload, { product, assets: services.assets, ownerId: id }, now);
      blobs.push(stored.blob);
      // an HTML file would need its merge variables checked per piece: a creative takes HTML inline
      if (stored.html !== undefined)
        throw new ApiError('invalid_file', `${field} must be a PDF, PNG or JPEG file (send HTML as text)`, 422);
      sources[field] = stored.source;
    }
  } catch (error) {
    await discardStoredFiles(services.assets, blobs).catch(() => undefined); // the refusal is the answer
    throw error;
  }
  if (blobs.length === 0) return { blobs, inputs: [] };
  return { blobs, inputs: [{ pieceId: id, kind: 'creatives', inputs: { artwork: sources } }] };
}

/** The stored files of each creative (none for one given only by reference). */
export async function filesOfCreatives(
  services: Services,
  scope: Scope,
  creatives: readonly ApiObject[],
): Promise<Map<string, CreativeFiles>> {
  const files = new Map<string, CreativeFiles>();
  for (const creative of creatives) {
    const recorded = await services.store.pieceInputs.readPieceInputs(creative.id);
    if (!recorded || recorded.scope.accountId !== scope.accountId || recorded.scope.mode !== scope.mode) continue;
    const { artwork } = recorded.inputs;
    files.set(
      creative.id,
      Object.fromEntries(
        Object.entries(artwork)
          .filter((side): side is [string, FileSource] => side[1].kind === 'file')
          .map(([field, source]) => [field, storedArtwork(source, uploadKey(creative.id, field))]),
      ),
    );
  }
  return files;
}
