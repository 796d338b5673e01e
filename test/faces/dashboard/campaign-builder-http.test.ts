// The campaign builder's forms over plain HTTP, on SQLite and PostgreSQL: a multipart upload needs the
// session and its CSRF token like every form; a refused file (no rows, too large) leaves no upload; a
// column header with HTML in it is shown as text; another account's campaign is not found at any step;
// a bad cron, send date or creative is explained on its form and makes nothing.
import { databaseSuite } from '../../helpers/suite';
import { client } from '../../helpers/http';
import { FROM } from '../../helpers/mail';
import { csrfOf, signInHttp, type SessionClient } from './harness';

// a small file limit, so "too large" is cheap to send
const suite = databaseSuite({ env: { MAX_FILE_BYTES: String(64 * 1024) } });

/** Posts a CSV as the audience form does, with `csrf` (the audience page's when not given). */
async function postFile(base: string, session: SessionClient, campaignId: string, csv: string, csrf?: string) {
  const form = new FormData();
  form.set('_csrf', csrf ?? csrfOf((await session.get(`/dashboard/campaigns/${campaignId}/audience`)).text));
  form.set('file', new Blob([csv], { type: 'text/csv' }), 'people.csv');
  const response = await fetch(`${base}/dashboard/campaigns/${campaignId}/audience/file`, {
    method: 'POST',
    headers: { cookie: session.cookie },
    body: form,
    redirect: 'manual',
  });
  return { status: response.status, text: await response.text(), location: response.headers.get('location') };
}

async function newCampaign(session: SessionClient, name = 'Spring') {
  const reply = await session.post(
    '/dashboard/campaigns/new',
    { name, use_type: 'marketing', send_date: '', cron: '', time_zone: 'UTC' },
    '/dashboard/campaigns/new',
  );
  const id = /campaigns\/(cmp_[0-9a-f]+)\/audience/.exec(reply.location ?? '')?.[1];
  if (reply.status !== 303 || !id) throw new Error(`campaign not created: ${reply.status} ${reply.text.slice(0, 300)}`);
  return id;
}

suite.test(
  'an upload needs the session and the CSRF token; a refused file leaves no upload',
  async (t, { engine, api }) => {
    const session = await signInHttp(engine.url, engine.keys.test);
    const id = await newCampaign(session);
    const csv = 'name,street,city,state,zip\nAnn,185 Berry St,San Francisco,CA,94107\n';

    const anonymous = await fetch(`${engine.url}/dashboard/campaigns/${id}/audience/file`, {
      method: 'POST',
      body: new FormData(),
    });
    t.is(anonymous.status, 401);
    t.is((await postFile(engine.url, session, id, csv, 'wrong-token')).status, 403);
    t.is((await postFile(engine.url, session, id, csv, '')).status, 403);
    const urlencoded = await session.post(`/dashboard/campaigns/${id}/audience/file`, { file: csv });
    t.is(urlencoded.status, 400, 'a plain form where a file is expected');
    t.deepEqual((await api('GET', `/v1/campaigns/${id}`)).body.uploads, [], 'no upload made by a refused form');

    const empty = await postFile(engine.url, session, id, 'name,street,city\n');
    t.is(empty.status, 422);
    t.regex(empty.text, /header but no rows/);
    const big = await postFile(engine.url, session, id, `name,street\n${'Ann,185 Berry St\n'.repeat(5_000)}`);
    t.is(big.status, 422);
    t.regex(big.text, /file must be at most 64 KB/);
    t.deepEqual((await api('GET', `/v1/campaigns/${id}`)).body.uploads, [], 'a refused file leaves no upload');

    const good = await postFile(engine.url, session, id, csv);
    t.is(good.status, 303, good.text.slice(0, 300));
    const uploads = (await api('GET', `/v1/campaigns/${id}`)).body.uploads as Record<string, unknown>[];
    t.like(uploads[0], { state: 'Draft', totalMailpieces: 1, originalFilename: 'people.csv' });
    const again = await postFile(engine.url, session, id, csv);
    t.is(again.status, 422);
    t.regex(again.text, /has a file already/);
  },
);

