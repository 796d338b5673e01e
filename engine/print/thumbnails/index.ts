// Thumbnails of rendered PDFs: one { small, medium, large } PNG set per page (widths in render.ts),
// drawn in worker threads so the engine's event loop keeps answering while they are made.
import { ThumbnailThreads } from './threads';
import type { PageThumbnails } from './render';

export { renderThumbnails, THUMBNAIL_WIDTHS, type PageThumbnails } from './render';
export { ThumbnailThreads } from './threads';

let shared: ThumbnailThreads | undefined;

/** One { small, medium, large } PNG set per page of `pdf`, in page order (on the process's shared threads). */
export function thumbnails(pdf: Uint8Array): Promise<PageThumbnails[]> {
  shared ??= new ThumbnailThreads();
  return shared.thumbnails(pdf);
}
