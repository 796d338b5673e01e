// Building a campaign in a real browser, the whole way in the dashboard: settings (approval required),
// a CSV uploaded and its columns mapped (opened with a guess from the header, metadata chosen by hand),
// the row report naming the refused row, a postcard creative from a template and typed HTML, proofs of
// the real recipients drawn by the engine's renderer, approval with who and when, a run sent, and the
// pieces it made read back over the API; then a change of the settings puts the approval back to
// pending. Each step saved at laptop and phone widths, axe-checked, no sideways scroll at 375 px.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import test, { type ExecutionContext } from 'ava';
import type { Page } from 'puppeteer-core';
import { startEngine, type TestEngine } from '../../helpers/engine';
import { client } from '../../helpers/http';
import { FROM } from '../../helpers/mail';
import { openBrowser, proofWidths, shoot, visit, type DashboardBrowser } from './harness';

let engine: TestEngine;
let browser: DashboardBrowser;
let folder: string;

test.before(async () => {
  engine = await startEngine({ db: 'sqlite' });
  browser = await openBrowser();
  folder = fs.mkdtempSync(path.join(os.tmpdir(), 'printpost-builder-'));
});

test.after.always(async () => {
  await browser?.close();
  await engine?.close();
  if (folder) fs.rmSync(folder, { recursive: true, force: true });
});

async function looksRight(t: ExecutionContext, page: Page, name: string) {
  const shot = await shoot(page, name);
  t.deepEqual(shot.violations, [], name);
  t.false(shot.sideways, `${name} scrolls sideways at 375 px`);
}

/** Submits the form `selector` (its first submit button) and waits for the next page. */
async function submit(page: Page, selector: string) {
  await Promise.all([page.waitForNavigation(), page.click(`${selector} button[type="submit"]`)]);
}

const text = (page: Page) => page.$eval('main', (e) => e.textContent ?? '');

