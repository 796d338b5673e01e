// Drop-in compatibility: the vendor's `lob` 7.x Node client drives the address book with nothing changed
// but `host` and the key. It sends form-urlencoded bodies (nested objects are NOT flattened for
// addresses), bracket queries (`include[]=`, `date_created[gt]=`, `metadata[k]=`), turns any body
// with an `error` envelope into a thrown Error carrying `status_code`, and resolves everything else.
import type { ExecutionContext } from 'ava';
import { databaseSuite, type SuiteContext } from '../helpers/suite';

// `lob` ships no type declarations: describe the part of it these tests use.
interface LobError extends Error {
  status_code?: number;
}
type Obj = Record<string, any>;
interface LobClient {
  addresses: {
    create(params: Obj): Promise<Obj>;
    retrieve(id: string): Promise<Obj>;
    list(query?: Obj, callback?: (err: LobError | null, res?: Obj) => void): Promise<Obj>;
    delete(id: string): Promise<Obj>;
  };
}
// eslint-disable-next-line @typescript-eslint/no-require-imports
const Lob = require('lob') as (key: string, options: { host: string }) => LobClient;

const { test, serial } = databaseSuite();

const US = {
  name: 'Harry Zhang',
  address_line1: '210 King Street',
  address_line2: 'Suite 6100',
  address_city: 'San Francisco',
  address_state: 'CA',
  address_zip: '94107',
};

/** A client on an account of its own, so lists see only what the test created. */
async function freshClient({ engine }: SuiteContext, name?: string): Promise<{ lob: LobClient }> {
  const keys = await engine.createAccount(name);
  return { lob: Lob(keys.test, { host: `${engine.url}/v1/` }) };
}

async function rejection(t: ExecutionContext, promise: Promise<unknown>): Promise<LobError> {
  const error = await t.throwsAsync(promise);
  return error as LobError;
}

const cursor = (url: string, name: 'after' | 'before') => new URL(url).searchParams.get(name) ?? undefined;

/** The list order: newest first; objects created in the same millisecond by id, descending. */
const newestFirst = (objects: Obj[]): string[] =>
  [...objects]
    .sort((a, b) =>
      a.date_created === b.date_created ? (a.id < b.id ? 1 : -1) : a.date_created < b.date_created ? 1 : -1,
    )
    .map((a) => a.id);

test('create: the form-encoded body with flattened metadata keys gives the full address object', async (t, ctx) => {
  const { lob } = await freshClient(ctx);
  const a = await lob.addresses.create({
    ...US,
    description: 'Harry - Office',
    company: 'Lob',
    email: 'harry@example.com',
    phone: '555-555-5555',
    'metadata[customer]': 'x1',
    'metadata[tier]': 'gold',
  });
  t.regex(a.id, /^adr_[a-zA-Z0-9]+$/);
  t.is(a.object, 'address');
  t.is(a.name, 'HARRY ZHANG');
  t.is(a.company, 'LOB');
  t.is(a.description, 'Harry - Office');
  t.is(a.email, 'harry@example.com');
  t.is(a.address_state, 'CA');
  t.is(a.address_zip, '94107');
  t.is(a.address_country, 'UNITED STATES');
  t.regex(a.address_line1, /^210 KING ST/);
  t.deepEqual(a.metadata, { customer: 'x1', tier: 'gold' });
  t.is(a.recipient_moved, false);
  t.is(a.date_modified, a.date_created);
});

test('create: a full state name and a 9-digit ZIP (strings in a form body) are standardized', async (t, ctx) => {
  const { lob } = await freshClient(ctx);
  const a = await lob.addresses.create({ ...US, address_state: 'California', address_zip: '941071741' });
  t.is(a.address_state, 'CA');
  t.is(a.address_zip, '94107-1741');
});

test('create: an international address (form body) is upper-cased with the full country name', async (t, ctx) => {
  const { lob } = await freshClient(ctx);
  const a = await lob.addresses.create({
    company: 'Acme Corp',
    address_line1: '370 Water St',
    address_city: 'Summerside',
    address_state: 'Prince Edward Island',
    address_zip: 'C1N 1C4',
    address_country: 'CA',
  });
  t.is(a.company, 'ACME CORP');
  t.is(a.address_state, 'PRINCE EDWARD ISLAND');
  t.is(a.address_zip, 'C1N 1C4');
  t.is(a.address_country, 'CANADA');
  t.is(a.recipient_moved, null);
});

