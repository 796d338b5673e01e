// Lists: limits, keyset cursors (ours and the vendor's), links, total_count, date and metadata filters in
// every query form.
import { databaseSuite, type SuiteContext } from '../helpers/suite';
import { client } from '../helpers/http';

const { test } = databaseSuite();

interface Seeded {
  api: ReturnType<typeof client>;
  ids: string[]; // newest first
  dates: string[];
}

const seeded = new Map<string, Promise<Seeded>>();

/** 25 addresses in an account of their own; every fifth tagged group=a. */
function seed({ engine, db }: SuiteContext): Promise<Seeded> {
  let ready = seeded.get(db);
  if (!ready) {
    ready = (async () => {
      const keys = await engine.createAccount();
      const api = client(engine.url, keys.test);
      const created: { id: string; date_created: string }[] = [];
      for (let i = 0; i < 25; i++) {
        const metadata = i % 5 === 0 ? { group: 'a', n: String(i) } : { group: 'b', n: String(i) };
        const r = await api('POST', '/v1/addresses', {
          json: {
            name: `N${i}`,
            address_line1: `${i} Main St`,
            address_city: 'Springfield',
            address_state: 'IL',
            address_zip: '62701',
            metadata,
          },
        });
        created.push(r.body);
      }
      created.reverse();
      return { api, ids: created.map((c) => c.id), dates: created.map((c) => c.date_created) };
    })();
    seeded.set(db, ready);
  }
  return ready;
}

const cursorOf = (url: string, name: string) => new URL(url).searchParams.get(name)!;

test('default limit 10, newest first, count and links', async (t, ctx) => {
  const { api, ids } = await seed(ctx);
  const r = await api('GET', '/v1/addresses');
  t.is(r.body.object, 'list');
  t.is(r.body.count, 10);
  t.deepEqual(
    r.body.data.map((a: { id: string }) => a.id),
    ids.slice(0, 10),
  );
  t.is(r.body.previous_url, null);
  t.truthy(r.body.next_url);
  t.false('total_count' in r.body);
});

test('walking next_url visits every object once, in order; previous_url walks back', async (t, ctx) => {
  const { api, ids } = await seed(ctx);
  const seen: string[] = [];
  let path = '/v1/addresses?limit=7';
  const pages: { previous_url: string | null; data: { id: string }[] }[] = [];
  for (;;) {
    const r = await api('GET', path);
    pages.push(r.body);
    seen.push(...r.body.data.map((a: { id: string }) => a.id));
    if (!r.body.next_url) break;
    const cursor = cursorOf(r.body.next_url, 'after');
    t.false(cursor.includes('='), 'cursors carry no = sign');
    t.regex(r.body.next_url, /limit=7/, 'links keep the other parameters');
    path = r.body.next_url.slice(r.body.next_url.indexOf('/v1/'));
  }
  t.deepEqual(seen, ids);
  t.is(pages.length, 4);
  const back = pages[2].previous_url!;
  const r = await api('GET', back.slice(back.indexOf('/v1/')));
  t.deepEqual(
    r.body.data.map((a: { id: string }) => a.id),
    ids.slice(7, 14),
  );
});

test('total_count in the bracket, JSON and repeated forms', async (t, ctx) => {
  const { api } = await seed(ctx);
  for (const q of [
    'include[]=total_count',
    'include=%5B%22total_count%22%5D',
    'include=total_count&include=total_count',
    'include=total_count',
  ]) {
    const r = await api('GET', `/v1/addresses?limit=2&${q}`);
    t.is(r.status, 200, q);
    t.is(r.body.total_count, 25, q);
  }
});

