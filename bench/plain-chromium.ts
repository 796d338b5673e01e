// What the engine's rendering is held against (issue 39): a plain, competent script on one warm
// Chromium (the engine's own, launched with its flags), two pages working at once, each kept and
// reused. For every postcard it does the work the engine does for one with thumbnails: each side
// (front and back, the same merged HTML) printed to PDF at the sheet's size (6x9 with bleed:
// 9.25 x 6.25 in) and, with `thumbnails`, drawn as PNGs at the engine's three thumbnail widths
// (engine/print/thumbnails/render.ts: 320, 640, 1280 px) by screenshots at the matching device scale;
// every file is written to disk. No queue, database, overlay or composition.
// Screenshots use a scaled clip within the viewport (captureBeyondViewport off): a viewport resized per
// scale, or capturing beyond it, took 1.7x as long, and a new page per side 4x.
// Run: node --import tsx bench/plain-chromium.ts [pieces=60] [concurrency=2] [--pdf-only]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import puppeteer, { type Page } from 'puppeteer-core';
import { locateChromium } from '../engine/print/browser';
import { THUMBNAIL_WIDTHS } from '../engine/print/thumbnails';
import { ownCpuMs, treeCpuMs } from './cpu';

/** A side's sheet in inches, bleed included (a 6x9 postcard unless told). */
export interface Sheet {
  widthIn: number;
  heightIn: number;
}

export const POSTCARD_6X9: Sheet = { widthIn: 9.25, heightIn: 6.25 };

async function side(page: Page, html: string, sheet: Sheet, thumbnails: boolean, file: string): Promise<void> {
  await page.setContent(html, { waitUntil: 'load' });
  const pdf = await page.pdf({
    width: `${sheet.widthIn}in`,
    height: `${sheet.heightIn}in`,
    printBackground: true,
    margin: { top: 0, right: 0, bottom: 0, left: 0 },
  });
  const writes = [fs.promises.writeFile(`${file}.pdf`, pdf)];
  if (thumbnails) {
    const [width, height] = [Math.round(sheet.widthIn * 96), Math.round(sheet.heightIn * 96)];
    for (const [size, px] of Object.entries(THUMBNAIL_WIDTHS)) {
      const png = await page.screenshot({
        type: 'png',
        captureBeyondViewport: false,
        clip: { x: 0, y: 0, width, height, scale: px / width },
      });
      writes.push(fs.promises.writeFile(`${file}_${size}.png`, png));
    }
  }
  await Promise.all(writes);
}

export interface PlainRun {
  /** postcards a second */
  rate: number;
  /** CPU ms a postcard: this process and the browser's */
  cpuMs: number;
}

export interface PlainOptions {
  concurrency?: number;
  /** pieces rendered first, untimed, to warm the browser */
  warm?: number;
  thumbnails?: boolean;
  sheet?: Sheet;
}

/** Postcards (front and back from `sides(i)`) rendered, after a few untimed ones to warm the browser. */
export async function plainChromium(
  sides: (i: number) => [string, string],
  pieces: number,
  { concurrency = 2, warm = 6, thumbnails = true, sheet = POSTCARD_6X9 }: PlainOptions = {},
): Promise<PlainRun> {
  const located = await locateChromium();
  if (!located.found) throw new Error(located.reason);
  const { executablePath, args, headless, env } = located.chromium;
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'printpost-plain-'));
  const browser = await puppeteer.launch({
    executablePath,
    args,
    headless,
    env: { ...process.env, ...env },
    pipe: true,
  });
  try {
    const pages = await Promise.all(Array.from({ length: concurrency }, () => browser.newPage()));
    const viewport = { width: Math.round(sheet.widthIn * 96), height: Math.round(sheet.heightIn * 96) };
    await Promise.all(pages.map((p) => p.setViewport(viewport)));
    const run = async (count: number) => {
      let next = 0;
      await Promise.all(
        pages.map(async (page) => {
          while (next < count) {
            const i = next++;
            const [front, back] = sides(i);
            await side(page, front, sheet, thumbnails, path.join(out, `${i}_front`));
            await side(page, back, sheet, thumbnails, path.join(out, `${i}_back`));
          }
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
    fs.rmSync(out, { recursive: true, force: true });
  }
}

if (require.main === module) {
  void (async () => {
    const [pieces = '60', concurrency = '2'] = process.argv.slice(2).filter((a) => !a.startsWith('--'));
    const thumbnails = !process.argv.includes('--pdf-only');
    const html = (i: number) => `<body style="margin:0;font-family:sans-serif"><h1>Hello ${i}</h1></body>`;
    const run = await plainChromium((i) => [html(i), html(i)], Number(pieces), {
      concurrency: Number(concurrency),
      thumbnails,
    });
    process.stdout.write(
      `plain warm Chromium, 6x9 PDF${thumbnails ? ' + 3 PNG sizes' : ''} a side: ${run.rate.toFixed(1)} pieces/s, ${run.cpuMs.toFixed(0)} ms CPU a piece\n`,
    );
  })();
}
