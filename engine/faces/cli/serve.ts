// `printpost serve` and `printpost work`: a process that answers the API, works jobs, or both, with a
// start banner that says what it found (keys, workers, renderer, USPS identity).
import { parseArgs } from 'node:util';
import { loadConfig, describeConfig, type EngineConfig, registeredRangeOf, uspsOf } from '../../platform/config';
import { missingSentence, REGISTERED_OFF } from '../../catalog/usps-identity';
import { s10Number } from '../../print/overlay/tracking-number';
import { openServices, startEngine } from '../server';
import { startWorkers } from '../workers';
import type { Services } from '../../domain/services';
import { keepServingThroughDefects } from './defects';

export const SERVE_HELP = {
  serve: `Usage: printpost serve [--port N] [--host H] [--no-workers]

Starts the HTTP API and, unless --no-workers is given (or WORKERS=0), the background workers that render
mailpieces. Settings come from the environment (see printpost --help). SIGTERM drains it for a rolling
restart: no new connections, requests in flight answered, running jobs given SHUTDOWN_TIMEOUT_MS and then
handed to another process at once; a second SIGTERM stops it now.`,
  work: `Usage: printpost work

Works background jobs (rendering) without serving HTTP: run it beside engines started with
serve --no-workers to split API and workers across processes. On SIGINT or SIGTERM running jobs get
SHUTDOWN_TIMEOUT_MS to finish, then are handed to another process at once.`,
};

export async function serve(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: { port: { type: 'string' }, host: { type: 'string' }, 'no-workers': { type: 'boolean' } },
  });
  const config = loadConfig({
    ...process.env,
    ...(values.port ? { PORT: values.port } : {}),
    ...(values.host ? { HOST: values.host } : {}),
  });
  const engine = await startEngine(config, { workers: !values['no-workers'] });
  const out = [
    `printpost engine listening on ${engine.url}  (API base URL: ${engine.url}/v1)`,
    ...describeConfig(config, engine.services.store.label),
    workersLine(engine.services),
    productionLine(config),
  ];
  if (engine.bootstrapKeys) {
    const k = engine.bootstrapKeys;
    out.push(`Created account "${config.bootstrapAccount}". Its keys are shown only now:`);
    out.push(
      `  test secret:       ${k.test}`,
      `  test publishable:  ${k.testPub}`,
      `  live secret:       ${k.live}`,
      `  live publishable:  ${k.livePub}`,
    );
    out.push(`Try: curl ${engine.url}/v1/addresses -u ${k.test}:`);
  }
  process.stdout.write(`${out.join('\n')}\n`);
  keepServingThroughDefects(config.logLevel);
  stopOnSignals(() => engine.drain(), config.shutdownTimeoutMs);
}

/** What the banner says of this process's workers and renderer: never silent about a missing Chromium. */
function workersLine(services: Services): string {
  const workers = services.workers;
  if (!workers) return 'Workers: off in this process (renders wait for a printpost work or serve process)';
  const renderer = workers.renderer();
  if (!renderer) return 'Workers: events only in this process (WORKERS=0: renders wait for another process)';
  const at = `Workers: ${services.config.workers} at once`;
  if (!renderer.available)
    return `${at}; RENDERER UNAVAILABLE: ${renderer.reason} (pieces will fail until it is fixed)`;
  if (renderer.state === 'idle') return `${at}; renderer: ${renderer.reason} (${renderer.source ?? 'a'} Chromium)`;
  return `${at}; renderer: ${renderer.version ?? 'Chromium'} (${renderer.source})`;
}

/** What the banner says of live production: the USPS identity in use, or what is missing of it. */
function productionLine(config: EngineConfig): string {
  const usps = uspsOf(config);
  const registered = registeredLine(config);
  if (!usps.ready)
    return `Production: LIVE PIECES WAIT: ${missingSentence(usps.missing)} (test pieces render with sample marks); ${registered}`;
  const { mailerId, crid, permit } = usps.identity;
  return `Production: USPS Mailer ID ${mailerId}, CRID ${crid}, permit ${permit.number} ${permit.city}, ${permit.state}; ${registered}`;
}

/** Registered mail: the S10 range its numbers are drawn from, or that live registered letters are refused. */
function registeredLine(config: EngineConfig): string {
  const range = registeredRangeOf(config);
  if (!range) return `REGISTERED MAIL OFF: ${REGISTERED_OFF}`;
  return `registered mail numbered ${s10Number(range.indicator, range.first)} to ${s10Number(range.indicator, range.last)}`;
}

export async function work(): Promise<void> {
  const config = loadConfig();
  const services = await openServices(config);
  services.workers = await startWorkers(services);
  process.stdout.write(
    `${['printpost worker started', ...describeConfig(config, services.store.label), workersLine(services), productionLine(config)].join('\n')}\n`,
  );
  keepServingThroughDefects(config.logLevel);
  // its workers stop as a server's do: running jobs get their time, then are handed back
  stopOnSignals(() => services.close(), config.shutdownTimeoutMs);
}

/**
 * SIGTERM or SIGINT drains (RunningEngine.drain, or a worker's stop) and exits 0; a second signal, or the drain outlasting
 * its time by 5 s, exits 1 at once: jobs not handed back are taken again when their leases end.
 */
function stopOnSignals(drain: () => Promise<void>, timeoutMs: number): void {
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) {
      process.stderr.write(`${signal} again: stopping now\n`);
      process.exit(1);
    }
    stopping = true;
    setTimeout(() => {
      process.stderr.write('the drain took too long: stopping now\n');
      process.exit(1);
    }, timeoutMs + 5_000).unref();
    drain().then(
      () => process.exit(0),
      (error: unknown) => {
        process.stderr.write(`drain failed: ${String(error)}\n`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
