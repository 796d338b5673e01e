// Starts the engine: connect, migrate, bootstrap the first account, serve HTTP(S).
import http from 'node:http';
import https from 'node:https';
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import { openStore, type Store } from '../store/store';
import { Accounts, type KeySet } from '../domain/accounts/accounts';
import { createApp } from '../http/app';
import { MCP_PATH, mcpEndpoint } from './mcp/http';
import { DASHBOARD_PATH, dashboardEndpoint } from './dashboard/dashboard';
import { answerClientError, answerExpectation } from '../http/raw-answers';
import { type EngineConfig, uspsOf } from '../platform/config';
import { missingSentence } from '../catalog/usps-identity';
import type { Health, Services } from '../domain/services';
import { openJobQueue } from '../platform/jobs';
import { openAssetStore } from '../platform/assets/open';
import { startSweeping } from '../platform/assets/sweeper';
import { loadAssetSigner } from '../platform/assets/signing';
import { startWorkers } from './workers';
import { memoryReport } from '../base/memory-report';
import { EngineMetrics } from '../platform/metrics';
import { createPreviewer } from '../domain/rendering/preview';
import { loadedStreetData } from '../domain/streets/status';

export interface RunningEngine {
  url: string;
  services: Services;
  /** keys of the account created on an empty database (shown once) */
  bootstrapKeys?: KeySet;
  /** stops at once: connections cut, running jobs left to their leases (tests, a failed start) */
  close(): Promise<void>;
  /**
   * stops as a rolling restart wants (SIGTERM): no new connections, requests in flight answered (with
   * `Connection: close`), running jobs given SHUTDOWN_TIMEOUT_MS and then handed back, then closed
   */
  drain(): Promise<void>;
}

export async function openServices(config: EngineConfig, opened?: Store): Promise<Services> {
  const store = opened ?? (await openStore(config.databaseUrl, config.databasePoolMax));
  // running jobs get most of the shutdown's time, and are handed back before it runs out
  const jobs = openJobQueue(store, { stopTimeoutMs: Math.floor(config.shutdownTimeoutMs * 0.75) });
  await jobs.start();
  const assets = openAssetStore(config.assetStore, config.s3Endpoint);
  const stopSweeping = startSweeping(assets, (error) => {
    if (config.logLevel !== 'silent') process.stderr.write(`asset store sweep: ${String(error)}\n`);
  });
  const services: Services = {
    store,
    objects: store.objects,
    accounts: new Accounts(store.accounts, config.keyCacheMs),
    config,
    jobs,
    assets,
    signer: await loadAssetSigner(store.engineSecrets, config.assetSigningKey),
    metrics: new EngineMetrics(jobs),
    workers: null,
    previewer: createPreviewer(config),
    health: () => healthOf(services),
    close: async () => {
      stopSweeping();
      await services.previewer.close();
      await services.workers?.stop();
      await jobs.stop();
      await store.close();
    },
  };
  return services;
}

async function healthOf(services: Services): Promise<Health> {
  const database = (await services.store.reachable()) ? 'ok' : 'unreachable';
  const jobs = database === 'ok' ? await services.jobs.counts().catch(() => null) : null;
  const renderer = services.workers?.renderer() ?? null;
  const disabled =
    database === 'ok' ? await services.store.webhookFailures.disabledWebhooks(20).catch(() => null) : null;
  const streetData = database === 'ok' ? await loadedStreetData(services.store.streets).catch(() => null) : null;
  const healthy = database === 'ok' && (renderer === null || renderer.available);
  return {
    status: healthy ? 'ok' : 'degraded',
    database,
    workers: services.workers !== null,
    renderer,
    jobs,
    production: productionReadiness(services.config),
    webhooks: disabled && { disabled },
    street_data: streetData,
    memory: memoryReport(services.config.maxRssMb),
  };
}

/** Whether live pieces can be produced: the USPS identity, or the variables it still needs. */
export function productionReadiness(config: EngineConfig): Health['production'] {
  const usps = uspsOf(config);
  return usps.ready
    ? { ready: true, missing: [] }
    : { ready: false, missing: usps.missing, reason: missingSentence(usps.missing) };
}

/** Serves the API; also works background jobs (renders unless WORKERS is 0, event delivery) unless `workers` is false. */
export async function startEngine(config: EngineConfig, start: { workers?: boolean } = {}): Promise<RunningEngine> {
  const services = await openServices(config);
  if (start.workers !== false) services.workers = await startWorkers(services);
  let bootstrapKeys: KeySet | undefined;
  if ((await services.accounts.count()) === 0) {
    bootstrapKeys = (await services.accounts.create(config.bootstrapAccount)).keys;
  }
  // neither the MCP endpoint nor the dashboard (same-origin pages) is for pages of other origins: no CORS
  const app = createApp(services, [mcpEndpoint(services), dashboardEndpoint(services)], [MCP_PATH, DASHBOARD_PATH]);
  const tls = config.tlsCert && config.tlsKey;
  // Slow clients are cut off by Node's own timers, checked every second rather than every 30 s; a
  // missing Host header is answered by the app (Node's own answer has no body).
  const options: http.ServerOptions = {
    headersTimeout: config.headersTimeoutMs,
    requestTimeout: config.requestTimeoutMs,
    connectionsCheckingInterval: 1000,
    keepAliveTimeout: 65_000,
    requireHostHeader: false,
  };
  let draining = false;
  const handle = app.callback();
  const listener: http.RequestListener = (req, res) => {
    // a client on a kept-alive connection is told to go elsewhere once this answer is sent
    if (draining) res.setHeader('Connection', 'close');
    void handle(req, res);
  };
  const server = tls
    ? https.createServer(
        { ...options, cert: fs.readFileSync(config.tlsCert), key: fs.readFileSync(config.tlsKey!) },
        listener,
      )
    : http.createServer(options, listener);
  server.on('clientError', answerClientError);
  server.on('checkExpectation', answerExpectation);
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(config.port, config.host, () => resolve());
    });
  } catch (error) {
    await services.close();
    throw error;
  }
  const { port } = server.address() as AddressInfo;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  const url = `${tls ? 'https' : 'http'}://${host}:${port}`;
  services.listenUrl = url;
  return {
    url,
    services,
    bootstrapKeys,
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await services.close();
    },
    async drain() {
      draining = true;
      const answered = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      let timer: NodeJS.Timeout | undefined;
      const limit = new Promise<void>((resolve) => (timer = setTimeout(resolve, config.shutdownTimeoutMs)));
      const stopWorking = async () => {
        await services.workers?.stop();
        services.workers = null;
      };
      await Promise.all([Promise.race([answered, limit]).then(() => server.closeAllConnections()), stopWorking()]);
      clearTimeout(timer);
      await services.close();
    },
  };
}
