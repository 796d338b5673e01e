// The renderer: one browser per process, a fixed number of warm pages reused for every piece (a new
// page costs ~190 ms, a render on a warm one 10-90 ms), waiters queued when all are busy. A page that
// runs past its time is killed and replaced; a dead browser fails its renders with BrowserCrashed and is
// relaunched by the next render. No Chromium at all is reported, never papered over.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import puppeteer, { TimeoutError, type Browser, type Page } from 'puppeteer-core';
import { BrowserCrashed, RenderFailed, RendererUnavailable, RenderTimeout } from './errors';
import { locateChromium, type ChromiumSource, type Located, type LocateOptions } from './locate';
import { printPdf, type PdfRequest } from './print';
import { Session, type Slot } from './session';
import { Permits } from './permits';

export type { PdfRequest } from './print';

export interface RendererStatus {
  /** a Chromium is running or can be launched */
  available: boolean;
  source?: ChromiumSource;
  executablePath?: string;
  version?: string;
  /** the browser's process id while it runs */
  pid?: number;
  /** why it is not available (or not started yet) */
  reason?: string;
}

export interface Renderer {
  status(): RendererStatus;
  /** Launches the browser and warms its pages (else the first render does). */
  start(): Promise<RendererStatus>;
  htmlToPdf(request: PdfRequest): Promise<Uint8Array>;
  close(): Promise<void>;
}

export interface RendererOptions extends LocateOptions {
  /** warm pages (RENDER_PAGES) */
  pages: number;
  /** renders before a page is swapped for a fresh one */
  recycleAfter?: number;
  /** told of every warm page opened (diagnostics; tests crash one through the DevTools protocol) */
  onPageOpened?: (page: Page) => void;
}

/** After a failed launch, renders fail at once with its reason for this long before trying again. */
const RELAUNCH_BACKOFF_MS = 5_000;

type Outcome = { pdf: Uint8Array } | { error: unknown };

class BrowserPool implements Renderer {
  private located?: Located;
  private session?: Promise<Session>;
  private current?: Session;
  private failure?: { error: RendererUnavailable; at: number };
  private closed = false;
  private readonly permits: Permits;

  constructor(private readonly options: RendererOptions) {
    this.permits = new Permits(Math.max(1, options.pages));
  }

  status(): RendererStatus {
    const chromium = this.located?.found ? this.located.chromium : undefined;
    const where = chromium ? { source: chromium.source, executablePath: chromium.executablePath } : {};
    if (this.failure) return { available: false, ...where, reason: this.failure.error.reason };
    if (this.closed) return { available: false, ...where, reason: 'the renderer is closed' };
    if (!this.current) return { available: false, ...where, reason: 'not started yet' };
    const { version, alive } = this.current;
    if (!alive)
      return { available: true, ...where, version, reason: 'the browser died; the next render relaunches it' };
    return { available: true, ...where, version, pid: this.current.pid };
  }

  async start(): Promise<RendererStatus> {
    await this.liveSession().catch(() => undefined);
    return this.status();
  }

