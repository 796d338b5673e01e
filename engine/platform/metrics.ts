// What an operator scrapes at GET /metrics (Prometheus text, prom-client). One registry per engine
// (not prom-client's global one), so engines sharing a process (tests) count apart. Names follow
// Prometheus's conventions: a `printpost_` prefix, snake case, base units (seconds, bytes) named in
// the suffix, `_total` on counters. Labels are bounded: a route is its template, never its path.
import client from 'prom-client';
import type { JobQueue } from './jobs/types';

/** Request latencies: from a cached read (about a millisecond) to a large upload. */
const REQUEST_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
/** Render times: a warm card (tens of ms) to a long letter or a slow asset fetch. */
const RENDER_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2, 4, 8, 16, 32, 64];

export class EngineMetrics {
  readonly registry = new client.Registry();

  readonly requests = new client.Counter({
    name: 'printpost_http_requests_total',
    help: 'HTTP requests answered, by method, route template and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [this.registry],
  });

  readonly requestSeconds = new client.Histogram({
    name: 'printpost_http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by method and route template',
    labelNames: ['method', 'route'] as const,
    buckets: REQUEST_BUCKETS,
    registers: [this.registry],
  });

  readonly rateLimited = new client.Counter({
    name: 'printpost_rate_limit_refusals_total',
    help: 'Requests refused with 429 by the rate limit',
    registers: [this.registry],
  });

  readonly renders = new client.Counter({
    name: 'printpost_renders_total',
    help: 'Render jobs finished in this process, by job (piece or thumbnails) and outcome (rendered, failed, skipped, held, or error: retried)',
    labelNames: ['job', 'outcome'] as const,
    registers: [this.registry],
  });

  readonly renderSeconds = new client.Histogram({
    name: 'printpost_render_duration_seconds',
    help: 'Time a render job took in this process, by job (piece or thumbnails)',
    labelNames: ['job'] as const,
    buckets: RENDER_BUCKETS,
    registers: [this.registry],
  });

  readonly deliveries = new client.Counter({
    name: 'printpost_webhook_deliveries_total',
    help: 'Webhook delivery attempts made by this process, by outcome (succeeded or failed)',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });

  readonly campaignPieces = new client.Counter({
    name: 'printpost_campaign_pieces_total',
    help: 'Pieces made by campaign runs this process completed',
    registers: [this.registry],
  });

  constructor(jobs: Pick<JobQueue, 'waiting'>) {
    // resident memory, event-loop lag, heap, handles: prom-client's process and Node.js metrics
    client.collectDefaultMetrics({ register: this.registry, prefix: 'printpost_' });
    // prom-client's gauges named `_total` break the convention that only counters end so; the same
    // numbers stay as nodejs_active_handles, _requests and _resources
    for (const name of ['handles', 'requests', 'resources'])
      this.registry.removeSingleMetric(`printpost_nodejs_active_${name}_total`);
    const queued = new client.Gauge({
      name: 'printpost_jobs_queued',
      help: 'Jobs waiting in the shared queue (due or not yet due), by job name',
      labelNames: ['job'] as const,
      registers: [this.registry],
    });
    new client.Gauge({
      name: 'printpost_jobs_oldest_due_age_seconds',
      help: 'How long the oldest due job has waited to be taken, by job name (0 when none is due)',
      labelNames: ['job'] as const,
      registers: [this.registry],
      // read at scrape time: the queue is the database's, shared by every process
      async collect() {
        queued.reset();
        this.reset();
        for (const w of await jobs.waiting()) {
          queued.set({ job: w.name }, w.queued);
          this.set({ job: w.name }, w.oldestDueMs / 1000);
        }
      },
    });
  }

  /** The registry in Prometheus's text format, and its content type. */
  async scrape(): Promise<{ text: string; contentType: string }> {
    return { text: await this.registry.metrics(), contentType: this.registry.contentType };
  }
}
