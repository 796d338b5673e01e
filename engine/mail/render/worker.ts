// The render jobs. `render-piece`: one per piece, enqueued in the piece's own commit; a render that
// cannot succeed settles the piece as failed at once; anything else (a crashed browser, a lost
// database connection) is thrown so the job runner retries it, and its last attempt fails the piece
// with the reason. `render-thumbnails`: one per rendered piece; retried likewise, and where every
// attempt fails the piece stays rendered without thumbnails (the job runner logs why).
import type { JobQueue } from '../../jobs/types';
import { RENDER_PIECE, RENDER_THUMBNAILS, type RenderPieceData, type RenderThumbnailsData } from '../../jobs/names';
import { renderPiece, type RenderTools } from './render-piece';
import { renderThumbnails } from './render-thumbnails';

export interface RenderWorkerOptions {
  concurrency: number;
  /** a job held longer than this by a worker that stopped answering is taken again */
  leaseMs: number;
}

export async function workRenderJobs(queue: JobQueue, tools: RenderTools, options: RenderWorkerOptions): Promise<void> {
  await queue.work<RenderPieceData>(RENDER_PIECE, options, async (job) => {
    await renderPiece(tools, job.data.piece, { lastAttempt: job.lastAttempt });
  });
  await queue.work<RenderThumbnailsData>(RENDER_THUMBNAILS, options, async (job) => {
    await renderThumbnails(tools, job.data.piece);
  });
}
