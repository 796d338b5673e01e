// What the dashboard's pages show and do, over plain HTTP on SQLite and PostgreSQL: the mail list's
// filters and paging across kinds, a piece's page and its cancel (and the refusal once the window has
// passed), the verify form's explanation, keys, settings, health and the overview's counts.
import { databaseSuite } from '../../helpers/suite';
import { letter, postcard } from '../../helpers/mail';
import { client } from '../../helpers/http';
import { signInHttp } from './harness';

const suite = databaseSuite();

const ids = (html: string) =>
  [...html.matchAll(/href="\/dashboard\/mail\/((?:psc|ltr)_[A-Za-z0-9]+)"/g)].map((m) => m[1]);

suite.test('the mail list shows every kind, filters by kind, metadata and date, and pages', async (t, { engine }) => {
  const account = await engine.createAccount();
  const own = client(engine.url, account.test);
  const made: string[] = [];
  for (let i = 0; i < 27; i++) {
    const reply = await own('POST', '/v1/postcards', {
      json: postcard({ metadata: { batch: i < 3 ? 'first' : 'rest' } }),
    });
    t.is(reply.status, 200, JSON.stringify(reply.body));
    made.push(reply.body.id);
  }
  const theLetter = await own('POST', '/v1/letters', { json: letter() });
  t.is(theLetter.status, 200, JSON.stringify(theLetter.body));
  const session = await signInHttp(engine.url, account.test);
  const first = await session.get('/dashboard/mail');
  t.is(first.status, 200);
  const firstIds = ids(first.text);
  t.is(firstIds.length, 25);
  t.is(firstIds[0], theLetter.body.id, 'newest first, every kind in one list');
  const next = /href="([^"]+)" rel="next"/
    .exec(first.text)?.[1]
    ?.replace(/&amp;/g, '&')
    .replace(/&#x3D;/g, '=');
  t.truthy(next);
  const secondPage = (await session.get(next!)).text;
  const second = ids(secondPage);
  t.is(second.length, 3);
  t.deepEqual([...firstIds, ...second].sort(), [...made, theLetter.body.id].sort());
  t.deepEqual(ids((await session.get('/dashboard/mail?kind=letters')).text), [theLetter.body.id]);
  t.deepEqual(
    ids((await session.get('/dashboard/mail?meta_key=batch&meta_value=first')).text).sort(),
    made.slice(0, 3).sort(),
  );
  t.deepEqual(ids((await session.get('/dashboard/mail?to=2000-01-01')).text), []);
  t.deepEqual(ids((await session.get('/dashboard/mail?status=failed')).text), []);
  // the overview counts them
  const overview = (await session.get('/dashboard')).text;
  t.regex(overview, /status-processed">processed<\/span><\/td><td class="num">28</);
});

suite.test(
  "a piece's page shows its addresses, variables, metadata and events, and cancels it once",
  async (t, { engine, api }) => {
    const piece = await api('POST', '/v1/postcards', {
      json: postcard({ description: 'Card one', metadata: { team: 'north' }, merge_variables: { name: 'Harry' } }),
    });
    const id: string = piece.body.id;
    const session = await signInHttp(engine.url, engine.keys.test);
    const page = await session.get(`/dashboard/mail/${id}`);
    t.is(page.status, 200);
    for (const text of [
      'HARRY ZHANG',
      '210 KING ST',
      'LEORE AVIDAR',
      '&quot;name&quot;: &quot;Harry&quot;',
      'north',
      'postcard.created',
      'Cancel this piece',
    ])
      t.true(page.text.includes(text), text);
    t.is((await session.get(`/dashboard/mail/${id}/files/thumb-0-medium`)).status, 404, 'no thumbnail before a render');
    const cancelled = await session.post(`/dashboard/mail/${id}/cancel`, {}, `/dashboard/mail/${id}`);
    t.is(cancelled.status, 303);
    t.is(cancelled.location, `/dashboard/mail/${id}?notice=cancelled`);
    const after = (await session.get(cancelled.location!)).text;
    t.regex(after, /id="piece-status">cancelled</);
    t.notRegex(after, /Cancel this piece/);
    t.is((await api('GET', `/v1/postcards/${id}`)).status, 404);
    t.is((await session.get('/dashboard/mail/psc_doesnotexist')).status, 404);
  },
);

