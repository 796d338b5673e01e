// One launched browser and its warm pages. The pool owns at most one at a time; when the browser dies
// the session says so once (`gone`) and the pool launches a new one for the next render.
import fs from 'node:fs';
import type { Browser, Page } from 'puppeteer-core';
import { BrowserCrashed } from './errors';
import { discardWarmPage, openWarmPage, type WarmPage } from './page';
import { messageOf } from '../../base/thrown';

/** How long a browser is given to close before its process is killed. */
const CLOSE_GRACE_MS = 5_000;

export interface Slot {
  warm: Promise<WarmPage>;
  busy: boolean;
}

export class Session {
  readonly slots: Slot[];
  readonly gone: Promise<BrowserCrashed>;
  alive = true;
  private closing = false;

  constructor(
    readonly browser: Browser,
    readonly version: string,
    private readonly profileDir: string,
    pages: number,
    private readonly onPageOpened?: (page: Page) => void,
  ) {
    process.once('exit', this.removeProfileNow);
    this.gone = new Promise((resolve) => {
      browser.once('disconnected', () => {
        this.alive = false;
        this.profileRemoved = this.removeProfile();
        resolve(
          new BrowserCrashed(this.closing ? 'the renderer was closed' : 'the browser rendering the artwork died'),
        );
      });
    });
    this.slots = Array.from({ length: pages }, () => ({ warm: this.open(), busy: false }));
  }

  private readonly failures = new WeakMap<WarmPage, Promise<BrowserCrashed>>();

  /**
   * Settles when the page's renderer or the whole browser dies. One promise per page, so the renders
   * racing it add reactions that go with the page (recycled), not with the long-lived browser.
   */
  failureOf(warm: WarmPage): Promise<BrowserCrashed> {
    let failure = this.failures.get(warm);
    if (!failure) {
      const crashed = warm.crashed.then(
        (e) => new BrowserCrashed(`the page rendering the artwork crashed: ${e.message}`),
      );
      failure = Promise.race([crashed, this.gone]);
      this.failures.set(warm, failure);
    }
    return failure;
  }

  get pid(): number | undefined {
    return this.browser.process()?.pid;
  }

  /** Resolves once every page is warm (a page that fails to open fails the start). */
  async ready(): Promise<void> {
    await Promise.all(this.slots.map((slot) => slot.warm));
  }

  /** A free slot; the pool's permits guarantee there is one. */
  take(): Slot {
    const slot = this.slots.find((s) => !s.busy);
    if (!slot) throw new Error('no free page: the pool let more renders in than it has pages');
    slot.busy = true;
    return slot;
  }

  release(slot: Slot): void {
    slot.busy = false;
  }

  /** Kills the slot's page (a hung layout, a crash, many uses) and warms a fresh one in its place. */
  replace(slot: Slot): void {
    const old = slot.warm;
    slot.warm = this.open();
    void old.then(discardWarmPage, () => undefined);
  }

  /** The slot's page, reopened once if it could not be opened; BrowserCrashed when the browser is gone. */
  async pageOf(slot: Slot): Promise<WarmPage> {
    try {
      return await slot.warm;
    } catch {
      if (!this.alive) throw new BrowserCrashed();
      slot.warm = this.open();
      try {
        return await slot.warm;
      } catch (error) {
        // a browser that cannot open pages is as good as dead: the next render relaunches it
        await this.close();
        throw new BrowserCrashed(`the browser could not open a page: ${messageOf(error)}`);
      }
    }
  }

  async close(): Promise<void> {
    this.closing = true;
    if (this.alive) {
      // puppeteer's close waits for the process to exit, without a limit: a browser that does not
      // answer would keep the session (and the renderer's state) running for ever
      let timer: NodeJS.Timeout | undefined;
      const closed = await Promise.race([
        this.browser.close().then(
          () => true,
          () => false,
        ),
        new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), CLOSE_GRACE_MS))),
      ]);
      clearTimeout(timer);
      if (!closed) this.browser.process()?.kill('SIGKILL');
    }
    await this.gone;
    await this.profileRemoved;
  }

  private profileRemoved?: Promise<void>;

  /** The browser's temporary profile goes once its process has exited (it writes there until then). */
  private async removeProfile(): Promise<void> {
    const child = this.browser.process();
    if (child && child.exitCode === null && child.signalCode === null) {
      await new Promise((resolve) => child.once('exit', resolve));
    }
    await fs.promises.rm(this.profileDir, { recursive: true, force: true, maxRetries: 3 }).catch(() => undefined);
    process.removeListener('exit', this.removeProfileNow);
  }

  /** When the engine exits without closing the renderer (the browser is killed with it). */
  private readonly removeProfileNow = () => fs.rmSync(this.profileDir, { recursive: true, force: true });

  private open(): Promise<WarmPage> {
    const warm = openWarmPage(this.browser);
    warm.then(
      (w) => this.onPageOpened?.(w.page),
      () => undefined,
    ); // a failure is met by whoever takes the slot
    return warm;
  }
}
