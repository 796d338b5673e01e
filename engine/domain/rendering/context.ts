// What the render jobs work with: the started parts (the browser with its warm pages, the merge
// thread, the thumbnail threads) and where pieces, files and jobs live. workers.ts starts the parts and
// hands them over; the render path (artwork-pdf.ts, render-piece.ts) calls them directly.
import type { EngineMetrics } from '../../platform/metrics';
import type { Renderer } from '../../print/browser';
import type { MergeThread } from '../../print/merge';
import type { ThumbnailThreads } from '../../print/thumbnails';
import type { ComposeThreads } from '../../print/overlay/compose-threads';
import type { AssetStore } from '../../platform/assets/store';
import type { JobQueue } from '../../platform/jobs/types';
import type { ObjectStore } from '../../store/objects';
import type { Store } from '../../store/store';
import type { UspsReadiness } from '../../catalog/usps-identity';

export interface RenderContext {
  store: Store;
  /** the store's object store (`store.objects`) */
  objects: ObjectStore;
  assets: AssetStore;
  jobs: JobQueue;
  browser: Renderer;
  merging: MergeThread;
  thumbnails: ThumbnailThreads;
  /** composes pieces off the engine's thread; absent: composed in the calling thread */
  composing?: ComposeThreads;
  /** the operator's USPS identity (USPS_* variables): a live piece is drawn only with it */
  usps: UspsReadiness;
  /** counts and times render jobs for GET /metrics (absent in tools that render outside an engine) */
  metrics?: EngineMetrics;
  limits: {
    /** one page's render, one merge (RENDER_TIMEOUT_MS) */
    renderTimeoutMs: number;
    /** private networks an artwork's assets may be fetched from (ALLOWED_PRIVATE_NETWORKS) */
    allowedNetworks: ReadonlySet<string>;
    /** RENDER_THUMBNAILS=off: a rendered piece queues no thumbnails job */
    thumbnails?: boolean;
  };
}
