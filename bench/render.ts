// Rendering through the whole engine (`printpost serve` in its own process, 2 workers): postcards
// rendered per second when created as fast as they render (PDFs, and PDFs with thumbnails), the time
// from create to `rendered` and to the thumbnails at a steady 20 creates per second (p50, p99), and
// the peak RSS of the engine and of its browser. Times come from the outbox's events. Beside the
// throughput, in the same run, a plain script on a warm Chromium renders the same sides (PDF and three
// PNG screenshots each, bench/plain-chromium.ts) and the engine's rate with thumbnails is given as a
// ratio of it (issue 27 asks for at least 2x).
// Run: node --import tsx bench/render.ts [--pg] [--throughput]   (also part of `npm run bench`;
// --throughput: the burst and the plain script only)
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
async function timings(db: Knex, ids: Set<string>): Promise<Timings & { done: boolean }> {
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
  return { ...result, done: result.thumbnails.length === ids.size };
}

/** Waits for every piece's thumbnails; the wall-clock moments the PDFs and the thumbnails were all done. */
async function waitRendered(db: Knex, ids: Set<string>): Promise<Timings & { pdfsAt: number; allAt: number }> {
  let pdfsAt = 0;
  for (;;) {
    const now = await timings(db, ids);
    if (!pdfsAt && now.pdf.length === ids.size) pdfsAt = Date.now();
    if (now.done) return { ...now, pdfsAt, allAt: Date.now() };
    await new Promise((r) => setTimeout(r, 50));
  }
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};

/** Pieces the plain script renders (after its warm-up): about 10 s of its time on this machine. */
const PLAIN_PIECES = 60;

export async function benchRender(postgres: boolean, throughputOnly = false): Promise<void> {
  const database = await freshDatabase(postgres ? 'postgres' : 'sqlite');
  const assets = fs.mkdtempSync(path.join(os.tmpdir(), 'printpost-bench-assets-'));
  const served: Served = await serve({
    DATABASE_URL: database.url,
    ASSET_STORE: assets,
    WORKERS: '2',
    LOG_LEVEL: 'silent',
  });
  unlimited({ DATABASE_URL: database.url });
  await new Promise((r) => setTimeout(r, 2_100));
  const db = /^postgres/.test(database.url)
    ? knex({ client: 'pg', connection: database.url })
    : knex({ client: 'better-sqlite3', connection: { filename: database.url }, useNullAsDefault: true });
  let peak = { own: 0, children: 0 };
  const sampler = setInterval(() => {
    const now = rss(served.child.pid!);
    peak = { own: Math.max(peak.own, now.own), children: Math.max(peak.children, now.children) };
  }, 200);
  try {
    const call = client(served.url, served.keys['test secret']);
    const front = await cardHtml();
    const createOne = async (n: number) => {
      const reply = await call<{ id: string }>('POST', '/v1/postcards', {
        json: {
          to: TO,
          from: FROM,
          use_type: 'marketing',
          front,
          back: front,
          merge_variables: { name: `Reader ${n}`, code: n },
        },
      });
      if (reply.status !== 200) throw new Error(JSON.stringify(reply.body));
      return reply.body.id;
    };
    // warm the browser and the pages
    await waitRendered(db, new Set(await Promise.all([1, 2, 3, 4].map(createOne))));

    const label = postgres ? 'postgres' : 'sqlite  ';
    const burst = 200;
    const started = Date.now();
    const cpu = () => ({ own: ownCpuMs(served.child.pid!), tree: treeCpuMs(served.child.pid!) });
    const cpuBefore = cpu();
    const ids = new Set(await Promise.all(Array.from({ length: burst }, (_, i) => createOne(i))));
    const { pdfsAt, allAt } = await waitRendered(db, ids);
    const cpuAfter = cpu();
    const engineCpuMs = (cpuAfter.tree - cpuBefore.tree) / burst;
    const engineOwnCpuMs = (cpuAfter.own - cpuBefore.own) / burst;
    const rate = (at: number) =>
      `${((at - started) / 1000).toFixed(1)} s = ${(burst / ((at - started) / 1000)).toFixed(1)} pieces/s`;
    process.stdout.write(
      `${label} throughput: ${burst} postcards (2 sides) created at once: PDFs (rendered) in ${rate(pdfsAt)}; with 3 thumbnails a side in ${rate(allAt)}\n`,
    );
    // the engine is idle again (its queue is empty), so the script has the machine as the engine had it
    const merged = (i: number) => front.replace('{{name}}', `Reader ${i}`).replace('{{code}}', String(i));
    const plain = await plainChromium((i) => [merged(i), merged(i)], PLAIN_PIECES, 2);
    const engineRate = burst / ((allAt - started) / 1000);
    process.stdout.write(
      `${label} plain warm Chromium script (2 pages; PDF + 3 PNG screenshots a side): ${plain.rate.toFixed(1)} pieces/s; ` +
        `the engine with thumbnails ${engineRate.toFixed(1)} pieces/s = ${(engineRate / plain.rate).toFixed(2)}x it; ` +
        `CPU a piece (process and browser): engine ${engineCpuMs.toFixed(0)} ms (${engineOwnCpuMs.toFixed(0)} in its own process: API, queue, database, overlay, thumbnails), script ${plain.cpuMs.toFixed(0)} ms\n`,
    );
    if (throughputOnly) return;

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
    const latencies = await waitRendered(db, steady);
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
    served.child.kill('SIGTERM');
    await new Promise((r) => served.child.once('exit', r));
    await db.destroy();
    await database.drop();
    fs.rmSync(assets, { recursive: true, force: true });
  }
}

if (require.main === module) {
  void (async () => {
    const throughputOnly = process.argv.includes('--throughput');
    await benchRender(false, throughputOnly);
    if (process.argv.includes('--pg')) await benchRender(true, throughputOnly);
  })();
}
