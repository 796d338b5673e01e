// The renderer: one browser per process, a fixed number of warm pages reused for every piece (a new
// page costs ~190 ms, a render on a warm one 10-90 ms), waiters queued when all are busy. A page that
// runs past its time is killed and replaced; a dead browser fails its renders with BrowserCrashed and is
// relaunched by the next render. No Chromium at all is reported, never papered over.
// Nothing runs before it is needed: `locate` finds the Chromium without launching it, the first render
// launches it, and after `idleMs` without a render it is closed (its memory given back) until the next.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'puppeteer-core';
import { puppeteer } from '../../base/packages';
import { BrowserCrashed, RenderFailed, RendererUnavailable, RenderTimeout } from './errors';
import { locateChromium, type ChromiumSource, type Located, type LocateOptions } from './locate';
import { printPdf, type PdfRequest } from './print';
import { Session, type Slot } from './session';
import type { WarmPage } from './page';
import { Permits } from './permits';
import { IdleTimer } from '../../base/idle';
import { messageOf } from '../../base/thrown';

export type { PdfRequest } from './print';

/**
 * `idle`: found (or not looked for yet) and not running, the next render launches it; `running`;
 * `unavailable`: none found, or the last launch failed; `closed`: the renderer was closed.
 */
export type RendererState = 'idle' | 'running' | 'unavailable' | 'closed';

export interface RendererStatus {
  /** a Chromium is running or can be launched */
  available: boolean;
  state: RendererState;
  source?: ChromiumSource;
  executablePath?: string;
  version?: string;
  /** the browser's process id while it runs */
  pid?: number;
  /** why it is not available, or why it is not running */
  reason?: string;
}

/** What an idle renderer's status says: it is not an error, the browser comes with the first render. */
export const IDLE_REASON = 'idle: starts on first render';

export interface Renderer {
  status(): RendererStatus;
  /** Finds the Chromium without launching it, so a missing one is said at start. */
  locate(): Promise<RendererStatus>;
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
  /** close the browser after this long without a render (RENDER_IDLE_MS); 0 or unset: keep it */
  idleMs?: number;
}

/** After a failed launch, renders fail at once with its reason for this long before trying again. */
const RELAUNCH_BACKOFF_MS = 5_000;

type Outcome = { pdf: Uint8Array } | { error: unknown };

/** How long a protocol error waits for the page's crash signal, which may arrive just after it. */
const CRASH_GRACE_MS = 250;

/**
 * A page that crashes mid-print may answer the print command with a protocol error ("Printing
 * failed", "Target closed") a moment before its crash event arrives: such an error is the crash, not
 * the design's fault, so the piece is retried rather than failed.
 */
async function crashOrError(session: Session, warm: WarmPage, error: unknown): Promise<unknown> {
  if (error instanceof RenderFailed || error instanceof RenderTimeout || error instanceof BrowserCrashed) return error;
  let timer: NodeJS.Timeout | undefined;
  const crash = await Promise.race([
    session.failureOf(warm),
    new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), CRASH_GRACE_MS))),
  ]);
  clearTimeout(timer);
  return crash ?? error;
}

class BrowserPool implements Renderer {
  private located?: Located;
  private session?: Promise<Session>;
  private current?: Session;
  private failure?: { error: RendererUnavailable; at: number };
  private closed = false;
  private readonly permits: Permits;
  private readonly idle: IdleTimer;

  constructor(private readonly options: RendererOptions) {
    this.permits = new Permits(Math.max(1, options.pages));
    this.idle = new IdleTimer(options.idleMs ?? 0, () => void this.stopIdle());
  }

  status(): RendererStatus {
    const chromium = this.located?.found ? this.located.chromium : undefined;
    const where = chromium ? { source: chromium.source, executablePath: chromium.executablePath } : {};
    if (this.closed) return { available: false, state: 'closed', ...where, reason: 'the renderer is closed' };
    if (this.failure) return { available: false, state: 'unavailable', ...where, reason: this.failure.error.reason };
    if (this.located && !this.located.found)
      return { available: false, state: 'unavailable', reason: this.located.reason };
    if (!this.current) {
      // not located yet: nothing is known against it, and the first render finds out
      return { available: true, state: 'idle', ...where, reason: IDLE_REASON };
    }
    const { version, alive } = this.current;
    const running = { available: true, state: 'running', ...where, version } as const;
    if (!alive) return { ...running, reason: 'the browser died; the next render relaunches it' };
    return { ...running, pid: this.current.pid };
  }

  async locate(): Promise<RendererStatus> {
    if (!this.located?.found) this.located = await locateChromium(this.options);
    return this.status();
  }

  async start(): Promise<RendererStatus> {
    const done = this.idle.begin();
    try {
      await this.liveSession().catch(() => undefined);
      return this.status();
    } finally {
      done();
    }
  }

  async htmlToPdf(request: PdfRequest): Promise<Uint8Array> {
    if (!(request.widthIn > 0 && request.heightIn > 0 && request.timeoutMs > 0)) {
      throw new RangeError('a render needs a positive sheet size and time limit');
    }
    const done = this.idle.begin();
    try {
      return await this.renderWithPermit(request);
    } finally {
      done();
    }
  }

  private async renderWithPermit(request: PdfRequest): Promise<Uint8Array> {
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
    this.idle.cancel();
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
    const error = await crashOrError(session, warm, outcome.error);
    if (!session.alive) throw error instanceof BrowserCrashed ? error : new BrowserCrashed();
    const pageIsClean = error instanceof RenderFailed && warm.page.url() === 'about:blank';
    if (!pageIsClean) session.replace(slot);
    if (error instanceof RenderFailed) throw error;
    if (error instanceof RenderTimeout || error instanceof BrowserCrashed) throw error;
    if (error instanceof puppeteer().TimeoutError) throw new RenderTimeout(request.timeoutMs);
    throw new RenderFailed(`the browser could not print the artwork: ${messageOf(error)}`);
  }

  /**
   * No render for `idleMs`: the browser is closed and forgotten, so the next render launches a fresh
   * one. The status says `running` until its process has exited.
   */
  private async stopIdle(): Promise<void> {
    if (this.closed) return;
    const pending = this.session;
    this.session = undefined;
    const session = await pending?.catch(() => undefined);
    await session?.close();
    // a render that came meanwhile has launched (and made current) a browser of its own; a browser
    // that died on its own is forgotten too, so the status says idle rather than dead
    if (this.current === session || this.current?.alive === false) this.current = undefined;
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
      const unavailable = error instanceof RendererUnavailable ? error : new RendererUnavailable(messageOf(error));
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
      browser = await puppeteer().launch({
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
      throw new RendererUnavailable(`${what} did not start: ${messageOf(error)}`);
    }
  }
}

export function createRenderer(options: RendererOptions): Renderer {
  return new BrowserPool(options);
}
