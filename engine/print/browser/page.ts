// One warm page of the pool: its own browser context (so its renderer process is its own, and killing
// it touches no other page), JavaScript off, every request refused but data: URLs.
import type { Browser, BrowserContext, HTTPRequest, Page } from 'puppeteer-core';

export interface WarmPage {
  context: BrowserContext;
  page: Page;
  /** renders done on it (the pool recycles a page after many, against slow leaks) */
  uses: number;
  /** settles with an error when the page's renderer crashes */
  crashed: Promise<Error>;
}

/**
 * data: URLs load; any other subresource is refused. A navigation (a meta refresh, a frame's src) is
 * answered "204 No Content", which cancels it and keeps the document: refused outright, Chromium would
 * swap the document for an error page (and a later setContent into that page can take the browser down).
 */
function refuseNetwork(request: HTTPRequest): void {
  if (request.isInterceptResolutionHandled()) return;
  const settled = request.url().startsWith('data:')
    ? request.continue()
    : request.isNavigationRequest()
      ? request.respond({ status: 204, body: '' })
      : request.abort('blockedbyclient');
  settled.catch(() => undefined);
}

export async function openWarmPage(browser: Browser): Promise<WarmPage> {
  const context = await browser.createBrowserContext();
  try {
    const page = await context.newPage();
    const crashed = new Promise<Error>((resolve) => {
      page.once('error', (error: Error) => resolve(error));
      page.once('close', () => resolve(new Error('the page was closed')));
    });
    await page.setJavaScriptEnabled(false);
    await page.setRequestInterception(true);
    page.on('request', refuseNetwork);
    return { context, page, uses: 0, crashed };
  } catch (error) {
    await context.close().catch(() => undefined);
    throw error;
  }
}

/** Closes the page's context, which ends its renderer even in the middle of a long layout. */
export async function discardWarmPage(warm: WarmPage): Promise<void> {
  await warm.page.close().catch(() => undefined);
  await warm.context.close().catch(() => undefined);
}
