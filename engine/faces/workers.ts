// The background side of an engine process: it starts the renderer's parts (one browser with warm
// pages, the merge thread, the thumbnail threads) and registers the render jobs that use them, the
// delivery of events to webhooks, and production and tracking through the print provider.
// `serve` starts it unless told not to, `work` runs only this.
import { createRenderer } from '../print/browser';
import { TOTAL_FETCH_MS } from '../print/inline-assets';
import { ThumbnailThreads } from '../print/thumbnails';
import { MergeThread } from '../print/merge';
import { ComposeThreads } from '../print/overlay/compose-threads';
import { workRenderJobs } from '../domain/rendering/worker';
import type { RenderContext } from '../domain/rendering/context';
import { startEventDelivery } from '../domain/events/dispatch';
import { workCampaignRuns } from '../domain/campaigns/worker';
import { startProduction } from '../domain/production/worker';
import { FolderProvider } from '../domain/production/outbox';
import type { Services, Workers } from '../domain/services';
import { uspsOf } from '../platform/config';
import { pollLoop } from '../base/poll-loop';
import { wakeHeldPieces } from '../domain/rendering/imb-codes';

/** How often held pieces are looked at again (at start first): serials free up as days pass. */
const WAKE_MS = 60_000;

export async function startWorkers(services: Services): Promise<Workers> {
  const rendering = services.config.workers > 0 ? await startRendering(services) : undefined;
  const events = await startEventDelivery(services);
  const campaigns = await workCampaignRuns(services);
  const production = await startProduction(
    services,
    new FolderProvider(services.config.printOutbox, services.config.trackingInbox),
  );
  return {
    renderer: () => rendering?.status() ?? null,
    stop: async () => {
      // handlers finish (or are left to their leases) before the browser and threads they use go
      await rendering?.stopWaking();
      await production.stop();
      await campaigns.stop();
      await events.stop();
      // the queue itself stays open: requests still being answered may queue jobs (services.close ends it)
      await services.jobs.stopWorking();
      await rendering?.close();
    },
  };
}

/**
 * The renderer's parts and the render jobs registered on them. None of the parts runs yet: each starts
 * with the first render that needs it and stops after RENDER_IDLE_MS without one, so an engine that
 * only keeps addresses holds no browser. The Chromium is located now, so a missing one is said at start.
 */
async function startRendering(services: Services) {
  const { config } = services;
  const idleMs = config.renderIdleMs;
  const browser = createRenderer({ chromiumPath: config.chromiumPath, pages: config.renderPages, idleMs });
  await browser.locate();
  // the workers own their thumbnail threads, so stopping them frees the threads' memory too
  const thumbnails = new ThumbnailThreads(2 * config.renderTimeoutMs, undefined, idleMs);
  const merging = new MergeThread(idleMs);
  const composing = new ComposeThreads(idleMs);
  const context: RenderContext = {
    store: services.store,
    objects: services.objects,
    assets: services.assets,
    jobs: services.jobs,
    browser,
    merging,
    thumbnails,
    composing,
    usps: uspsOf(config),
    metrics: services.metrics,
    limits: {
      renderTimeoutMs: config.renderTimeoutMs,
      allowedNetworks: config.allowedPrivateNetworks,
      thumbnails: config.renderThumbnails === 'on',
    },
  };
  await workRenderJobs(services.jobs, context, { concurrency: config.workers, leaseMs: leaseOf(config) });
  // live pieces that waited for the USPS identity (or for serials) are taken up by an engine that has it
  const waking = context.usps.ready
    ? pollLoop(async () => void (await wakeHeldPieces(context)), {
        pollMs: WAKE_MS,
        onError: (error) => {
          if (config.logLevel !== 'silent') process.stderr.write(`waking held pieces: ${String(error)}\n`);
        },
      })
    : undefined;
  return {
    status: () => {
      const status = browser.status();
      const { available, state, source, version, reason } = status;
      return { available, state, source, version, reason };
    },
    stopWaking: async () => waking?.stop(),
    close: async () => {
      await Promise.all([browser.close(), thumbnails.close(), merging.close(), composing.close()]);
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