suite.test('a column header with HTML is shown as text; the mapping form maps it', async (t, { engine, api }) => {
  const session = await signInHttp(engine.url, engine.keys.test);
  const id = await newCampaign(session);
  const header = '"<img src=x id=evil>",street,city,state,zip';
  t.is((await postFile(engine.url, session, id, `${header}\nAnn,185 Berry St,San Francisco,CA,94107\n`)).status, 303);
  const page = await session.get(`/dashboard/campaigns/${id}/audience`);
  t.notRegex(page.text, /<img src=x/);
  t.regex(page.text, /&lt;img src&#x3D;x id&#x3D;evil&gt;/);
  const mapped = await session.post(
    `/dashboard/campaigns/${id}/audience/mapping`,
    {
      map_name: '<img src=x id=evil>',
      map_address_line1: 'street',
      map_address_city: 'city',
      map_address_state: 'state',
      map_address_zip: 'zip',
      merge_0: 'who',
    },
    `/dashboard/campaigns/${id}/audience`,
  );
  t.is(mapped.status, 303, mapped.text.slice(0, 300));
  const [upload] = (await api('GET', `/v1/campaigns/${id}`)).body.uploads as Record<string, unknown>[];
  t.like(upload, {
    state: 'Scheduled',
    validatedMailpieces: 1,
    requiredAddressColumnMapping: { name: '<img src=x id=evil>' },
    mergeVariableColumnMapping: { who: '<img src=x id=evil>' },
  });
  const unknown = await session.post(
    `/dashboard/campaigns/${id}/audience/mapping`,
    { map_name: 'no such column' },
    `/dashboard/campaigns/${id}/audience`,
  );
  t.is(unknown.status, 422);
  t.regex(unknown.text, /no such column/);
});

suite.test("another account's campaign is not found at any step", async (t, { engine }) => {
  const other = await engine.createAccount();
  const theirs = await client(engine.url, other.test)('POST', '/v1/campaigns', {
    json: { name: 'Theirs', schedule_type: 'immediate', use_type: 'marketing' },
  });
  t.is(theirs.status, 200);
  const id = theirs.body.id as string;
  const session = await signInHttp(engine.url, engine.keys.test);
  for (const path of ['settings', 'audience', 'creatives/new?kind=postcard'])
    t.is((await session.get(`/dashboard/campaigns/${id}/${path}`)).status, 404, path);
  for (const [path, form] of [
    ['settings', { name: 'Mine now' }],
    ['audience/mapping', { map_name: 'name' }],
    ['audience/remove', {}],
    ['audience/book', { key: 'a', value: 'b' }],
    ['creatives/new', { kind: 'postcard', side_front: 'x', side_back: 'y' }],
  ] as const)
    t.is((await session.post(`/dashboard/campaigns/${id}/${path}`, form)).status, 404, path);
  const csrf = csrfOf((await session.get('/dashboard')).text);
  t.is((await postFile(engine.url, session, id, 'a,b\n1,2\n', csrf)).status, 404);
  const still = await client(engine.url, other.test)('GET', `/v1/campaigns/${id}`);
  t.like(still.body, { name: 'Theirs', uploads: [], creatives: [] });
});

suite.test(
  'a bad cron, send date or creative is explained on its form and makes nothing',
  async (t, { engine, api }) => {
    const session = await signInHttp(engine.url, engine.keys.test);
    const badCron = await session.post(
      '/dashboard/campaigns/new',
      { name: '<b>x</b>', use_type: 'marketing', cron: 'every day', time_zone: 'UTC' },
      '/dashboard/campaigns/new',
    );
    t.is(badCron.status, 422);
    t.regex(badCron.text, /cron/);
    t.regex(badCron.text, /value="&lt;b&gt;x&lt;\/b&gt;"/, 'what was typed is kept, as text');
    const badZone = await session.post(
      '/dashboard/campaigns/new',
      { name: 'x', use_type: 'marketing', cron: '0 9 * * 1', time_zone: 'Mars/Base' },
      '/dashboard/campaigns/new',
    );
    t.is(badZone.status, 422);
    t.regex(badZone.text, /time zone/);
    const badDate = await session.post(
      '/dashboard/campaigns/new',
      { name: 'x', use_type: 'marketing', send_date: 'tomorrow' },
      '/dashboard/campaigns/new',
    );
    t.is(badDate.status, 422);
    const names = ((await api('GET', '/v1/campaigns?limit=100')).body.data as { name: string }[]).map((c) => c.name);
    t.false(names.includes('x') || names.includes('<b>x</b>'), 'no campaign made');

    const id = await newCampaign(session);
    const letter = await session.post(
      `/dashboard/campaigns/${id}/creatives/new`,
      { kind: 'letter', size: 'us_letter', side_file: '<html><body>Hi</body></html>' },
      `/dashboard/campaigns/${id}/creatives/new?kind=letter`,
    );
    t.is(letter.status, 422);
    t.regex(letter.text, /from/);
    const wrongSize = await session.post(
      `/dashboard/campaigns/${id}/creatives/new`,
      { kind: 'postcard', size: 'us_legal', side_front: 'a', side_back: 'b' },
      `/dashboard/campaigns/${id}/creatives/new?kind=postcard`,
    );
    t.is(wrongSize.status, 422);
    const sender = await api('POST', '/v1/addresses', { json: FROM });
    const fine = await session.post(
      `/dashboard/campaigns/${id}/creatives/new`,
      {
        kind: 'letter',
        size: 'us_letter',
        from: sender.body.id,
        color: 'on',
        side_file: '<html><body>Hi</body></html>',
      },
      `/dashboard/campaigns/${id}/creatives/new?kind=letter`,
    );
    t.is(fine.status, 303, fine.text.slice(0, 400));
    const creatives = (await api('GET', `/v1/campaigns/${id}`)).body.creatives as Record<string, unknown>[];
    t.is(creatives.length, 1, 'only the good creative was made');
    t.like(creatives[0], {
      resource_type: 'letter',
      from: sender.body.id,
      details: { size: 'us_letter', color: true },
    });
    const removed = await session.post(
      `/dashboard/campaigns/${id}/creatives/${creatives[0].id as string}/delete`,
      {},
      `/dashboard/campaigns/${id}/creatives/new`,
    );
    t.is(removed.status, 303);
    t.deepEqual((await api('GET', `/v1/campaigns/${id}`)).body.creatives, []);
  },
);

suite.test('the address book as the audience, all of it or by metadata', async (t, { engine, api }) => {
  const session = await signInHttp(engine.url, engine.keys.test);
  const id = await newCampaign(session);
  const from = `/dashboard/campaigns/${id}/audience`;
  t.is((await session.post(`${from}/book`, { key: 'segment', value: 'gold', fresh: 'on' }, from)).status, 303);
  t.like((await api('GET', `/v1/campaigns/${id}`)).body, {
    audience: { metadata: { segment: 'gold' }, created_since_last_run: true },
  });
  t.is((await session.post(`${from}/book`, { key: '', value: '' }, from)).status, 303);
  t.is((await api('GET', `/v1/campaigns/${id}`)).body.audience, null);
});
