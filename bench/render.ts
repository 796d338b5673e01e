// Rendering through the whole engine (`printpost serve` in its own process, its default WORKERS), held against a
// plain script on a warm Chromium (bench/plain-chromium.ts) in the same run, as issue 39 asks: 300 6x9
// postcards (RENDER_BENCH_PIECES) rendered by the engine with thumbnails, by the script with
// thumbnails (PDF and three PNG sizes a side), by the engine PDF-only (RENDER_THUMBNAILS=off) and by
// the script PDF-only, each created (engine) as fast as they render; both ratios printed, with the
// CPU a piece took and the load average beside every rate (the machine is shared). Then the time from
// create to `rendered` and to the thumbnails at a steady 20 creates per second (p50, p99), and the peak
// RSS of the engine and of its browser. Times come from the outbox's events.
// Run: node --import tsx bench/render.ts [--pg] [--throughput]   (also part of `npm run bench`;
// --throughput: the four throughput runs and their ratios only)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import knex, { type Knex } from 'knex';
import sharp from 'sharp';
import { serve, unlimited, type Served } from '../test/helpers/cli';
import { freshDatabase } from '../test/helpers/engine';
import { client } from '../test/helpers/http';
import { TO, FROM } from '../test/helpers/mail';
import { plainChromium } from './plain-chromium';
import { ownCpuMs, treeCpuMs } from './cpu';
import { VARIABLES } from '../engine/platform/config';

async function cardHtml(): Promise<string> {
  const png = await sharp({ create: { width: 600, height: 400, channels: 3, background: '#3a7bd5' } })
    .png()
    .toBuffer();
  return (
    `<html><body style="margin:0;font-family:sans-serif"><img src="data:image/png;base64,${png.toString('base64')}" style="width:3in">` +
    '<h1>Hello {{name}}</h1><p>Your code: {{code}}</p></body></html>'
  );
}

