// `npm run fuzz -- --minutes N [--seed S] [--databases sqlite,postgres]`: the test suite's fuzz property
// run for long against an engine in its own process (bench/engine-server.ts, no render workers), on each
// database in turn (both by default, sharing the minutes), in rounds of fresh seeds. Prints each round's
// seed (FUZZ_SEED replays one in the test) and, at the end, the figures: requests by kind, answers by
// status, the slowest `GET /health` of a side loop that asks it all along, the engine's peak RSS, and the
// descriptors and upload files left after the run. Fails past HEALTH_CEILING_MS or RSS_CEILING_BYTES.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { startChild } from '../bench/lib';
import { freshDatabase, type Db } from '../test/helpers/engine';
import { DATABASES } from '../test/helpers/matrix';
import { fuzz, noFigures, type FuzzFigures } from '../test/fuzz/property';
import { closeAgent } from '../test/fuzz/send';
import {
  DESCRIPTOR_SLACK,
  HEALTH_CEILING_MS,
  RSS_CEILING_BYTES,
  mb,
  openDescriptors,
  peakRssBytes,
  probeHealth,
  rssBytes,
  uploadFilesLeft,
} from '../test/fuzz/vitals';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Asks `GET /health` every 100 ms until stopped: the slowest answer and what the fuzzer was sending when
 * it was asked, the failures, the largest RSS seen.
 */
function watchHealth(url: string, pid: number, figures: FuzzFigures) {
  const seen = { probes: 0, maxMs: 0, slowestDuring: '', failures: 0, maxRss: 0 };
  let running = true;
  const loop = (async () => {
    while (running) {
      const during = figures.inFlight;
      const { status, ms } = await probeHealth(url);
      seen.probes += 1;
      if (ms > seen.maxMs) Object.assign(seen, { maxMs: ms, slowestDuring: during });
      if (status !== 200) seen.failures += 1;
      seen.maxRss = Math.max(seen.maxRss, rssBytes(pid));
      await sleep(100);
    }
  })();
  return {
    seen,
    stop: async () => {
      running = false;
      await loop;
      return seen;
    },
  };
}

/** Fuzzes the running engine for `minutes`; what went wrong lands in `problems`; returns the next seed. */
async function fuzzFor(
  db: Db,
  engine: Awaited<ReturnType<typeof startChild>>,
  uploadDir: string,
  minutes: number,
  seed: number,
  problems: string[],
): Promise<number> {
  const pid = engine.process.pid!;
  let exited: string | undefined;
  engine.process.on('exit', (code, signal) => (exited = `the engine exited (${code ?? signal})`));
  const key = engine.lines.find((l) => l.startsWith('KEY '))!.slice(4);
  const target = { url: engine.url, auth: `Basic ${Buffer.from(`${key}:`).toString('base64')}` };
  const figures = noFigures();
  // A first short round opens what the engine keeps open (pool connections, lazily opened files), so the
  // descriptors counted after the run are compared with an engine in its working state.
  await fuzz(target, { runs: 50, seed });
  await sleep(500);
  const descriptorsBefore = openDescriptors(pid);
  const watch = watchHealth(engine.url, pid, figures);
  const until = Date.now() + minutes * 60_000;
  const started = Date.now();
  try {
    while (Date.now() < until && !exited) {
      process.stdout.write(`${db}: round with seed ${seed}\n`);
      await fuzz(target, { runs: 1000, seed, figures });
      seed = (seed + 1) % 2 ** 31;
    }
  } catch (error) {
    problems.push(`FAILED with seed ${seed}\n${(error as Error).message}`);
  }
  const health = await watch.stop();
  const seconds = (Date.now() - started) / 1000;
  process.stdout.write(
    `${db}: ${figures.requests} requests, ${figures.raw} raw, ${figures.uploads} uploads (${figures.aborted} aborted) ` +
      `in ${seconds.toFixed(0)} s (${((figures.requests + figures.raw + figures.uploads) / seconds).toFixed(0)}/s); ` +
      `answers by status ${JSON.stringify(figures.statuses)}\n`,
  );
  if (exited || !fs.existsSync(`/proc/${pid}`)) problems.push(exited ?? 'the engine exited');
  else {
    await sleep(1000); // aborted uploads are cleaned up once the engine notices the dropped connection
    const descriptorsAfter = openDescriptors(pid);
    const files = uploadFilesLeft(uploadDir);
    const peak = peakRssBytes(pid);
    process.stdout.write(
      `${db}: GET /health asked ${health.probes} times alongside, slowest ${health.maxMs.toFixed(0)} ms ` +
        `(ceiling ${HEALTH_CEILING_MS} ms), ${health.failures} not 200; engine RSS at most ${mb(health.maxRss)} sampled, ` +
        `peak ${mb(peak)} (VmHWM; ceiling ${mb(RSS_CEILING_BYTES)}); descriptors ${descriptorsBefore} before, ` +
        `${descriptorsAfter} after; ${files.length} upload files left\n`,
    );
    process.stdout.write(
      `${db}: the slowest GET /health was asked during ${health.slowestDuring.replace(/\s+/g, ' ').slice(0, 300)}\n`,
    );
    if (health.maxMs > HEALTH_CEILING_MS) problems.push(`GET /health took ${health.maxMs.toFixed(0)} ms`);
    if (health.failures) problems.push(`GET /health failed ${health.failures} times`);
    if (peak > RSS_CEILING_BYTES) problems.push(`the engine's RSS peaked at ${mb(peak)}`);
    if (descriptorsAfter > descriptorsBefore + DESCRIPTOR_SLACK)
      problems.push(`descriptors grew from ${descriptorsBefore} to ${descriptorsAfter}`);
    if (files.length) problems.push(`upload files left: ${files.join(', ')}`);
  }
  return seed;
}

async function runOn(db: Db, minutes: number, seed: number): Promise<{ failed: boolean; seed: number }> {
  const database = await freshDatabase(db);
  const uploadDir = fs.mkdtempSync(path.join(os.tmpdir(), 'printpost-fuzz-uploads-'));
  const assets = fs.mkdtempSync(path.join(os.tmpdir(), 'printpost-fuzz-assets-'));
  const engine = await startChild('engine-server.ts', {
    DATABASE_URL: database.url,
    UPLOAD_DIR: uploadDir,
    ASSET_STORE: assets,
  });
  const problems: string[] = [];
  try {
    seed = await fuzzFor(db, engine, uploadDir, minutes, seed, problems);
  } catch (error) {
    problems.push((error as Error).message);
  } finally {
    engine.process.kill('SIGINT');
    await sleep(500);
    await database.drop();
    fs.rmSync(uploadDir, { recursive: true, force: true });
    fs.rmSync(assets, { recursive: true, force: true });
  }
  process.stdout.write(
    `${db}: ${problems.length ? problems.join('\n') : 'no 5xx, every error in the spec body, /health answering, nothing left, engine alive'}\n`,
  );
  return { failed: problems.length > 0, seed };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { minutes: { type: 'string', default: '1' }, seed: { type: 'string' }, databases: { type: 'string' } },
  });
  const minutes = Number(values.minutes);
  const dbs = values.databases ? (values.databases.split(',') as Db[]) : DATABASES;
  let seed = values.seed ? Number(values.seed) : Date.now() % 2 ** 31;
  let failed = false;
  for (const db of dbs) {
    const outcome = await runOn(db, minutes / dbs.length, seed);
    seed = outcome.seed;
    failed ||= outcome.failed;
    if (failed) break;
  }
  closeAgent();
  process.exitCode = failed ? 1 : 0;
}

void main();