test('create: lob 7 sends a nested metadata object as "[object Object]": a 422 the client throws, nothing stored', async (t, ctx) => {
  const { lob } = await freshClient(ctx);
  const error = await rejection(t, lob.addresses.create({ ...US, metadata: { customer: 'x1' } }));
  t.is(error.status_code, 422);
  t.regex(error.message, /^metadata /);
  t.is((await lob.addresses.list({ include: ['total_count'] })).total_count, 0);
});

test('retrieve returns the stored object unchanged', async (t, ctx) => {
  const { lob } = await freshClient(ctx);
  const a = await lob.addresses.create({ ...US, 'metadata[k]': 'v' });
  const got = await lob.addresses.retrieve(a.id);
  t.deepEqual({ ...got }, { ...a });
});

test('list: limit, newest first, the after cursor from next_url and the before cursor from previous_url', async (t, ctx) => {
  const { lob } = await freshClient(ctx);
  const created: Obj[] = [];
  for (let i = 0; i < 5; i++) created.push(await lob.addresses.create({ ...US, name: `Person ${i}` }));
  const expected = newestFirst(created);

  const seen: string[] = [];
  const pages: Obj[] = [];
  let page = await lob.addresses.list({ limit: 2 });
  for (;;) {
    pages.push(page);
    t.is(page.object, 'list');
    t.is(page.count, page.data.length);
    t.true(page.count <= 2);
    seen.push(...page.data.map((a: Obj) => a.id));
    if (!page.next_url) break;
    const after = cursor(page.next_url, 'after');
    t.truthy(after);
    t.false(after!.includes('='), 'cursors carry no "="');
    page = await lob.addresses.list({ limit: 2, after });
  }
  t.deepEqual(seen, expected);
  t.is(pages.length, 3);
  t.is(pages[0].previous_url, null);
  t.is(pages[2].next_url, null);

  const back = await lob.addresses.list({ limit: 2, before: cursor(pages[2].previous_url, 'before') });
  t.deepEqual(
    back.data.map((a: Obj) => a.id),
    expected.slice(2, 4),
  );
});

test('list: include total_count (sent as include[]=total_count)', async (t, ctx) => {
  const { lob } = await freshClient(ctx);
  for (let i = 0; i < 3; i++) await lob.addresses.create(US);
  const withTotal = await lob.addresses.list({ limit: 1, include: ['total_count'] });
  t.is(withTotal.total_count, 3);
  t.is(withTotal.count, 1);
  t.false('total_count' in (await lob.addresses.list({ limit: 1 })));
});

test('list: date_created filter with strings and Date objects (sent as date_created[gt]=…)', async (t, ctx) => {
  const { lob } = await freshClient(ctx);
  const first = await lob.addresses.create({ ...US, name: 'First' });
  await new Promise((resolve) => setTimeout(resolve, 15));
  const second = await lob.addresses.create({ ...US, name: 'Second' });
  const ids = (page: Obj) => page.data.map((a: Obj) => a.id);
  t.deepEqual(ids(await lob.addresses.list({ date_created: { gt: first.date_created } })), [second.id]);
  t.deepEqual(ids(await lob.addresses.list({ date_created: { lt: new Date(second.date_created) } })), [first.id]);
  t.deepEqual(
    ids(await lob.addresses.list({ date_created: { gte: '2000-01-01', lte: new Date(Date.now() + 60_000) } })),
    [second.id, first.id],
  );
  t.deepEqual(ids(await lob.addresses.list({ date_created: { lt: '2000-01-01' } })), []);
  const error = await rejection(t, lob.addresses.list({ date_created: { gt: 'yesterday' } }));
  t.is(error.status_code, 422);
});

test('list: metadata filter (sent as metadata[key]=value), combined with total_count and paging', async (t, ctx) => {
  const { lob } = await freshClient(ctx);
  const created: Obj[] = [];
  for (let i = 0; i < 4; i++) {
    const a = await lob.addresses.create({ ...US, 'metadata[group]': i % 2 === 0 ? 'a b' : 'other' });
    if (i % 2 === 0) created.push(a);
  }
  const tagged = newestFirst(created);
  const page = await lob.addresses.list({ limit: 1, include: ['total_count'], metadata: { group: 'a b' } });
  t.is(page.total_count, 2);
  t.deepEqual(
    page.data.map((a: Obj) => a.id),
    [tagged[0]],
  );
  t.truthy(page.next_url);
  const next = await lob.addresses.list({
    limit: 1,
    metadata: { group: 'a b' },
    after: cursor(page.next_url, 'after'),
  });
  t.deepEqual(
    next.data.map((a: Obj) => a.id),
    [tagged[1]],
  );
  t.is(next.next_url, null);
});