test('unknown include values are ignored, in every form, with or without total_count', async (t, ctx) => {
  const { api, ids } = await seed(ctx);
  for (const q of ['include[]=foo', 'include=%5B%22foo%22%5D', 'include=foo', 'include=foo,bar']) {
    const r = await api('GET', `/v1/addresses?limit=2&${q}`);
    t.is(r.status, 200, q);
    t.false('total_count' in r.body, q);
    t.deepEqual(
      r.body.data.map((a: { id: string }) => a.id),
      ids.slice(0, 2),
      q,
    );
  }
  for (const q of [
    'include[]=foo&include[]=total_count',
    'include=%5B%22total_count%22%2C%22foo%22%5D',
    'include=foo&include=total_count',
    'include=foo,total_count',
  ]) {
    const r = await api('GET', `/v1/addresses?limit=2&${q}`);
    t.is(r.status, 200, q);
    t.is(r.body.total_count, 25, q);
  }
});

/** A cursor as the vendor builds it: base64 of {dateOffset, idOffset}, in the alphabet and padding asked. */
function vendorCursor(object: { date_created: string; id: string }, urlSafe: boolean, padded: boolean, date?: string) {
  const json = JSON.stringify({ dateOffset: date ?? object.date_created, idOffset: object.id });
  const b64 = Buffer.from(json).toString(urlSafe ? 'base64url' : 'base64');
  const unpadded = b64.replace(/=+$/, '');
  return urlSafe && padded ? unpadded.padEnd(Math.ceil(unpadded.length / 4) * 4, '=') : padded ? b64 : unpadded;
}

test('a vendor-shaped cursor walks the list exactly as our own does, both ways', async (t, ctx) => {
  const { api } = await seed(ctx);
  const first = await api('GET', '/v1/addresses?limit=7');
  const ours = await api('GET', first.body.next_url.slice(first.body.next_url.indexOf('/v1/')));
  const ids = (r: { body: { data: { id: string }[] } }) => r.body.data.map((a) => a.id);
  const last = first.body.data[6];
  const isoOffset = last.date_created.replace('Z', '+00:00');
  for (const [urlSafe, padded, date] of [
    [false, true],
    [false, false],
    [true, false],
    [true, true],
    [true, false, isoOffset],
  ] as const) {
    const token = vendorCursor(last, urlSafe, padded, date);
    const r = await api('GET', `/v1/addresses?limit=7&after=${encodeURIComponent(token)}`);
    t.is(r.status, 200, token);
    t.deepEqual(
      ids(r),
      ids(ours),
      `${urlSafe ? 'url-safe' : 'standard'} ${padded ? 'padded' : 'unpadded'} ${date ?? ''}`,
    );
    t.truthy(r.body.previous_url, 'paging on from a vendor cursor gives our own links');
  }
  const back = vendorCursor(ours.body.data[0], false, true);
  t.deepEqual(ids(await api('GET', `/v1/addresses?limit=7&before=${encodeURIComponent(back)}`)), ids(first));
});

test('a malformed vendor-shaped cursor is the spec 422, never a 500', async (t, ctx) => {
  const { api } = await seed(ctx);
  const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64');
  for (const value of [
    { dateOffset: 'yesterday', idOffset: 'adr_abc' },
    { dateOffset: '2026-11-20T18:39:45.123Z', idOffset: "adr_x' or 1=1 --" },
    { dateOffset: '2026-11-20T18:39:45.123Z' },
    { dateOffset: 1, idOffset: 'adr_abc' },
    { dateOffset: '2026-11-20T18:39:45.123Z\u0000', idOffset: 'adr_abc' },
    [],
    'adr_abc',
    null,
  ]) {
    const r = await api('GET', `/v1/addresses?after=${encodeURIComponent(b64(value))}`);
    t.is(r.status, 422, JSON.stringify(value));
    t.is(r.body.error.code, 'invalid', JSON.stringify(value));
    t.regex(r.body.error.message, /^cursor is invalid/);
  }
  t.is((await api('GET', '/v1/addresses?after=eyJk%21%21')).status, 422, 'characters outside base64');
});

test('a vendor cursor counts only on a date_created walk: under another sort_by it is refused', async (t, ctx) => {
  const { api } = await seed(ctx);
  const token = Buffer.from('{"dateOffset":"2026-11-20T18:39:45.123Z","idOffset":"psc_abc123"}').toString('base64');
  const list = (sort: string) => api('GET', `/v1/postcards?sort_by[${sort}]=asc&after=${encodeURIComponent(token)}`);
  t.is((await list('date_created')).status, 200);
  const refused = await list('send_date');
  t.is(refused.status, 422);
  t.is(refused.body.error.message, 'cursor is invalid: use the value from next_url or previous_url');
});