  async htmlToPdf(request: PdfRequest): Promise<Uint8Array> {
    if (!(request.widthIn > 0 && request.heightIn > 0 && request.timeoutMs > 0)) {
      throw new RangeError('a render needs a positive sheet size and time limit');
    }
    const release = await this.permits.acquire();
    try {
      const session = await this.liveSession();
      const slot = session.take();
      try {
        return await this.renderOn(session, slot, request);
      } finally {
        session.release(slot);
      }
    } finally {
      release();
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    const session = this.session;
    this.session = undefined;
    await (await session?.catch(() => undefined))?.close();
  }

  private async renderOn(session: Session, slot: Slot, request: PdfRequest): Promise<Uint8Array> {
    const warm = await session.pageOf(slot);
    const deadline = Date.now() + request.timeoutMs;
    let timer: NodeJS.Timeout | undefined;
    const outcome: Outcome = await Promise.race([
      printPdf(warm.page, request, deadline).then(
        (pdf) => ({ pdf }),
        (error: unknown) => ({ error }),
      ),
      new Promise<Outcome>((resolve) => {
        timer = setTimeout(() => resolve({ error: new RenderTimeout(request.timeoutMs) }), request.timeoutMs);
      }),
      session.failureOf(warm).then((error) => ({ error })),
    ]);
    clearTimeout(timer);
    if ('pdf' in outcome) {
      if (++warm.uses >= (this.options.recycleAfter ?? 1000)) session.replace(slot);
      return outcome.pdf;
    }
    const error = outcome.error;
    if (!session.alive) throw error instanceof BrowserCrashed ? error : new BrowserCrashed();
    const pageIsClean = error instanceof RenderFailed && warm.page.url() === 'about:blank';
    if (!pageIsClean) session.replace(slot);
    if (error instanceof RenderFailed) throw error;
    if (error instanceof RenderTimeout || error instanceof BrowserCrashed) throw error;
    if (error instanceof TimeoutError) throw new RenderTimeout(request.timeoutMs);
    throw new RenderFailed(`the browser could not print the artwork: ${(error as Error).message}`);
  }

  /** The running browser, launched when there is none (or the last one died). */
  private async liveSession(): Promise<Session> {
    if (this.closed) throw new RendererUnavailable('the renderer is closed');
    if (this.failure && Date.now() - this.failure.at < RELAUNCH_BACKOFF_MS) throw this.failure.error;
    const pending = (this.session ??= this.launch());
    const session = await pending;
    if (session.alive) return session;
    if (this.session === pending) this.session = undefined;
    return this.liveSession();
  }

  private async launch(): Promise<Session> {
    try {
      const session = await this.launchOnce();
      this.failure = undefined;
      this.current = session;
      void session.gone.then(() => {
        if (this.current === session) this.session = undefined;
      });
      return session;
    } catch (error) {
      this.session = undefined;
      const unavailable =
        error instanceof RendererUnavailable ? error : new RendererUnavailable((error as Error).message);
      this.failure = { error: unavailable, at: Date.now() };
      throw unavailable;
    }
  }

  private async launchOnce(): Promise<Session> {
    // a missing Chromium is looked for again at the next launch (after the back-off), a found one kept
    if (!this.located?.found) this.located = await locateChromium(this.options);
    if (!this.located.found) throw new RendererUnavailable(this.located.reason);
    const chromium = this.located.chromium;
    const profile = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'printpost-chrome-profile-'));
    let browser: Browser | undefined;
    let session: Session | undefined;
    try {
      browser = await puppeteer.launch({
        executablePath: chromium.executablePath,
        headless: chromium.headless,
        args: [...chromium.args, `--user-data-dir=${profile}`],
        env: { ...process.env, ...chromium.env },
        pipe: true,
        handleSIGINT: false,
        handleSIGTERM: false,
        handleSIGHUP: false,
        timeout: 30_000,
      });
      // the tab Chromium opens at start would hold a renderer process for nothing
      for (const tab of await browser.pages()) await tab.close();
      session = new Session(browser, await browser.version(), profile, this.options.pages, this.options.onPageOpened);
      await session.ready();
      return session;
    } catch (error) {
      // a browser that started but failed before its session took it over (its tabs, its version) is
      // closed here, or its process would outlive the failed launch
      if (session) await session.close();
      else await browser?.close().catch(() => browser?.process()?.kill('SIGKILL'));
      await fs.promises.rm(profile, { recursive: true, force: true });
      const what = `${chromium.source} Chromium ${chromium.executablePath}`;
      throw new RendererUnavailable(`${what} did not start: ${(error as Error).message}`);
    }
  }
}

export function createRenderer(options: RendererOptions): Renderer {
  return new BrowserPool(options);
}
