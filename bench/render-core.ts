// The renderer core alone, no engine: postcards (front and back, an inlined photo, merged text, 6.25 x
// 4.25 in) rendered PDF-only and PDF + thumbnails through the warm-page pool, against a straightforward
// script (a new page per side, page.screenshot at three scales for thumbnails); then a 60-page letter.
// Prints pieces/s, and the peak RSS of this process and of the browser's process tree.
// Each measurement runs in its own process (a clean peak RSS), loaded the way `bin/printpost` loads the
// engine from a checkout (tsx's CommonJS hook only: its ES module hook would transform large .mjs
// files and add memory that production never sees).
// Run: node --import tsx bench/render-core.ts [pieces=60] [concurrency=2]
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import puppeteer, { type Browser } from 'puppeteer-core';
import sharp from 'sharp';
import { createRenderer, locateChromium, type Renderer } from '../engine/print/browser';
import { renderThumbnails, THUMBNAIL_WIDTHS, thumbnails } from '../engine/print/thumbnails';

const [MODE, pieces = '60', concurrency = '2'] = process.argv[2]?.startsWith('--')
  ? process.argv.slice(2)
  : ['', ...process.argv.slice(2)];
const PIECES = Number(pieces);
const CONCURRENCY = Number(concurrency);
const CARD = { widthIn: 6.25, heightIn: 4.25 };

/** A deterministic photo-like JPEG (smooth colour waves and a little noise), ~90 KB. */
async function photo(): Promise<Buffer> {
  const [w, h] = [900, 600];
  const px = Buffer.alloc(w * h * 3);
  let seed = 42;
  const noise = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff) * 24;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const i = (y * w + x) * 3;
      const n = noise();
      px[i] = 120 + 80 * Math.sin(x / 37) + n;
      px[i + 1] = 110 + 70 * Math.cos(y / 23 + x / 91) + n;
      px[i + 2] = 90 + 60 * Math.sin((x + y) / 53) + n;
    }
  }
  return sharp(px, { raw: { width: w, height: h, channels: 3 } })
    .jpeg({ quality: 82 })
    .toBuffer();
}

function sides(image: string, i: number): [string, string] {
  const style =
    '<style>body{margin:0;font-family:sans-serif}.card{position:relative;width:6.25in;height:4.25in}</style>';
  const front = `${style}<div class="card" style="background:linear-gradient(135deg,#0a3d62,#e58e26)">
    <img src="${image}" style="position:absolute;left:.3in;top:.3in;width:3in;height:2in">
    <h1 style="position:absolute;left:3.5in;top:.3in;color:#fff">Spring sale</h1>
    <p style="position:absolute;left:.3in;top:2.6in;color:#fff;font-size:13pt;width:5.5in">Dear Customer ${i},
    20% off everything at our Main Street store until May 31. Bring this card, code SPRING${i}.</p></div>`;
  const back = `${style}<div class="card"><p style="padding:.4in;width:2.6in;font-size:11pt">Hello Customer ${i},
    thank you for shopping with us for ${i % 12} years. Your loyalty number is ${100000 + i}.</p></div>`;
  return [front, back];
}

/** kB of the process `pid` and its descendants: resident (shared pages counted in each) and proportional. */
function treeMemory(pid: number): { rss: number; pss: number } {
  const children = new Map<number, number[]>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // exited meanwhile
    }
  }
  const read = (file: string, field: string) => {
    try {
      return Number(new RegExp(`${field}:\\s+(\\d+)`).exec(fs.readFileSync(file, 'utf8'))?.[1] ?? 0);
    } catch {
      return 0; // exited meanwhile
    }
  };
  const total = { rss: 0, pss: 0 };
  const visit = (p: number): void => {
    total.rss += read(`/proc/${p}/status`, 'VmRSS');
    total.pss += read(`/proc/${p}/smaps_rollup`, 'Pss');
    for (const child of children.get(p) ?? []) visit(child);
  };
  visit(pid);
  return total;
}

interface Peak {
  node: number;
  browserRss: number;
  browserPss: number;
  /** the longest the event loop was blocked (what an HTTP request in the same process would wait), ms */
  loopDelay: number;
}

/** Samples peak memory (MB) of this process and of the browser tree while `run` runs. */
async function measured<T>(browserPid: () => number | undefined, run: () => Promise<T>) {
  const peak: Peak = { node: 0, browserRss: 0, browserPss: 0, loopDelay: 0 };
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  const sample = () => {
    peak.node = Math.max(peak.node, process.memoryUsage().rss / 1048576);
    const pid = browserPid();
    if (!pid) return;
    const tree = treeMemory(pid);
    peak.browserRss = Math.max(peak.browserRss, tree.rss / 1024);
    peak.browserPss = Math.max(peak.browserPss, tree.pss / 1024);
  };
  const timer = setInterval(sample, 100);
  const started = performance.now();
  try {
    const result = await run();
    sample();
    peak.loopDelay = loop.max / 1e6;
    return { result, seconds: (performance.now() - started) / 1000, peak };
  } finally {
    clearInterval(timer);
    loop.disable();
  }
}

/** Runs `work(i)` for every piece, `CONCURRENCY` at a time. */
async function eachPiece(work: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < PIECES) await work(next++);
    }),
  );
}

function report(label: string, run: { seconds: number; peak: Peak }) {
  const rate = (PIECES / run.seconds).toFixed(1);
  const { node, browserRss, browserPss, loopDelay } = run.peak;
  process.stdout.write(
    `${label.padEnd(40)} ${rate.padStart(5)} pieces/s (${run.seconds.toFixed(1)} s); peak node ${node.toFixed(0)} MB, ` +
      `browser tree RSS ${browserRss.toFixed(0)} MB / PSS ${browserPss.toFixed(0)} MB; event loop blocked up to ${loopDelay.toFixed(0)} ms\n`,
  );
}