test('limit must be 1 to 100', async (t, ctx) => {
  const { api } = await seed(ctx);
  for (const limit of ['0', '101', 'ten', '-1', '2.5']) {
    const r = await api('GET', `/v1/addresses?limit=${limit}`);
    t.is(r.status, 422, limit);
    t.regex(r.body.error.message, /limit/);
  }
  t.is((await api('GET', '/v1/addresses?limit=100')).body.count, 25);
});

test('before and after together, or a forged cursor, are 422', async (t, ctx) => {
  const { api } = await seed(ctx);
  t.is((await api('GET', '/v1/addresses?before=abc&after=abc')).status, 422);
  t.is((await api('GET', '/v1/addresses?after=not-a-cursor')).status, 422);
  t.is((await api('GET', `/v1/addresses?after=${Buffer.from('{"x":1}').toString('base64url')}`)).status, 422);
});

test('date_created filters in bracket and JSON forms', async (t, ctx) => {
  const { api, dates } = await seed(ctx);
  const pivot = dates[12];
  const expected = dates.filter((d) => d > pivot).length;
  const bracket = await api('GET', `/v1/addresses?limit=100&date_created[gt]=${encodeURIComponent(pivot)}`);
  t.is(bracket.body.count, expected);
  const json = await api(
    'GET',
    `/v1/addresses?limit=100&date_created=${encodeURIComponent(JSON.stringify({ gt: pivot }))}`,
  );
  t.is(json.body.count, expected);
  const lte = await api('GET', `/v1/addresses?limit=100&date_created[lte]=${encodeURIComponent(pivot)}`);
  t.is(lte.body.count, 25 - expected);
  const day = pivot.slice(0, 10);
  t.is(
    (await api('GET', `/v1/addresses?limit=100&date_created[gte]=${day}`)).body.count,
    25,
    'a date means midnight UTC',
  );
  t.is((await api('GET', `/v1/addresses?limit=100&date_created[lt]=${day}`)).body.count, 0);
  const bad = await api('GET', '/v1/addresses?date_created[gt]=yesterday');
  t.is(bad.status, 422);
  t.is((await api('GET', '/v1/addresses?date_created[between]=2020-01-01')).status, 422);
});

test('metadata filters in bracket and JSON forms, combined with cursors', async (t, ctx) => {
  const { api } = await seed(ctx);
  const bracket = await api('GET', '/v1/addresses?limit=100&metadata[group]=a');
  t.is(bracket.body.count, 5);
  t.true(bracket.body.data.every((a: { metadata: { group: string } }) => a.metadata.group === 'a'));
  const json = await api('GET', `/v1/addresses?limit=100&metadata=${encodeURIComponent('{"group":"a","n":"10"}')}`);
  t.is(json.body.count, 1);
  const paged = await api('GET', '/v1/addresses?limit=3&metadata[group]=a&include[]=total_count');
  t.is(paged.body.total_count, 5);
  const next = await api('GET', paged.body.next_url.slice(paged.body.next_url.indexOf('/v1/')));
  t.is(next.body.count, 2);
  t.is((await api('GET', '/v1/addresses?metadata[group]=zzz')).body.count, 0);
});

test('deleted objects leave the list', async (t, ctx) => {
  const { engine } = ctx;
  const keys = await engine.createAccount();
  const api = client(engine.url, keys.test);
  const a = await api('POST', '/v1/addresses', {
    json: {
      company: 'X',
      address_line1: '1 A St',
      address_city: 'Springfield',
      address_state: 'IL',
      address_zip: '62701',
      metadata: { k: 'v' },
    },
  });
  await api('DELETE', `/v1/addresses/${a.body.id}`);
  const r = await api('GET', '/v1/addresses?include[]=total_count&metadata[k]=v');
  t.is(r.body.count, 0);
  t.is(r.body.total_count, 0);
});
