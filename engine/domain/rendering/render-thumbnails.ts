// A rendered piece's thumbnails, the thumbnails job's work: read its stored PDF back, draw one
// { small, medium, large } PNG set per page, store them, then record their keys with
// `*.rendered_thumbnails`. Queued in the commit that made the piece `rendered`, so a crash between the
// two steps loses nothing; running it twice writes the same files and records them once.
import { thumbnailKey, THUMBNAIL_SIZES } from '../../platform/assets/links';
import { markThumbnails } from './outcome';
import { discardIfCancelled } from '../pieces/piece-files';
import { pieceOfJob, type RenderResult } from './render-piece';
import type { RenderContext } from './context';

const hasThumbnails = (thumbnails: unknown) => Array.isArray(thumbnails) && thumbnails.length > 0;

export async function renderThumbnails(
  tools: RenderContext,
  pieceId: string,
  signal?: AbortSignal,
): Promise<RenderResult> {
  const found = await pieceOfJob(tools, pieceId);
  if (!found || found.piece.status !== 'rendered' || hasThumbnails(found.piece.thumbnails)) return 'skipped';
  const { scope, resource, piece } = found;
  const pdf = await tools.assets.get(String(piece.url));
  // the piece names a file its own render stored: missing, it was removed under the engine
  if (!pdf) throw new Error(`${piece.id}: its PDF ${String(piece.url)} is not in the asset store`);
  const pages = await tools.thumbnails.thumbnails(pdf.bytes);
  signal?.throwIfAborted(); // its lease ran out: the next attempt stores them
  const thumbnails = pages.map((_, i) =>
    Object.fromEntries(THUMBNAIL_SIZES.map((size) => [size, thumbnailKey(resource, piece.id, size, i + 1)])),
  );
  await Promise.all(
    pages.flatMap((page, i) =>
      THUMBNAIL_SIZES.map((size) => tools.assets.put(thumbnails[i][size], page[size], 'image/png')),
    ),
  );
  signal?.throwIfAborted();
  if (await markThumbnails(tools.objects, scope, resource, pieceId, thumbnails)) return 'rendered';
  const keys = thumbnails.flatMap((sizes) => Object.values(sizes));
  await discardIfCancelled(tools.objects, tools.assets, scope, resource, pieceId, keys);
  return 'skipped';
}
