// The campaign pages in a real browser: a campaign built from a CSV (its upload mapped and sent over
// the API) is reviewed in the dashboard: its settings, the upload's row report, proofs of its first
// real recipients drawn by the engine's renderer (each with its own merge variables), then approved
// with who and when recorded; HTML in its name and description is shown as text. Each page saved at
// laptop and phone widths, checked with axe-core, no sideways scroll at 375 px, no CSP violation.
import test from 'ava';
import { startEngine, type TestEngine } from '../../helpers/engine';
import { client } from '../../helpers/http';
import { FROM } from '../../helpers/mail';
import { CSV_HEADER, createUpload, csvRow, sendFile } from '../../helpers/audience';
import { openBrowser, proofWidths, shoot, visit, type DashboardBrowser } from './harness';

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

test.serial('a campaign from a CSV: its row report, proofs of real recipients, approved', async (t) => {
  t.timeout(180_000);
  const { page, problems } = browser;
  const api = client(engine.url, engine.keys.test);
  const campaign = await api('POST', '/v1/campaigns', {
    json: {
      name: '<b id="bold">Spring</b>',
      description: '<script>alert(1)</script>',
      schedule_type: 'immediate',
      use_type: 'marketing',
      requires_approval: true,
    },
  });
  t.is(campaign.status, 200, JSON.stringify(campaign.body));
  const id = campaign.body.id as string;
  const front = '<html><body><h1 class="c">Code {{code}}</h1><style>.c{font-size:80px}</style></body></html>';
  const creative = await api('POST', '/v1/creatives', {
    json: { resource_type: 'postcard', campaign_id: id, from: FROM, front, back: front, details: {} },
  });
  t.is(creative.status, 200, JSON.stringify(creative.body));
  const uploadId = await createUpload(t, api, id);
  const file = `${[CSV_HEADER, csvRow(1), csvRow(2), 'Nobody,,,San Francisco,CA,94107,X,s0'].join('\n')}\n`;
  t.is((await sendFile(engine.url, engine.keys.test, uploadId, file, '<b>list.csv')).status, 200);

  await visit(page, engine.url, '/dashboard/sign-in');
  await page.type('#key', engine.keys.test);
  await Promise.all([page.waitForNavigation(), page.click('form[action="/dashboard/sign-in"] button')]);

  await visit(page, engine.url, '/dashboard/campaigns');
  t.is(await page.$('#bold'), null, 'a name with HTML is shown as text');
  const listShot = await shoot(page, 'campaigns');
  t.deepEqual(listShot.violations, []);
  t.false(listShot.sideways);

  await visit(page, engine.url, `/dashboard/campaigns/${id}`);
  const text = await page.$eval('main', (e) => e.textContent ?? '');
  t.regex(text, /<script>alert\(1\)<\/script>/, 'the description as text');
  t.regex(text, /<b>list\.csv/, 'the file name as text');
  t.regex(text, /Refused rows\s*1/);
  t.regex(text, /Row report[\s\S]*Failed/, 'the row report names the refused row');
  const images = await proofWidths(page);
  t.is(images.length, 4, 'two recipients, two sides');
  t.true(
    images.every((w) => w > 0),
    `every proof drawn: ${images.join(', ')}`,
  );
  const captions = await page.$$eval('.proofs figcaption', (f) => f.map((e) => e.textContent ?? ''));
  t.regex(captions[0], /row 2: Recipient 1/);
  const reviewShot = await shoot(page, 'campaign-review');
  t.deepEqual(reviewShot.violations, []);
  t.false(reviewShot.sideways);

  await page.type('#by', 'Ann <Reviewer>');
  await Promise.all([page.waitForNavigation(), page.click(`form[action="/dashboard/campaigns/${id}/approve"] button`)]);
  t.regex(await page.$eval('.notice', (e) => e.textContent ?? ''), /approved/);
  const approved = await api('GET', `/v1/campaigns/${id}`);
  t.like(approved.body.approval, { status: 'approved', decided_by: 'Ann <Reviewer> (dashboard)' });
  t.regex(await page.$eval('main', (e) => e.textContent ?? ''), /by Ann <Reviewer> \(dashboard\)/);
  t.deepEqual(problems, []);
});
