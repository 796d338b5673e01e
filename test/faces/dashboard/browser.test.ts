// The dashboard in a real browser (puppeteer-core and the Chromium the engine renders with): the pages a
// person walks through, each saved at laptop and phone widths (test-output/dashboard/), checked with
// axe-core and for sideways scrolling at 375 px, with no CSP violation reported by the browser.
// SQLite only: these tests are about the pages; the storage their data comes through is covered on
// both databases by the API suites and by the dashboard's HTTP suites beside this file.
import test, { type ExecutionContext } from 'ava';
import { startEngine, type TestEngine } from '../../helpers/engine';
import { client } from '../../helpers/http';
import { postcard } from '../../helpers/mail';
import { openBrowser, shoot, visit, type DashboardBrowser } from './harness';

let engine: TestEngine;
let browser: DashboardBrowser;

test.before(async () => {
  engine = await startEngine({ db: 'sqlite', workers: true });
  browser = await openBrowser();
});

test.after.always(async () => {
  await browser?.close();
  await engine?.close();
});

/** Screenshots of the page shown, at both widths, with no serious axe finding and no sideways scroll. */
async function looksRight(t: ExecutionContext, name: string): Promise<void> {
  const report = await shoot(browser.page, name);
  t.deepEqual(report.violations, [], `${name}: axe`);
  t.false(report.sideways, `${name}: scrolls sideways at 375 px`);
}

const text = (selector: string) => browser.page.$eval(selector, (e) => e.textContent ?? '');

test.serial(
  'sign in, follow a postcard from create to its thumbnail, cancel it, visit every page, sign out',
  async (t) => {
    const { page, problems } = browser;
    await visit(page, engine.url, '/dashboard');
    t.true(page.url().endsWith('/dashboard/sign-in'), 'without a session the dashboard asks to sign in');
    await looksRight(t, 'sign-in');

    await page.type('#key', engine.keys.test);
    await Promise.all([page.waitForNavigation(), page.click('form[action="/dashboard/sign-in"] button')]);
    t.true(page.url().endsWith('/dashboard'));
    t.regex(await text('.mode'), /test mode/);

    // a postcard made through the API shows on the dashboard, and its thumbnail appears once rendered
    const api = client(engine.url, engine.keys.test);
    const created = await api('POST', '/v1/postcards', {
      json: postcard({ description: 'Spring <b>sale</b>', metadata: { batch: 'spring' } }),
    });
    t.is(created.status, 200, JSON.stringify(created.body));
    const id: string = created.body.id;
    await visit(page, engine.url, `/dashboard/mail/${id}`);
    t.is(await text('#piece-description'), 'Spring <b>sale</b>', 'HTML in a description is shown as text');
    // the page reloads itself while the piece renders (assets/dashboard.js)
    await page.waitForSelector('img.thumb', { timeout: 60_000 });
    const loaded = await page.$eval('img.thumb', (img) => img.complete && img.naturalWidth > 0);
    t.true(loaded, 'the thumbnail loads from the dashboard');
    // the PDF the page frames is served to this session (not to another: see security.test.ts)
    await page.waitForSelector('iframe.pdf', { timeout: 60_000 });
    const pdf = await page.evaluate(
      `fetch(document.querySelector('iframe.pdf').src).then(async (r) => [r.status, r.headers.get('content-type'), (await r.text()).slice(0, 5)])`,
    );
    t.deepEqual(pdf, [200, 'application/pdf', '%PDF-']);
    await looksRight(t, 'piece');

    await visit(page, engine.url, '/dashboard');
    await looksRight(t, 'overview');
    await visit(page, engine.url, '/dashboard/mail?kind=postcards');
    t.regex(await text('table.pieces'), new RegExp(id));
    await looksRight(t, 'mail');

    // cancel (the confirmation dialog is accepted by the harness)
    await visit(page, engine.url, `/dashboard/mail/${id}`);
    await Promise.all([page.waitForNavigation(), page.click('#cancel-piece')]);
    t.is(await text('#piece-status'), 'cancelled');
    t.regex(await text('.notice'), /cancelled/);
    t.is(await page.$('#cancel-piece'), null, 'no cancel button once cancelled');
    t.is((await api('GET', `/v1/postcards/${id}`)).status, 404, 'the API agrees it is gone');

    await visit(page, engine.url, '/dashboard/addresses');
    await page.type('input[name="primary_line"]', 'deliverable');
    await page.type('input[name="zip_code"]', '11111');
    await Promise.all([page.waitForNavigation(), page.click('#verify-form button')]);
    t.regex(await text('#verdict'), /USPS delivers mail to this address/);
    await looksRight(t, 'addresses');

    for (const name of ['keys', 'settings', 'health']) {
      await visit(page, engine.url, `/dashboard/${name}`);
      await looksRight(t, name);
    }

    await Promise.all([page.waitForNavigation(), page.click('.sign-out button')]);
    t.true(page.url().endsWith('/dashboard/sign-in'));
    await visit(page, engine.url, '/dashboard');
    t.true(page.url().endsWith('/dashboard/sign-in'), 'signed out: the old session is gone');
    t.deepEqual(problems, [], 'the browser reported no CSP violation or script error');
  },
);
