// What handlers reach: the store (the one door to the data), accounts, configuration, the job queue
// and the rendered files.
import type { EngineMetrics } from '../platform/metrics';
import type { ObjectStore } from '../store/objects';
import type { Store } from '../store/store';
import type { Accounts } from './accounts/accounts';
import type { EngineConfig } from '../platform/config';
import type { JobCounts, JobQueue } from '../platform/jobs/types';
import type { AssetStore } from '../platform/assets/store';
import type { AssetSigner } from '../platform/assets/signing';
import type { MemoryReport } from '../base/memory-report';
import type { DisabledWebhook } from '../store/webhook-failures';
import type { Previewer } from './rendering/preview';
import type { StreetDataStatus } from './streets/status';

/** What `GET /health` answers: whether this process can serve, and what its workers can do. */
export interface Health {
  status: 'ok' | 'degraded';
  database: 'ok' | 'unreachable';
  /** this process works background jobs (rendering) */
  workers: boolean;
  /**
   * the renderer of this process's workers; null when it runs none. `idle` (available, not running: the
   * next render starts it) is healthy; no Chromium found is `unavailable` and the engine degraded.
   */
  renderer: {
    available: boolean;
    state: 'idle' | 'running' | 'unavailable' | 'closed';
    source?: string;
    version?: string;
    reason?: string;
  } | null;
  jobs: JobCounts | null;
  /**
   * whether live pieces can go to production: the operator's USPS identity (USPS_* variables) is
   * configured; else `missing` names the variables and live pieces wait (test pieces are unaffected)
   */
  production: { ready: boolean; missing: string[]; reason?: string };
  /**
   * webhooks the engine disabled after their deliveries failed for WEBHOOK_DISABLE_AFTER_HOURS (at
   * most 20, latest first), each with its reason; an account's receiver, so the engine stays `ok`
   */
  webhooks: { disabled: DisabledWebhook[] } | null;
  /**
   * the street data live US verification judges streets with (`printpost streets import`), a kind a
   * row: counties or sources, rows, latest load; empty when none is loaded (the last line only is
   * checked), null when the database does not answer
   */
  street_data: StreetDataStatus | null;
  memory: MemoryReport;
}

/** The background workers a process runs (`serve` by default, `work`); see engine/faces/workers.ts. */
export interface Workers {
  /** the renderer's state; null where this process renders nothing (WORKERS=0) */
  renderer(): Health['renderer'];
  stop(): Promise<void>;
}

export interface Services {
  /** the data: the object store and the named functions of every other table */
  store: Store;
  /** the store's object store (`store.objects`), which most code uses */
  objects: ObjectStore;
  accounts: Accounts;
  config: EngineConfig;
  jobs: JobQueue;
  assets: AssetStore;
  signer: AssetSigner;
  /** what GET /metrics shows (engine/platform/metrics.ts) */
  metrics: EngineMetrics;
  /** set when this process works jobs */
  workers: Workers | null;
  /** template previews for the dashboard's editor and POST /v1/template_previews (parts start on first use) */
  previewer: Previewer;
  /** the address this process serves the API on, once it listens (links handed out by workers) */
  listenUrl?: string;
  health(): Promise<Health>;
  /** releases the database connections */
  close(): Promise<void>;
}
