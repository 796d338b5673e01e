// The templates pages in a real browser: create a template whose description holds HTML (shown as
// text), open its editor, type into the HTML and see the preview the engine's renderer draws change
// (assets/templates.js re-posts the preview form into its frame), save and publish a version; each page
// saved at laptop and phone widths, checked with axe-core, no sideways scroll at 375 px, no CSP
// violation. SQLite only, as the dashboard's other browser tests.
import test from 'ava';
import { startEngine, type TestEngine } from '../../helpers/engine';
import { client } from '../../helpers/http';
import { openBrowser, PHONE, shoot, visit, type DashboardBrowser } from './harness';

let engine: TestEngine;
let browser: DashboardBrowser;

test.before(async () => {
  engine = await startEngine({ db: 'sqlite' });
  browser = await openBrowser();
});

test.after.always(async () => {
  await browser?.close();
  await engine?.close();
});

/** Whether the preview frame's drawing has loaded and fits the frame's width (no part cut off). */
const frameFits = async () => {
  const frame = browser.page.frames().find((f) => f.name() === 'preview-frame');
  if (!frame) throw new Error('no preview frame');
  return frame.$eval('img', (img) => {
    const image = img as unknown as { naturalWidth: number; getBoundingClientRect(): { width: number } };
    const width = (globalThis as unknown as { document: { documentElement: { clientWidth: number } } }).document
      .documentElement.clientWidth;
    return image.naturalWidth > 0 && image.getBoundingClientRect().width <= width + 1;
  });
};

const frameShot = async () => {
  const frame = await browser.page.$('#preview-frame');
  if (!frame) throw new Error('no preview frame');
  return Buffer.from(await frame.screenshot());
};

test.serial('edit a template and see the preview change; save and publish a version', async (t) => {
  t.timeout(180_000);
  const { page, problems } = browser;
  const api = client(engine.url, engine.keys.test);
  const made = await api('POST', '/v1/templates', {
    json: {
      description: '<img src=x id=injected> spring card',
      html: '<div class="c">Hello {{name}}</div><style>.c{background:#03f;height:100vh;color:#fff;font-size:60px}</style>',
    },
  });
  t.is(made.status, 200, JSON.stringify(made.body));

  await visit(page, engine.url, '/dashboard/sign-in');
  await page.type('#key', engine.keys.test);
  await Promise.all([page.waitForNavigation(), page.click('form[action="/dashboard/sign-in"] button')]);

  await visit(page, engine.url, '/dashboard/templates');
  t.is(await page.$('#injected'), null, 'a description with HTML is shown as text');
  t.regex(await page.$eval('main', (e) => e.textContent ?? ''), /<img src=x id=injected> spring card/);
  const listShot = await shoot(page, 'templates');
  t.deepEqual(listShot.violations, []);
  t.false(listShot.sideways);

  await visit(page, engine.url, `/dashboard/templates/${made.body.id}`);
  const before = await frameShot();
  t.true(await frameFits(), 'the drawing fits the frame at laptop width');
  await page.setViewport(PHONE); // a mobile viewport reloads the page
  await page.waitForNetworkIdle({ idleTime: 300 });
  t.true(await frameFits(), 'the drawing fits the frame on a phone');
  const editorShot = await shoot(page, 'template-editor');
  t.deepEqual(editorShot.violations, []);
  t.false(editorShot.sideways);
  await page.waitForNetworkIdle({ idleTime: 300 });

  // typing re-posts the preview into the frame: wait for the frame to load the new drawing
  const reloaded = new Promise<void>((resolve) => {
    page.on('framenavigated', (frame) => {
      if (frame.name() === 'preview-frame') resolve();
    });
  });
  await page.click('#html', { count: 3 });
  await page.keyboard.down('Control');
  await page.keyboard.press('A');
  await page.keyboard.up('Control');
  await page.keyboard.press('Backspace');
  await page.type('#html', '<div class="c">Changed</div><style>.c{background:#f30;height:100vh}</style>');
  await reloaded;
  await page.waitForNetworkIdle({ idleTime: 500 });
  const after = await frameShot();
  t.notDeepEqual(after, before, 'the preview changed');
  t.true(await frameFits(), "a draft's drawing fits the frame too");

  await page.click('input[name="publish"]');
  await Promise.all([page.waitForNavigation(), page.click('#template-editor button:not(#preview-button)')]);
  t.regex(await page.$eval('.notice', (e) => e.textContent ?? ''), /version was saved/);
  const template = await api('GET', `/v1/templates/${made.body.id}`);
  t.is(template.body.versions.length, 2);
  t.regex(template.body.published_version.html, /Changed/, 'saved and published');
  t.deepEqual(problems, []);
});
