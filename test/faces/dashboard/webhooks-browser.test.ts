// The webhook pages in a real browser: create a webhook (its secret shown once, on that answer only),
// see a delivery with its status and the receiver's answer, rotate the secret (the new one shown once);
// HTML in the description shown as text; a delivery that failed every attempt replayed from its row.
// Each page saved at laptop and phone
// widths, checked with axe-core, no sideways scroll at 375 px, no CSP violation.
import test from 'ava';
import { startEngine, type TestEngine } from '../../helpers/engine';
import { client } from '../../helpers/http';
import { TO } from '../../helpers/mail';
import { startReceiver, type Receiver } from '../../helpers/receiver';
import { openBrowser, shoot, visit, type DashboardBrowser } from './harness';

let engine: TestEngine;
let browser: DashboardBrowser;
let receiver: Receiver;

test.before(async () => {
  // the receiver answers its first delivery 500: a failed attempt, retried a minute later
  receiver = await startReceiver((call) => (call === 1 ? { status: 500 } : {}));
  engine = await startEngine({
    db: 'sqlite',
    env: { ALLOWED_PRIVATE_NETWORKS: '127.0.0.0/8', WEBHOOK_RETRY_BASE_MS: '60000' },
  });
  browser = await openBrowser();
});

test.after.always(async () => {
  await browser?.close();
  await engine?.close();
  await receiver?.close();
});

const text = () => browser.page.$eval('main', (e) => e.textContent ?? '');

test.serial('create a webhook, see its deliveries, rotate its secret', async (t) => {
  t.timeout(180_000);
  const { page, problems } = browser;
  const api = client(engine.url, engine.keys.test);
  await visit(page, engine.url, '/dashboard/sign-in');
  await page.type('#key', engine.keys.test);
  await Promise.all([page.waitForNavigation(), page.click('form[action="/dashboard/sign-in"] button')]);

  await visit(page, engine.url, '/dashboard/webhooks');
  await page.type('#url', receiver.url);
  await page.$eval('#event_types', (e) => e.setAttribute('value', ''));
  await page.click('#event_types', { count: 3 });
  await page.keyboard.press('Backspace');
  await page.type('#event_types', 'address.created');
  await page.type('#description', '<em id="em">orders</em>');
  await Promise.all([page.waitForNavigation(), page.click('form[action="/dashboard/webhooks"] button')]);
  const secret = await page.$eval('#secret', (e) => e.textContent ?? '');
  t.regex(secret, /^whsec_|^[A-Za-z0-9_]{20,}/, 'the secret, once');
  t.is(await page.$('#em'), null, 'a description with HTML is shown as text');
  const webhookPath = new URL(page.url()).pathname === '/dashboard/webhooks' ? undefined : new URL(page.url()).pathname;
  t.is(webhookPath, undefined, 'the create answers the page itself: no redirect carries the secret');
  const hooks = await api('GET', '/v1/webhooks');
  const id = hooks.body.data[0].id as string;
  const created = await shoot(page, 'webhook-created');
  t.deepEqual(created.violations, []);
  t.false(created.sideways);

  await visit(page, engine.url, `/dashboard/webhooks/${id}`);
  t.is(await page.$('#secret'), null, 'not shown again');
  t.false((await text()).includes(secret));

  t.is((await api('POST', '/v1/addresses', { json: TO })).status, 200);
  await receiver.waitFor(1, 60_000);
  let shown = '';
  for (let i = 0; i < 100 && !/500/.test(shown); i++) {
    await visit(page, engine.url, `/dashboard/webhooks/${id}`);
    shown = await text();
    if (!/500/.test(shown)) await new Promise((r) => setTimeout(r, 200));
  }
  t.regex(shown, /address\.created/);
  t.regex(shown, /failed \(pending\)\s*500 answered 500/, "the attempt's status and the receiver's answer");
  const deliveries = await shoot(page, 'webhook-deliveries');
  t.deepEqual(deliveries.violations, []);
  t.false(deliveries.sideways);

  await Promise.all([page.waitForNavigation(), page.click(`form[action="/dashboard/webhooks/${id}/rotate"] button`)]);
  const rotated = await page.$eval('#secret', (e) => e.textContent ?? '');
  t.not(rotated, secret, 'a new secret, shown once');
  t.regex(await text(), /old secret keeps signing until/);
  t.deepEqual(problems, []);
});

test.serial('a delivery that failed every attempt is replayed from its row, and succeeds', async (t) => {
  t.timeout(180_000);
  const { page, problems } = browser;
  // every attempt of the first delivery fails (8 in all, retried within a second), the replay succeeds
  const failing = await startReceiver((call) => (call <= 8 ? { status: 503 } : {}));
  const fast = await startEngine({
    db: 'sqlite',
    env: { ALLOWED_PRIVATE_NETWORKS: '127.0.0.0/8', WEBHOOK_RETRY_BASE_MS: '10' },
  });
  try {
    const api = client(fast.url, fast.keys.test);
    const hook = await api('POST', '/v1/webhooks', { json: { url: failing.url, event_types: ['address.created'] } });
    t.is(hook.status, 200, JSON.stringify(hook.body));
    const id = hook.body.id as string;
    t.is((await api('POST', '/v1/addresses', { json: TO })).status, 200);
    await failing.waitFor(8, 60_000);

    await visit(page, fast.url, '/dashboard/sign-in');
    await page.type('#key', fast.keys.test);
    await Promise.all([page.waitForNavigation(), page.click('form[action="/dashboard/sign-in"] button')]);
    let shown = '';
    for (let i = 0; i < 100 && !/failed \(failed\)/.test(shown); i++) {
      await visit(page, fast.url, `/dashboard/webhooks/${id}`);
      shown = await text();
      if (!/failed \(failed\)/.test(shown)) await new Promise((r) => setTimeout(r, 200));
    }
    t.regex(shown, /failed \(failed\)\s*503/, 'every attempt failed: the delivery is failed');
    const replay = await page.$('table.deliveries form[action$="/replay"] button');
    if (!replay) throw new Error('no replay button on the failed row');
    await Promise.all([page.waitForNavigation(), replay.click()]);
    t.regex(await text(), /1 failed deliveries queued again/);
    await failing.waitFor(9, 60_000);
    const delivered = /succeeded \(succeeded\)\s*200/;
    for (let i = 0; i < 100 && !delivered.test(shown); i++) {
      await visit(page, fast.url, `/dashboard/webhooks/${id}`);
      shown = await text();
      if (!delivered.test(shown)) await new Promise((r) => setTimeout(r, 200));
    }
    t.regex(shown, delivered, 'the replayed delivery reached the receiver');
    t.deepEqual(problems, []);
  } finally {
    await fast.close();
    await failing.close();
  }
});
