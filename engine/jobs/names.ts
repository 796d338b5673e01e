// The engine's jobs by name, with the data each carries: the code that enqueues one and the worker
// that does it meet here rather than importing each other.
export const RENDER_PIECE = 'render-piece';

export interface RenderPieceData {
  piece: string;
}

/** Queued when a piece becomes `rendered`: its thumbnails, drawn from the stored PDF. */
export const RENDER_THUMBNAILS = 'render-thumbnails';

export type RenderThumbnailsData = RenderPieceData;
