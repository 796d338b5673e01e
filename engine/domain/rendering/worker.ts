// The render jobs. `render-piece`: one per piece, enqueued in the piece's own commit; a render that
// cannot succeed settles the piece as failed at once; anything else (a crashed browser, a lost
// database connection) is thrown so the job runner retries it, and its last attempt fails the piece
// with the reason; an attempt past the last one (its lease was lost) only fails the piece.
// `render-thumbnails`: one per rendered piece; retried likewise, and where every attempt fails the
// piece stays rendered without thumbnails (the job runner logs why). Each handler gets its lease's
// signal, and stores and settles nothing once its lease is lost: the next attempt owns the piece.
import type { JobQueue } from '../../platform/jobs/types';
import {
  RENDER_ATTEMPTS,
  RENDER_PIECE,
  RENDER_THUMBNAILS,
  type RenderPieceData,
  type RenderThumbnailsData,
} from '../../platform/jobs/names';
import { pieceOfJob, renderPiece, type RenderResult } from './render-piece';
import type { RenderContext } from './context';
import { renderThumbnails } from './render-thumbnails';
import { markFailed } from './outcome';
import { RenderFailure } from '../../print/failure';

export interface RenderWorkerOptions {
  concurrency: number;
  /** a job held longer than this by a worker that stopped answering is taken again */
  leaseMs: number;
}

export async function workRenderJobs(
  queue: JobQueue,
  tools: RenderContext,
  options: RenderWorkerOptions,
): Promise<void> {
  await queue.work<RenderPieceData>(RENDER_PIECE, options, async (job) => {
    if (job.attempt > RENDER_ATTEMPTS) return failLostRender(tools, job.data.piece, options.leaseMs);
    // jobs queued before RENDER_PIECE_OPTIONS have no attempt past the last: theirs is job.lastAttempt
    const lastAttempt = job.lastAttempt || job.attempt >= RENDER_ATTEMPTS;
    await measured(tools, 'piece', () => renderPiece(tools, job.data.piece, { lastAttempt, signal: job.signal }));
  });
  await queue.work<RenderThumbnailsData>(RENDER_THUMBNAILS, options, async (job) => {
    await measured(tools, 'thumbnails', () => renderThumbnails(tools, job.data.piece, job.signal));
  });
}

/** Runs a render job's work, counted by its result (or `error`: retried) and timed for GET /metrics. */
async function measured(
  tools: RenderContext,
  job: 'piece' | 'thumbnails',
  work: () => Promise<RenderResult>,
): Promise<void> {
  const stop = tools.metrics?.renderSeconds.startTimer({ job });
  try {
    tools.metrics?.renders.inc({ job, outcome: await work() });
  } catch (error) {
    tools.metrics?.renders.inc({ job, outcome: 'error' });
    throw error;
  } finally {
    stop?.();
  }
}

/** The last rendering attempt lost its lease: the piece fails (once; a piece settled meanwhile stays). */
async function failLostRender(tools: RenderContext, pieceId: string, leaseMs: number): Promise<void> {
  const found = await pieceOfJob(tools, pieceId);
  if (!found || found.piece.status !== 'processed') return;
  const failure = new RenderFailure(
    'render_timeout',
    `the render did not finish within its time (${Math.round(leaseMs / 1000)} s), ${RENDER_ATTEMPTS} times`,
    'Simplify the artwork or host its assets somewhere faster; if it keeps failing, check the engine log.',
  );
  await markFailed(tools.objects, found.scope, found.resource, pieceId, failure.toReason());
}
