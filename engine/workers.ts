// The background side of an engine process: the renderer (one browser, warm pages) and the job
// handlers that use it. `serve` starts it unless told not to, `work` runs only this.
import { createRenderer, RenderTimeout, RendererUnavailable, RenderFailed } from './render/browser';
import { describeAssetFailure, inlineAssets, TOTAL_FETCH_MS } from './render/inline-assets';
import { ThumbnailThreads } from './render/thumbnails';
import { composePiece, type PieceKind } from './render/overlay/compose';
import { overlayPiece } from './render/overlay/types';
import { RenderFailure } from './mail/render/failure';
import { workRenderJobs } from './mail/render/worker';
import type { HtmlRender, MergeRequest } from './mail/render/artwork-pdf';
import { MergeFailed, MergeThread } from './render/merge';
import { RENDER_THUMBNAILS, type RenderThumbnailsData } from './jobs/names';
import type { RenderTools } from './mail/render/render-piece';
import type { Services, Workers } from './services';

/** Linked assets of one artwork, all together (spec: at most 5 MB). */
const ASSET_BYTES = 5 * 1_048_576;

export async function startWorkers(services: Services): Promise<Workers> {
  const { config } = services;
  const renderer = createRenderer({ chromiumPath: config.chromiumPath, pages: config.renderPages });
  await renderer.start();
  // the workers own their thumbnail threads, so stopping them frees the threads' memory too
  const threads = new ThumbnailThreads(2 * config.renderTimeoutMs);
  const merging = new MergeThread();

  const mergeHtml = async (request: MergeRequest): Promise<string> => {
    try {
      return await merging.merge(request, config.renderTimeoutMs);
    } catch (error) {
      if (!(error instanceof MergeFailed)) throw error;
      if (error.reason === 'timeout')
        throw new RenderFailure(
          'render_timeout',
          error.message,
          'Simplify the artwork: nested {{#each}} blocks over long lists multiply into very large pages.',
        );
      throw new RenderFailure(
        'merge_failed',
        `the artwork could not be merged: ${error.message}`,
        'Check the {{variables}} and helpers the HTML uses.',
      );
    }
  };

  const renderHtml = async (request: HtmlRender): Promise<Uint8Array> => {
    const inlined = await inlineAssets(request.html, {
      maxTotalBytes: ASSET_BYTES,
      allowedNetworks: config.allowedPrivateNetworks,
    });
    if (inlined.failures.length > 0) {
      throw new RenderFailure(
        'asset_fetch_failed',
        describeAssetFailure(inlined.failures[0]),
        'Host every image, font and stylesheet the HTML links on a public http(s) address, 5 MB in all.',
      );
    }
    try {
      return await renderer.htmlToPdf({ ...request, html: inlined.html, timeoutMs: config.renderTimeoutMs });
    } catch (error) {
      if (error instanceof RenderTimeout)
        throw new RenderFailure(
          'render_timeout',
          error.message,
          'Simplify the artwork: very large documents or tables take too long to lay out.',
        );
      if (error instanceof RendererUnavailable)
        throw new RenderFailure(
          'renderer_unavailable',
          error.message,
          'The operator must install or configure Chromium.',
        );
      if (error instanceof RenderFailed)
        throw new RenderFailure('render_failed', error.message, 'Check the artwork HTML.');
      throw error;
    }
  };

  const tools: RenderTools = {
    knex: services.db.knex,
    objects: services.objects,
    assets: services.assets,
    renderHtml,
    mergeHtml,
    compose: (request) =>
      composePiece({
        kind: request.resource.name as PieceKind,
        size: request.geometry.size,
        piece: overlayPiece(request.piece),
        sides: request.sides,
        geometry: request.geometry,
      }),
    thumbnails: (pdf) => threads.thumbnails(pdf),
    thumbnailsJob: (piece) => services.jobs.enqueueWith(RENDER_THUMBNAILS, { piece } satisfies RenderThumbnailsData),
  };
  await workRenderJobs(services.jobs, tools, { concurrency: Math.max(1, config.workers), leaseMs: leaseOf(config) });

  return {
    renderer: () => {
      const status = renderer.status();
      return { available: status.available, source: status.source, version: status.version, reason: status.reason };
    },
    stop: async () => {
      // handlers finish (or are left to their leases) before the browser and threads they use go
      await services.jobs.stop();
      await Promise.all([renderer.close(), threads.close(), merging.close()]);
    },
  };
}

/**
 * A render job's lease covers the slowest piece the limits allow, or a live handler would be taken for
 * dead and its job run twice: each side of every piece in flight waits its turn on the one merge thread,
 * fetches its assets within their budget, then waits for a page and prints; then the PDF is composed,
 * stored and settled (thumbnails, on the same lease, are bounded by their threads' limit).
 */
function leaseOf(config: Services['config']): number {
  const sidesInFlight = 2 * Math.max(1, config.workers);
  const merges = sidesInFlight * config.renderTimeoutMs;
  const prints = Math.ceil(sidesInFlight / Math.max(1, config.renderPages)) * config.renderTimeoutMs;
  return merges + TOTAL_FETCH_MS + prints + Math.max(60_000, 2 * config.renderTimeoutMs);
}
