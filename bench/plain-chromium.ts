// What the engine's rendering is held against: a plain script on a warm Chromium that prints each side
// to PDF and screenshots it at the three thumbnail widths (PNG), `concurrency` pages at a time, each
// page kept and reused. No queue, database, overlay or storage: the least a renderer with thumbnails
// pays in this browser. Screenshots use a scaled clip within the viewport (captureBeyondViewport off),
// the fastest plain way measured: a viewport resized per scale, or capturing beyond it, took 1.7x as
// long, and a new page per side with a resized viewport (bench/render-core.ts's baseline) 4x.
// Run: node --import tsx bench/plain-chromium.ts [pieces=60] [concurrency=2]
import puppeteer, { type Page } from 'puppeteer-core';
import { locateChromium } from '../engine/print/browser';
import { THUMBNAIL_WIDTHS } from '../engine/print/thumbnails';
import { ownCpuMs, treeCpuMs } from './cpu';

/** A postcard side with bleed (6.25 x 4.25 in), in CSS pixels at 96 per inch. */
const SIDE = { widthIn: 6.25, heightIn: 4.25, width: 600, height: 408 };

async function side(page: Page, html: string): Promise<void> {
  await page.setContent(html, { waitUntil: 'load' });
  await page.pdf({ width: `${SIDE.widthIn}in`, height: `${SIDE.heightIn}in`, printBackground: true });
  for (const width of Object.values(THUMBNAIL_WIDTHS)) {
    await page.screenshot({
      type: 'png',
      captureBeyondViewport: false,
      clip: { x: 0, y: 0, width: SIDE.width, height: SIDE.height, scale: width / SIDE.width },
    });
  }
}

export interface PlainRun {
  /** postcards a second */
  rate: number;
  /** CPU ms a postcard: this process and the browser's */
  cpuMs: number;
}

/**
 * Postcards (front and back from `sides(i)`) rendered, after `warm` pieces to warm the browser up.
 * Chromium is the one the engine would use, launched with the engine's flags.
 */
export async function plainChromium(
  sides: (i: number) => [string, string],
  pieces: number,
  concurrency = 2,
  warm = 6,
): Promise<PlainRun> {
  const located = await locateChromium();
  if (!located.found) throw new Error(located.reason);
  const { executablePath, args, headless, env } = located.chromium;
  const browser = await puppeteer.launch({
    executablePath,
    args,
    headless,
    env: { ...process.env, ...env },
    pipe: true,
  });
  try {
    const pages = await Promise.all(Array.from({ length: concurrency }, () => browser.newPage()));
    await Promise.all(pages.map((p) => p.setViewport({ width: SIDE.width, height: SIDE.height })));
    const run = async (count: number) => {
      let next = 0;
      await Promise.all(
        pages.map(async (page) => {
          while (next < count) for (const html of sides(next++)) await side(page, html);
        }),
      );
    };
    await run(warm);
    // this process and the browser's, not the rest of this process's tree (an engine the bench started)
    const browserPid = browser.process()?.pid;
    const cpu = () => ownCpuMs(process.pid) + (browserPid ? treeCpuMs(browserPid) : 0);
    const [started, cpuBefore] = [performance.now(), cpu()];
    await run(pieces);
    return { rate: pieces / ((performance.now() - started) / 1000), cpuMs: (cpu() - cpuBefore) / pieces };
  } finally {
    await browser.close();
  }
}

if (require.main === module) {
  void (async () => {
    const [pieces = '60', concurrency = '2'] = process.argv.slice(2);
    const html = (i: number) => `<body style="margin:0;font-family:sans-serif"><h1>Hello ${i}</h1></body>`;
    const run = await plainChromium((i) => [html(i), html(i)], Number(pieces), Number(concurrency));
    process.stdout.write(
      `plain warm Chromium, PDF + 3 screenshots a side: ${run.rate.toFixed(1)} pieces/s, ${run.cpuMs.toFixed(0)} ms CPU a piece\n`,
    );
  })();
}
