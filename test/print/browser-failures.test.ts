// The renderer when things go wrong: a design that would lay out for minutes is killed at its time
// limit, a killed browser and a crashed page fail only the renders in flight, and the next render works
// again; without any Chromium, renders fail with the reason.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import test from 'ava';
import type { Page } from 'puppeteer-core';
import {
  BrowserCrashed,
  createRenderer,
  locateChromium,
  RendererUnavailable,
  RenderTimeout,
  type PdfRequest,
} from '../../engine/print/browser';
import { readPdf } from './browser-pdf';

const pages: Page[] = [];
const renderer = createRenderer({ pages: 1, systemPaths: [], onPageOpened: (page) => pages.push(page) });

test.before(async () => {
  await renderer.start();
});
test.after.always(() => renderer.close());

const card = (html: string, timeoutMs = 10_000): PdfRequest => ({ html, widthIn: 6.25, heightIn: 4.25, timeoutMs });
/** Tens of thousands of blocks: Chromium needs minutes to paginate them, with no script at all. */
const hanging = () => card('<div>x</div>'.repeat(60_000), 2_000);

async function rendersAgain(t: { true(value: boolean, message?: string): void }) {
  const read = await readPdf(await renderer.htmlToPdf(card('<p>next piece</p>')));
  t.true(read.text[0].includes('next piece'), 'the next piece renders');
}

test.serial('a design that lays out for too long fails with RenderTimeout, and the pool goes on', async (t) => {
  await t.throwsAsync(renderer.htmlToPdf(hanging()), { instanceOf: RenderTimeout });
  await rendersAgain(t);
});

test.serial('a killed browser fails the render in flight with BrowserCrashed; the next one relaunches', async (t) => {
  const pid = renderer.status().pid!;
  const inFlight = renderer.htmlToPdf({ ...hanging(), timeoutMs: 20_000 });
  await new Promise((resolve) => setTimeout(resolve, 300));
  process.kill(pid, 'SIGKILL');
  await t.throwsAsync(inFlight, { instanceOf: BrowserCrashed });
  await rendersAgain(t);
  t.not(renderer.status().pid, pid, 'a new browser');
});

test.serial('a crashed page fails its render with BrowserCrashed and is replaced', async (t) => {
  const pid = renderer.status().pid;
  const inFlight = renderer.htmlToPdf({ ...hanging(), timeoutMs: 20_000 });
  await new Promise((resolve) => setTimeout(resolve, 300));
  const page = pages.filter((p) => !p.isClosed()).at(-1)!;
  const cdp = await page.createCDPSession();
  void cdp.send('Page.crash').catch(() => undefined);
  await t.throwsAsync(inFlight, { instanceOf: BrowserCrashed });
  await rendersAgain(t);
  t.is(renderer.status().pid, pid, 'the same browser');
});

test('without a Chromium, the status says why and renders fail with RendererUnavailable', async (t) => {
  const missing = createRenderer({ pages: 1, chromiumPath: '/nonexistent/chromium' });
  const status = await missing.start();
  t.false(status.available);
  t.regex(status.reason ?? '', /CHROMIUM_PATH=\/nonexistent\/chromium is not an executable file/);
  const error = await t.throwsAsync(missing.htmlToPdf(card('<p>x</p>')), { instanceOf: RendererUnavailable });
  t.regex(error.reason, /CHROMIUM_PATH/);
  await missing.close();
});

test('CHROMIUM_PATH must be an executable file', async (t) => {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'printpost-locate-')), 'chrome');
  fs.writeFileSync(file, '');
  t.teardown(() => fs.rmSync(path.dirname(file), { recursive: true, force: true }));
  t.like(await locateChromium({ chromiumPath: file }), { found: false });
  fs.chmodSync(file, 0o755);
  const located = await locateChromium({ chromiumPath: file });
  t.like(located, { found: true, chromium: { source: 'CHROMIUM_PATH', executablePath: file, headless: true } });
  const shell = path.join(path.dirname(file), 'chrome-headless-shell');
  fs.copyFileSync(file, shell);
  fs.chmodSync(shell, 0o755);
  t.like(await locateChromium({ chromiumPath: shell }), { chromium: { headless: 'shell' } });
});