test.serial('a campaign built in the dashboard from a CSV, reviewed, approved and sent', async (t) => {
  t.timeout(300_000);
  const { page, problems } = browser;
  const api = client(engine.url, engine.keys.test);
  const sender = await api('POST', '/v1/addresses', { json: { ...FROM, description: 'Head office' } });
  t.is(sender.status, 200, JSON.stringify(sender.body));
  const template = await api('POST', '/v1/templates', {
    json: {
      description: 'Spring front',
      html: '<html><body><h1 class="big">Hello {{first}}</h1><style>.big{font-size:60px}</style></body></html>',
    },
  });
  t.is(template.status, 200, JSON.stringify(template.body));
  const csv = path.join(folder, 'spring <list>.csv');
  fs.writeFileSync(
    csv,
    [
      'Full Name,Street Address,Unit,City,State,Zip Code,first,code,segment',
      'Ann Lee,185 Berry St,Suite 6100,San Francisco,CA,94107,Ann,A1,gold',
      'Bo Chen,500 Howard St,,San Francisco,CA,94105,Bo,B2,silver',
      'Nobody,,,San Francisco,CA,94107,No,N0,none',
    ].join('\n') + '\n',
  );

  await visit(page, engine.url, '/dashboard/sign-in');
  await page.type('#key', engine.keys.test);
  await submit(page, 'form[action="/dashboard/sign-in"]');

  // 1. settings
  await visit(page, engine.url, '/dashboard/campaigns');
  await Promise.all([page.waitForNavigation(), page.click('#new-campaign')]);
  await looksRight(t, page, 'campaign-new');
  await page.type('#name', 'Spring <b id="bold">welcome</b>');
  await page.type('#description', 'New customers, spring');
  await page.click('#requires_approval');
  await submit(page, '#campaign-settings');
  t.regex(page.url(), /\/dashboard\/campaigns\/cmp_[0-9a-f]+\/audience/);
  const id = /campaigns\/(cmp_[0-9a-f]+)/.exec(page.url())?.[1] ?? '';
  t.is(await page.$('#bold'), null, 'the name is shown as text');
  const created = await api('GET', `/v1/campaigns/${id}`);
  t.like(created.body, { name: 'Spring <b id="bold">welcome</b>', requires_approval: true, status: 'draft' });

  // 2. audience: the file, then its columns
  await looksRight(t, page, 'campaign-audience-upload');
  const input = await page.$('#file');
  if (!input) throw new Error('no file input');
  await input.uploadFile(csv);
  await submit(page, '#upload-form');
  t.regex(await page.$eval('.notice', (e) => e.textContent ?? ''), /file was received/);
  const guessed = await page.$$eval('#mapping-form select', (selects) =>
    Object.fromEntries(selects.map((s) => [s.getAttribute('name'), (s as unknown as { value: string }).value])),
  );
  t.deepEqual(guessed, {
    map_name: 'Full Name',
    map_address_line1: 'Street Address',
    map_address_city: 'City',
    map_address_state: 'State',
    map_address_zip: 'Zip Code',
    map_address_line2: 'Unit',
    map_company: '',
    map_address_country: '',
  });
  await page.click('#meta_8'); // segment becomes metadata
  await page.$eval('#merge_8', (e) => ((e as unknown as { value: string }).value = ''));
  await submit(page, '#mapping-form');
  t.regex(await page.$eval('.notice', (e) => e.textContent ?? ''), /mapping was saved/);
  t.is(await page.$eval('#rows-valid', (e) => e.textContent), '2');
  t.is(await page.$eval('#rows-failed', (e) => e.textContent), '1');
  t.regex(await text(page), /Row report[\s\S]*Failed/);
  t.regex(await text(page), /spring <list>\.csv/, 'the file name as text');
  await looksRight(t, page, 'campaign-audience-mapped');
  const upload = (await api('GET', `/v1/campaigns/${id}`)).body.uploads as Record<string, unknown>[];
  t.like(upload[0], {
    state: 'Scheduled',
    requiredAddressColumnMapping: { name: 'Full Name', address_line1: 'Street Address' },
    mergeVariableColumnMapping: { first: 'first', code: 'code' },
    metadata: { columns: ['segment'] },
  });

  // 3. a postcard creative: a template front, typed HTML back
  await Promise.all([page.waitForNavigation(), page.click('a[href$="/creatives/new"]')]);
  await Promise.all([page.waitForNavigation(), page.click('a[href$="?kind=postcard"]')]);
  // the phone width reloads the page: shot before the form is filled in
  await looksRight(t, page, 'campaign-creative');
  await page.select('#size', '4x6');
  await page.select('#from', sender.body.id as string);
  await page.select('#template_front', template.body.id as string);
  await page.type(
    '#side_back',
    '<html><body><p class="c">Your code {{code}}</p><style>.c{font-size:40px}</style></body></html>',
  );
  await submit(page, '#creative-form');
  t.is(await page.$eval('.problem', (e) => e.textContent).catch(() => null), null, 'the creative is accepted');
  t.regex(page.url(), new RegExp(`/dashboard/campaigns/${id}\\?notice=creative_added`));

  // 4. review: proofs of real recipients, then approval, then a run
  const widths = await proofWidths(page);
  t.is(widths.length, 4, 'two valid recipients, two sides');
  t.true(
    widths.every((w) => w > 0),
    `every proof drawn: ${widths.join(', ')}`,
  );
  const captions = await page.$$eval('.proofs figcaption', (f) => f.map((e) => e.textContent ?? ''));
  t.regex(captions.join(' | '), /Ann Lee[\s\S]*Bo Chen/);
  t.regex(await text(page), /Recipients\s*2/);
  t.regex(await text(page), /Status:\s*pending/);
  await looksRight(t, page, 'campaign-built-review');
  await page.type('#by', 'Ann Reviewer');
  await submit(page, `form[action="/dashboard/campaigns/${id}/approve"]`);
  t.regex(await page.$eval('.notice', (e) => e.textContent ?? ''), /approved/);
  await submit(page, `form[action="/dashboard/campaigns/${id}/send"]`);
  t.regex(await page.$eval('.notice', (e) => e.textContent ?? ''), /run of the campaign started/);
  let run: Record<string, unknown> | undefined;
  for (let i = 0; i < 100 && run?.status !== 'completed'; i++) {
    const runs = await api('GET', `/v1/campaigns/${id}/runs`);
    run = (runs.body.data as Record<string, unknown>[])[0];
    if (run?.status !== 'completed') await new Promise((r) => setTimeout(r, 200));
  }
  t.like(run, { status: 'completed', pieces_created: 2 });
  const pieces = await api('GET', `/v1/postcards?limit=10&campaign_id=${id}`);
  const made = (pieces.body.data as Record<string, unknown>[]).map((p) => ({
    name: String((p.to as Record<string, unknown>).name).toUpperCase(),
    merge: p.merge_variables,
    metadata: p.metadata,
  }));
  made.sort((a, b) => String(a.name).localeCompare(String(b.name)));
  t.deepEqual(made, [
    { name: 'ANN LEE', merge: { first: 'Ann', code: 'A1' }, metadata: { segment: 'gold' } },
    { name: 'BO CHEN', merge: { first: 'Bo', code: 'B2' }, metadata: { segment: 'silver' } },
  ]);
  await visit(page, engine.url, `/dashboard/campaigns/${id}`);
  t.regex(await text(page), /Runs[\s\S]*completed/);
  t.like(run, { skipped_count: 1 });
  await page.click('details.skipped summary');
  t.regex(await page.$eval('details.skipped', (e) => e.textContent ?? ''), /row 4 · refused: .*address_line1/);

  // 5. a change of what it mails needs a new approval
  await visit(page, engine.url, `/dashboard/campaigns/${id}/settings`);
  await page.type('#cron', '0 9 * * 1');
  await submit(page, '#campaign-settings');
  const changed = await api('GET', `/v1/campaigns/${id}`);
  t.like(changed.body, { status: 'scheduled', schedule: { cron: '0 9 * * 1' } });
  t.like(changed.body.approval, { status: 'pending', decided_by: null });
  t.regex(await text(page), /Why it waits: its schedule changed/);
  t.deepEqual(problems, []);
});
