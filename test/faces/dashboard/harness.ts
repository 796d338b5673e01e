// The dashboard's test harness. Over plain HTTP: `signInHttp` signs in as a browser would (the sign-in
// form's token and cookie, then the key) and gives a client that carries the session cookie and reads
// each page's CSRF token. In a real browser: `openBrowser` launches the Chromium the engine renders with
// (engine/print/browser/locate.ts: CHROMIUM_PATH, a system one, else the one `npm ci` brings) through
// puppeteer-core; `shoot` saves a page at laptop and phone widths under test-output/dashboard/, checks
// axe-core finds no serious or critical violation and that nothing scrolls sideways at 375 px.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'puppeteer-core';
import { puppeteer } from '../../../engine/base/packages';
import { locateChromium } from '../../../engine/print/browser/locate';

export const SHOTS = path.resolve(__dirname, '../../../test-output/dashboard');

// ---------------------------------------------------------------- HTTP

export interface PageReply {
  status: number;
  headers: Headers;
  text: string;
  /** the Location of a redirect */
  location: string | null;
}

/** The value a Set-Cookie sets for `name`, if it sets one. */
export function cookieFrom(headers: Headers, name: string): string | undefined {
  for (const line of headers.getSetCookie()) {
    const [pair] = line.split(';');
    const eq = pair.indexOf('=');
    if (pair.slice(0, eq).trim() === name) return pair.slice(eq + 1).trim();
  }
  return undefined;
}

/** The first `_csrf` hidden field of a page. */
export function csrfOf(html: string): string {
  const match = /name="_csrf" value="([^"]*)"/.exec(html);
  if (!match) throw new Error('no _csrf field on the page');
  return match[1];
}

export async function request(
  base: string,
  method: string,
  pathname: string,
  options: { cookie?: string; form?: Record<string, string>; headers?: Record<string, string> } = {},
): Promise<PageReply> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.cookie) headers.cookie = options.cookie;
  let body: string | undefined;
  if (options.form) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(options.form).toString();
  }
  const response = await fetch(`${base}${pathname}`, { method, headers, body, redirect: 'manual' });
  return {
    status: response.status,
    headers: response.headers,
    text: await response.text(),
    location: response.headers.get('location'),
  };
}

/** Posts the sign-in form with `key`: the answer (303 on success) and the session cookie it set. */
export async function postSignIn(base: string, key: string): Promise<{ reply: PageReply; cookie?: string }> {
  const form = await request(base, 'GET', '/dashboard/sign-in');
  const pre = cookieFrom(form.headers, 'printpost_sign_in');
  const reply = await request(base, 'POST', '/dashboard/sign-in', {
    cookie: `printpost_sign_in=${pre}`,
    form: { _csrf: csrfOf(form.text), key },
  });
  const value = cookieFrom(reply.headers, 'printpost_dashboard');
  return { reply, cookie: value ? `printpost_dashboard=${value}` : undefined };
}

export interface SessionClient {
  cookie: string;
  get(pathname: string): Promise<PageReply>;
  /** posts `form` with the CSRF token read from `from` (default: the overview) */
  post(pathname: string, form: Record<string, string>, from?: string): Promise<PageReply>;
}

export async function signInHttp(base: string, key: string): Promise<SessionClient> {
  const { reply, cookie } = await postSignIn(base, key);
  if (reply.status !== 303 || !cookie) throw new Error(`sign-in failed: ${reply.status} ${reply.text.slice(0, 200)}`);
  return {
    cookie,
    get: (pathname) => request(base, 'GET', pathname, { cookie }),
    post: async (pathname, form, from = '/dashboard') => {
      const page = await request(base, 'GET', from, { cookie });
      return request(base, 'POST', pathname, { cookie, form: { _csrf: csrfOf(page.text), ...form } });
    },
  };
}

// ---------------------------------------------------------------- browser

export const LAPTOP = { width: 1280, height: 800 };
export const PHONE = { width: 375, height: 740, isMobile: true, hasTouch: true, deviceScaleFactor: 1 };

