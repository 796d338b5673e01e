// The dashboard in a real browser (puppeteer-core and the Chromium the engine renders with): the pages a
// person walks through, each saved at laptop and phone widths (test-output/dashboard/), checked with
// axe-core and for sideways scrolling at 375 px, with no CSP violation reported by the browser.
// SQLite only: these tests are about the pages; the storage their data comes through is covered on
// both databases by the API suites and by the dashboard's HTTP suites beside this file.
import test from 'ava';
import { startEngine, type TestEngine } from '../../helpers/engine';
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

test.serial('sign in with a secret key, see the overview, sign out', async (t) => {
  const { page, problems } = browser;
  await visit(page, engine.url, '/dashboard');
  t.true(page.url().endsWith('/dashboard/sign-in'), 'without a session the dashboard asks to sign in');
  const signIn = await shoot(page, 'sign-in');
  t.deepEqual(signIn.violations, []);
  t.false(signIn.sideways);

  await page.type('#key', engine.keys.test);
  await Promise.all([page.waitForNavigation(), page.click('form[action="/dashboard/sign-in"] button')]);
  t.true(page.url().endsWith('/dashboard'));
  t.regex(await page.$eval('.mode', (e) => e.textContent ?? ''), /test mode/);
  const overview = await shoot(page, 'overview');
  t.deepEqual(overview.violations, []);
  t.false(overview.sideways);

  await Promise.all([page.waitForNavigation(), page.click('.sign-out button')]);
  t.true(page.url().endsWith('/dashboard/sign-in'));
  await visit(page, engine.url, '/dashboard');
  t.true(page.url().endsWith('/dashboard/sign-in'), 'signed out: the old session is gone');
  t.deepEqual(problems, []);
});