suite.test('past the cancellation window the piece stays and the page says so', async (t, { engine }) => {
  const name = `late-${Date.now()}`;
  const account = await engine.createAccount(name);
  await engine.setSetting('cancellation_window_minutes', 0, name);
  const piece = await client(engine.url, account.test)('POST', '/v1/postcards', { json: postcard() });
  const id: string = piece.body.id;
  const session = await signInHttp(engine.url, account.test);
  const page = await session.get(`/dashboard/mail/${id}`);
  t.notRegex(page.text, /Cancel this piece/, 'no button once the window has passed');
  const refused = await session.post(`/dashboard/mail/${id}/cancel`, {}, `/dashboard/mail/${id}`);
  t.is(refused.location, `/dashboard/mail/${id}?notice=not_cancelled`);
  t.regex((await session.get(refused.location!)).text, /can no longer be cancelled/);
  t.is((await client(engine.url, account.test)('GET', `/v1/postcards/${id}`)).status, 200);
});

suite.test('the verify form explains the answer; the address book lists the addresses', async (t, { engine, api }) => {
  const address = await api('POST', '/v1/addresses', { json: { ...postcard().to, description: 'Office' } });
  t.is(address.status, 200);
  const session = await signInHttp(engine.url, engine.keys.test);
  const book = (await session.get('/dashboard/addresses')).text;
  t.true(book.includes(address.body.id));
  t.true(book.includes('Office'));
  const verdict = await session.post(
    '/dashboard/addresses/verify',
    { primary_line: 'undeliverable', zip_code: '11111' },
    '/dashboard/addresses',
  );
  t.is(verdict.status, 200);
  t.regex(verdict.text, /undeliverable<\/strong>: USPS does not deliver mail to this address/);
  const empty = await session.post('/dashboard/addresses/verify', { city: 'Nowhere' }, '/dashboard/addresses');
  t.regex(empty.text, /class="problem" role="alert">/);
});

suite.test('keys, settings and health pages', async (t, { engine }) => {
  const account = await engine.createAccount();
  const session = await signInHttp(engine.url, account.test);
  const keys = (await session.get('/dashboard/keys')).text;
  t.is((keys.match(/<tr>/g) ?? []).length, 5, 'a header row and the four keys');
  t.notRegex(keys, new RegExp(account.test), 'keys are shown by hint only');
  const refused = await session.post('/dashboard/keys', { mode: 'live', kind: 'secret' }, '/dashboard/keys');
  t.is(refused.status, 422, 'a test session makes no live key');
  const made = await session.post('/dashboard/keys', { mode: 'test', kind: 'publishable' }, '/dashboard/keys');
  t.regex(made.text, /id="new-key">test_pub_/);
  t.is(
    (await session.post('/dashboard/settings', { name: 'rate_limit_per_5s', value: 'lots' }, '/dashboard/settings'))
      .status,
    422,
  );
  t.is((await session.post('/dashboard/settings', { name: 'no_such', value: '1' }, '/dashboard/settings')).status, 422);
  t.is(
    (await session.post('/dashboard/settings', { name: 'rate_limit_per_5s', value: '99' }, '/dashboard/settings'))
      .status,
    303,
  );
  const settings = (await session.get('/dashboard/settings')).text;
  t.regex(settings, /id="setting-rate_limit_per_5s" name="value" value="99"/);
  t.regex(settings, /USPS_MAILER_ID/);
  const health = (await session.get('/dashboard/health')).text;
  t.regex(health, /badge-ok">ok</);
  t.regex(health, /Database<\/dt><dd>ok</);
});