export interface DashboardBrowser {
  browser: Browser;
  page: Page;
  /** CSP violations and page errors the browser reported so far */
  problems: string[];
  close(): Promise<void>;
}

export async function openBrowser(): Promise<DashboardBrowser> {
  const located = await locateChromium({ chromiumPath: process.env.CHROMIUM_PATH });
  if (!located.found) throw new Error(`no Chromium for the dashboard tests: ${located.reason}`);
  const { chromium } = located;
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'printpost-dashboard-profile-'));
  const browser = await puppeteer().launch({
    executablePath: chromium.executablePath,
    headless: chromium.headless,
    // the renderer's dead proxy keeps artwork from reaching the network; these pages are on loopback
    args: [...chromium.args.filter((a) => !a.startsWith('--proxy')), `--user-data-dir=${profile}`],
    env: { ...process.env, ...chromium.env },
    pipe: true,
    timeout: 60_000,
  });
  const page = await browser.newPage();
  const problems: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(String(error)));
  page.on('dialog', (dialog) => void dialog.accept());
  await page.setViewport(LAPTOP);
  return {
    browser,
    page,
    problems,
    close: async () => {
      await browser.close();
      fs.rmSync(profile, { recursive: true, force: true });
    },
  };
}

const axeSource = () => fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/** axe-core's serious and critical violations on the page as it is, one line each. */
export async function axeViolations(page: Page): Promise<string[]> {
  // evaluated through the DevTools protocol, which the page's CSP does not govern (it refuses inline script)
  await page.evaluate(axeSource());
  const results = await page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run(): Promise<{ violations: unknown[] }> } }).axe;
    return axe.run();
  });
  return (results.violations as { id: string; impact: string; help: string; nodes: { target: unknown }[] }[])
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} at ${JSON.stringify(v.nodes.map((n) => n.target))}`);
}

/** Whether the page is wider than its viewport (it scrolls sideways). */
export async function scrollsSideways(page: Page): Promise<boolean> {
  return Boolean(await page.evaluate('document.documentElement.scrollWidth > window.innerWidth + 1'));
}

export interface ShotReport {
  violations: string[];
  sideways: boolean;
}

/**
 * Saves `name`-laptop.png and `name`-phone.png of the page now shown, checking each width with axe, and
 * the phone width for sideways scrolling; the viewport is back at laptop width afterwards.
 */
export async function shoot(page: Page, name: string): Promise<ShotReport> {
  fs.mkdirSync(SHOTS, { recursive: true });
  const violations: string[] = [];
  await page.setViewport(LAPTOP);
  await page.screenshot({ path: path.join(SHOTS, `${name}-laptop.png`), fullPage: true });
  violations.push(...(await axeViolations(page)).map((v) => `laptop: ${v}`));
  await page.setViewport(PHONE);
  const sideways = await scrollsSideways(page);
  await page.screenshot({ path: path.join(SHOTS, `${name}-phone.png`), fullPage: true });
  violations.push(...(await axeViolations(page)).map((v) => `phone: ${v}`));
  await page.setViewport(LAPTOP);
  return { violations, sideways };
}

/** Goes to `pathname` and waits for the page to load. */
export async function visit(page: Page, base: string, pathname: string): Promise<void> {
  await page.goto(`${base}${pathname}`, { waitUntil: 'load' });
}

/** The natural widths of the page's proof images once each has loaded or failed. */
export const proofWidths = (page: Page) =>
  page.$$eval('.proofs img', (imgs) =>
    Promise.all(
      imgs.map(
        (img) =>
          new Promise<number>((resolve) => {
            const image = img as unknown as {
              complete: boolean;
              naturalWidth: number;
              onload: unknown;
              onerror: unknown;
            };
            if (image.complete) resolve(image.naturalWidth);
            else {
              image.onload = () => resolve(image.naturalWidth);
              image.onerror = () => resolve(0);
            }
          }),
      ),
    ),
  );
