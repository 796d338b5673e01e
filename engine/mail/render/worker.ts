// The render job: one per piece, enqueued in the piece's own commit. A render that cannot succeed
// settles the piece as failed at once; anything else (a crashed browser, a lost database connection)
// is thrown so the job runner retries it, and its last attempt fails the piece with the reason.
import type { JobQueue } from '../../jobs/types';
import { RENDER_PIECE, type RenderPieceData } from '../../jobs/names';
import { renderPiece, type RenderTools } from './render-piece';

export interface RenderWorkerOptions {
  concurrency: number;
  /** a job held longer than this by a worker that stopped answering is taken again */
  leaseMs: number;
}

export async function workRenderJobs(queue: JobQueue, tools: RenderTools, options: RenderWorkerOptions): Promise<void> {
  await queue.work<RenderPieceData>(RENDER_PIECE, options, async (job) => {
    await renderPiece(tools, job.data.piece, { lastAttempt: job.lastAttempt });
  });
}