/** Resident set sizes (kB) of a process and, separately, of its descendants (the browser). */
export function rss(pid: number): { own: number; children: number } {
  const parents = new Map<number, number>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      parents.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // gone meanwhile
    }
  }
  const kb = (p: number) => {
    try {
      return Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${p}/status`, 'utf8'))?.[1] ?? 0);
    } catch {
      return 0;
    }
  };
  const descendants: number[] = [];
  const walk = (p: number) => {
    for (const [child, parent] of parents) {
      if (parent !== p) continue;
      descendants.push(child);
      walk(child);
    }
  };
  walk(pid);
  return { own: kb(pid), children: descendants.reduce((sum, p) => sum + kb(p), 0) };
}

interface Timings {
  /** ms from create to `rendered` (the PDF) */
  pdf: number[];
  /** ms from create to the thumbnails recorded */
  thumbnails: number[];
}

/** Per piece, from the outbox: when it was rendered and when its thumbnails followed. */
async function timings(db: Knex, ids: Set<string>, thumbnails: boolean): Promise<Timings & { done: boolean }> {
  const created = new Map<string, number>();
  for (const row of (await db('objects')
    .whereIn('id', [...ids])
    .select('id', 'body')) as { id: string; body: string }[])
    created.set(row.id, Date.parse((JSON.parse(row.body) as { date_created: string }).date_created));
  const events = (await db('events')
    .whereIn('reference_id', [...ids])
    .whereIn('event_type', ['postcard.rendered_pdf', 'postcard.rendered_thumbnails', 'postcard.failed'])
    .select('reference_id', 'event_type', 'date_created')) as {
    reference_id: string;
    event_type: string;
    date_created: string | Date;
  }[];
  const result: Timings = { pdf: [], thumbnails: [] };
  for (const e of events) {
    if (e.event_type === 'postcard.failed') throw new Error(`${e.reference_id} failed`);
    const ms = new Date(e.date_created).getTime() - created.get(e.reference_id)!;
    (e.event_type === 'postcard.rendered_pdf' ? result.pdf : result.thumbnails).push(ms);
  }
  return { ...result, done: (thumbnails ? result.thumbnails : result.pdf).length === ids.size };
}

/** Waits for every piece's thumbnails; the wall-clock moments the PDFs and the thumbnails were all done. */
async function waitRendered(
  db: Knex,
  ids: Set<string>,
  thumbnails: boolean,
): Promise<Timings & { pdfsAt: number; allAt: number }> {
  let pdfsAt = 0;
  for (;;) {
    const now = await timings(db, ids, thumbnails);
    if (!pdfsAt && now.pdf.length === ids.size) pdfsAt = Date.now();
    if (now.done) return { ...now, pdfsAt, allAt: Date.now() };
    await new Promise((r) => setTimeout(r, 100));
  }
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};

const loadavg = () => fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

interface Engine {
  served: Served;
  db: Knex;
  createOne(n: number): Promise<string>;
  close(): Promise<void>;
}

/** `printpost serve` with 2 workers on a fresh database, its rate limit lifted and its browser warm. */
async function startEngine(postgres: boolean, front: string, thumbnails: boolean): Promise<Engine> {
  const database = await freshDatabase(postgres ? 'postgres' : 'sqlite');
  const assets = fs.mkdtempSync(path.join(os.tmpdir(), 'printpost-bench-assets-'));
  const served: Served = await serve({
    DATABASE_URL: database.url,
    ASSET_STORE: assets,
    // the test helper starts engines without workers: this one gets the engine's default
    WORKERS: process.env.RENDER_BENCH_WORKERS ?? VARIABLES.workers.default,
    LOG_LEVEL: 'silent',
    RENDER_THUMBNAILS: thumbnails ? 'on' : 'off',
    // the engine as configured by default, unless the bench is told otherwise (to try other settings)
    ...(process.env.RENDER_PAGES ? { RENDER_PAGES: process.env.RENDER_PAGES } : {}),
  });
  unlimited({ DATABASE_URL: database.url });
  await new Promise((r) => setTimeout(r, 2_100));
  const db = /^postgres/.test(database.url)
    ? knex({ client: 'pg', connection: database.url })
    : knex({ client: 'better-sqlite3', connection: { filename: database.url }, useNullAsDefault: true });
  const call = client(served.url, served.keys['test secret']);
  const createOne = async (n: number) => {
    const reply = await call<{ id: string }>('POST', '/v1/postcards', {
      json: {
        to: TO,
        from: FROM,
        size: '6x9',
        use_type: 'marketing',
        front,
        back: front,
        merge_variables: { name: `Reader ${n}`, code: n },
      },
    });
    if (reply.status !== 200) throw new Error(JSON.stringify(reply.body));
    return reply.body.id;
  };
  const engine: Engine = {
    served,
    db,
    createOne,
    close: async () => {
      served.child.kill('SIGTERM');
      await new Promise((r) => served.child.once('exit', r));
      await db.destroy();
      await database.drop();
      fs.rmSync(assets, { recursive: true, force: true });
    },
  };
  // warm the browser, the pages and the threads
  await waitRendered(db, new Set(await Promise.all([1, 2, 3, 4].map(createOne))), thumbnails);
  return engine;
}

interface Burst {
  rate: number;
  seconds: number;
  /** CPU ms a postcard, the engine's process tree (and its own process apart) */
  cpuMs: number;
  ownCpuMs: number;
  load: string;
}

/** `count` postcards created at once, until every one is rendered (with its thumbnails when on). */
async function burst(engine: Engine, count: number, thumbnails: boolean): Promise<Burst> {
  const pid = engine.served.child.pid!;
  const cpu = () => ({ own: ownCpuMs(pid), tree: treeCpuMs(pid) });
  const started = Date.now();
  const before = cpu();
  const ids = new Set(await Promise.all(Array.from({ length: count }, (_, i) => engine.createOne(i))));
  const { pdfsAt, allAt } = await waitRendered(engine.db, ids, thumbnails);
  const after = cpu();
  const seconds = ((thumbnails ? allAt : pdfsAt) - started) / 1000;
  return {
    rate: count / seconds,
    seconds,
    cpuMs: (after.tree - before.tree) / count,
    ownCpuMs: (after.own - before.own) / count,
    load: loadavg(),
  };
}

/** Postcards the bench renders in each of its four throughput runs (issue 39: 300 6x9 postcards). */
const PIECES = Number(process.env.RENDER_BENCH_PIECES ?? 300);

/**
 * Issue 39's check, in one run: the engine with thumbnails, the plain script with thumbnails, the engine
 * PDF-only, the script PDF-only (interleaved, so each pair meets the same machine), and both ratios.
 */
export async function renderRatios(postgres: boolean, pieces = PIECES): Promise<void> {
  const label = postgres ? 'postgres' : 'sqlite  ';
  const front = await cardHtml();
  const merged = (i: number) => front.replace('{{name}}', `Reader ${i}`).replace('{{code}}', String(i));
  const runs: Record<string, { rate: number; cpuMs: number; load: string }> = {};
  for (const thumbnails of [true, false]) {
    const what = thumbnails ? 'with thumbnails' : 'PDF only';
    const engine = await startEngine(postgres, front, thumbnails);
    let result: Burst;
    try {
      result = await burst(engine, pieces, thumbnails);
    } finally {
      await engine.close();
    }
    process.stdout.write(
      `${label} engine, ${pieces} 6x9 postcards ${what}: ${result.rate.toFixed(2)} pieces/s (${result.seconds.toFixed(1)} s); ` +
        `CPU a piece ${result.cpuMs.toFixed(0)} ms (${result.ownCpuMs.toFixed(0)} in its own process); load ${result.load}\n`,
    );
    const plain = await plainChromium((i) => [merged(i), merged(i)], pieces, { concurrency: 2, thumbnails });
    const load = loadavg();
    process.stdout.write(
      `${label} plain script, ${pieces} 6x9 postcards ${what}: ${plain.rate.toFixed(2)} pieces/s; CPU a piece ${plain.cpuMs.toFixed(0)} ms; load ${load}\n`,
    );
    runs[`engine ${what}`] = result;
    runs[`script ${what}`] = { ...plain, load };
  }
  const ratio = (engine: string, script: string) =>
    (runs[`engine ${engine}`].rate / runs[`script ${script}`].rate).toFixed(2);
  // Issue 39 words the PDF-only figure against "the script's rate", the script it describes (with
  // thumbnails); the script PDF-only is printed beside it, the stricter comparison.
  process.stdout.write(
    `${label} RATIOS: engine with thumbnails / script with thumbnails ${ratio('with thumbnails', 'with thumbnails')}x (issue 39: >= 2x); ` +
      `engine PDF only / script with thumbnails ${ratio('PDF only', 'with thumbnails')}x (issue 39: >= 3x); ` +
      `engine PDF only / script PDF only ${ratio('PDF only', 'PDF only')}x\n`,
  );
}

export async function benchRender(postgres: boolean, throughputOnly = false): Promise<void> {
  await renderRatios(postgres);
  if (throughputOnly) return;
  const front = await cardHtml();
  const engine = await startEngine(postgres, front, true);
  const { served, db, createOne } = engine;
  let peak = { own: 0, children: 0 };
  const sampler = setInterval(() => {
    const now = rss(served.child.pid!);
    peak = { own: Math.max(peak.own, now.own), children: Math.max(peak.children, now.children) };
  }, 200);
  const label = postgres ? 'postgres' : 'sqlite  ';
  try {
    const steady = new Set<string>();
    const perSecond = 20;
    const total = perSecond * 20;
    const t0 = Date.now();
    const pending: Promise<void>[] = [];
    for (let i = 0; i < total; i++) {
      const due = t0 + (i * 1000) / perSecond;
      await new Promise((r) => setTimeout(r, Math.max(0, due - Date.now())));
      pending.push(createOne(i).then((id) => void steady.add(id)));
    }
    await Promise.all(pending);
    const latencies = await waitRendered(db, steady, true);
    const spread = (values: number[]) =>
      `p50 ${percentile(values, 50)} ms, p99 ${percentile(values, 99)} ms, max ${Math.max(...values)} ms`;
    process.stdout.write(
      `${label} at ${perSecond} creates/s for ${total / perSecond} s: create -> rendered (PDF) ${spread(latencies.pdf)}; create -> thumbnails ${spread(latencies.thumbnails)}\n`,
    );
    process.stdout.write(
      `${label} peak RSS: engine ${(peak.own / 1024).toFixed(0)} MB, browser (all its processes) ${(peak.children / 1024).toFixed(0)} MB\n`,
    );
  } finally {
    clearInterval(sampler);
    await engine.close();
  }
}

if (require.main === module) {
  void (async () => {
    const throughputOnly = process.argv.includes('--throughput');
    await benchRender(false, throughputOnly);
    if (process.argv.includes('--pg')) await benchRender(true, throughputOnly);
  })();
}