test('list works with a node-style callback too', async (t, ctx) => {
  const { lob } = await freshClient(ctx);
  await lob.addresses.create(US);
  const result = await new Promise<Obj>((resolve, reject) => {
    void lob.addresses.list({ limit: 1 }, (err, res) => (err ? reject(err) : resolve(res!)));
  });
  t.is(result.count, 1);
});

test('delete returns {id, deleted: true}; the address is then gone (404 thrown with status_code)', async (t, ctx) => {
  const { lob } = await freshClient(ctx);
  const a = await lob.addresses.create(US);
  const deleted = await lob.addresses.delete(a.id);
  t.deepEqual({ ...deleted }, { id: a.id, deleted: true });
  const error = await rejection(t, lob.addresses.retrieve(a.id));
  t.is(error.status_code, 404);
  t.is(error.message, 'address not found');
  t.is((await rejection(t, lob.addresses.delete(a.id))).status_code, 404);
  t.deepEqual((await lob.addresses.list()).data, []);
});

const invalid: [string, Obj, string][] = [
  ['missing address_line1', { ...US, address_line1: undefined }, 'address_line1 is required'],
  ['neither name nor company', { ...US, name: undefined }, 'name or company is required'],
  ['US address without city', { ...US, address_city: undefined }, 'address_city is required'],
  ['US address without state', { ...US, address_state: undefined }, 'address_state is required'],
  ['US address without ZIP', { ...US, address_zip: undefined }, 'address_zip is required'],
  ['name over 40 characters', { ...US, name: 'x'.repeat(41) }, 'name must be at most 40 characters'],
  [
    'description over 255 characters',
    { ...US, description: 'd'.repeat(256) },
    'description must be at most 255 characters',
  ],
];

for (const [title, params, message] of invalid) {
  test(`errors: 422 thrown with the spec message and status_code (${title})`, async (t, ctx) => {
    const { lob } = await freshClient(ctx);
    const error = await rejection(t, lob.addresses.create(params));
    t.is(error.message, message);
    t.is(error.status_code, 422);
  });
}

test('errors: a bad or revoked-looking key gives 401; a publishable key gives 403', async (t, { engine }) => {
  for (const key of ['test_0000000000000000000000000000000', 'nonsense']) {
    const error = await rejection(t, Lob(key, { host: `${engine.url}/v1/` }).addresses.list());
    t.is(error.status_code, 401, key);
    t.regex(error.message, /API key/);
  }
  const pub = await rejection(t, Lob(engine.keys.testPub, { host: `${engine.url}/v1/` }).addresses.create(US));
  t.is(pub.status_code, 403);
});

test('errors: an unknown id and an invalid cursor are thrown, never resolved as data', async (t, ctx) => {
  const { lob } = await freshClient(ctx);
  t.is((await rejection(t, lob.addresses.retrieve('adr_doesnotexist'))).status_code, 404);
  t.is((await rejection(t, lob.addresses.list({ after: 'not-a-cursor' }))).status_code, 422);
  t.is((await rejection(t, lob.addresses.list({ limit: 101 }))).status_code, 422);
});

serial('errors: 429 thrown with the spec message when the rate limit is exceeded', async (t, ctx) => {
  const name = `lob-node-rate-${ctx.db}-${Date.now()}`;
  const { lob } = await freshClient(ctx, name);
  await ctx.engine.setSetting('rate_limit_per_5s', 3, name);
  // 10 calls within at most two 5-second windows: one window sees at least 5 > 3.
  const results = await Promise.allSettled(Array.from({ length: 10 }, () => lob.addresses.list({ limit: 1 })));
  const limited = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
  t.true(limited.length >= 2, `${limited.length} rejected`);
  for (const { reason } of limited) {
    t.is((reason as LobError).status_code, 429);
    t.is((reason as LobError).message, 'Rate limit exceeded. Please wait 5 seconds and try your request again.');
  }
});