type Thumbnailer = (pdf: Uint8Array) => Promise<unknown>;

async function pool(renderer: Renderer, image: string, thumbnailer?: Thumbnailer): Promise<void> {
  await eachPiece(async (i) => {
    for (const html of sides(image, i)) {
      const pdf = await renderer.htmlToPdf({ html, ...CARD, timeoutMs: 30_000 });
      if (thumbnailer) await thumbnailer(pdf);
    }
  });
}

/** What one would write first: a page per side, screenshots for thumbnails. */
async function baseline(browser: Browser, image: string, withThumbnails: boolean): Promise<void> {
  await eachPiece(async (i) => {
    for (const html of sides(image, i)) {
      const page = await browser.newPage();
      await page.setContent(html, { waitUntil: 'load' });
      await page.pdf({ width: '6.25in', height: '4.25in', printBackground: true });
      if (withThumbnails) {
        for (const width of Object.values(THUMBNAIL_WIDTHS)) {
          await page.setViewport({ width: 600, height: 408, deviceScaleFactor: width / 600 });
          await page.screenshot({ type: 'png', clip: { x: 0, y: 0, width: 600, height: 408 } });
        }
      }
      await page.close();
    }
  });
}

async function letter(renderer: Renderer): Promise<void> {
  const paragraph =
    'The quick brown fox jumps over the lazy dog while the committee reviews the annual report. '.repeat(30);
  const html = Array.from(
    { length: 60 },
    (_, i) =>
      `<section style="break-after:page;padding:1in;font:11pt serif"><h2>Page ${i + 1}</h2><p>${paragraph}</p></section>`,
  ).join('');
  await thumbnails(await renderer.htmlToPdf({ html: '<p>warm-up</p>', widthIn: 8.5, heightIn: 11, timeoutMs: 10_000 }));
  const pdfRun = await measured(
    () => renderer.status().pid,
    () => renderer.htmlToPdf({ html, widthIn: 8.5, heightIn: 11, timeoutMs: 60_000, maxPages: 60 }),
  );
  process.stdout.write(
    `60-page letter: PDF in ${(pdfRun.seconds * 1000).toFixed(0)} ms (${(pdfRun.result.length / 1024).toFixed(0)} KB)\n`,
  );
  const thumbRun = await measured(
    () => renderer.status().pid,
    () => thumbnails(pdfRun.result),
  );
  process.stdout.write(
    `60-page letter: ${thumbRun.result.length} thumbnail sets in ${(thumbRun.seconds * 1000).toFixed(0)} ms (${((thumbRun.seconds * 1000) / 60).toFixed(0)} ms a page; peak RSS node ${thumbRun.peak.node.toFixed(0)} MB; event loop blocked up to ${thumbRun.peak.loopDelay.toFixed(0)} ms)\n`,
  );
}

const MODES: Record<string, (image: string) => Promise<void>> = {
  '--pool-pdf': (image) => poolMode('pool, PDF only', image),
  '--pool-thumbnails-inline': (image) => poolMode('pool, PDF + thumbnails on the JS thread', image, renderThumbnails),
  '--pool-thumbnails': (image) => poolMode('pool, PDF + thumbnails in threads', image, thumbnails),
  '--letter': () => withPool(letter),
  '--baseline-pdf': (image) =>
    withBrowser(async (browser, pid) => {
      await baseline(browser, image, false);
      report('baseline (page per side), PDF only', await measured(pid, () => baseline(browser, image, false)));
    }),
  '--baseline-screenshots': (image) =>
    withBrowser(async (browser, pid) => {
      await baseline(browser, image, false);
      report('baseline, PDF + screenshots', await measured(pid, () => baseline(browser, image, true)));
    }),
};

function poolMode(label: string, image: string, thumbnailer?: Thumbnailer): Promise<void> {
  return withPool(async (renderer) => {
    await pool(renderer, image, thumbnailer); // warm-up: fonts, caches, JIT, threads
    const pid = () => renderer.status().pid;
    report(label, await measured(pid, () => pool(renderer, image, thumbnailer)));
  });
}

async function withPool(run: (renderer: Renderer) => Promise<void>): Promise<void> {
  const renderer = createRenderer({ pages: CONCURRENCY });
  const started = await renderer.start();
  if (!started.available) throw new Error(started.reason);
  await run(renderer);
  await renderer.close();
}

async function withBrowser(run: (browser: Browser, pid: () => number | undefined) => Promise<void>): Promise<void> {
  const located = await locateChromium();
  if (!located.found) throw new Error(located.reason);
  const { executablePath, args, headless } = located.chromium;
  const browser = await puppeteer.launch({ executablePath, args, headless, pipe: true });
  await run(browser, () => browser.process()?.pid);
  await browser.close();
}

async function main(): Promise<void> {
  if (MODE) {
    await MODES[MODE](`data:image/jpeg;base64,${(await photo()).toString('base64')}`);
    return;
  }
  const located = await locateChromium();
  process.stdout.write(
    `${PIECES} postcards (2 sides each), ${CONCURRENCY} at a time; Chromium: ${located.found ? located.chromium.source : 'none'}\n`,
  );
  for (const mode of Object.keys(MODES)) {
    const args = ['--require', 'tsx/cjs', __filename, mode, String(PIECES), String(CONCURRENCY)];
    process.stdout.write(
      execFileSync(process.execPath, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }),
    );
  }
}

void main();
