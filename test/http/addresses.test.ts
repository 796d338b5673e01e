// The address book of the spec: every field rule, limit and behaviour, on each database.
import { databaseSuite } from '../helpers/suite';
import { client } from '../helpers/http';

const { test, serial } = databaseSuite();

const US = {
  name: 'Harry Zhang',
  address_line1: '210 King Street',
  address_line2: 'Suite 6100',
  address_city: 'San Francisco',
  address_state: 'CA',
  address_zip: '94107',
};

test('create returns the address object with every field of the spec', async (t, { api }) => {
  const r = await api('POST', '/v1/addresses', {
    json: {
      ...US,
      description: 'Harry - Office',
      company: 'Lob',
      phone: '555-555-5555',
      email: 'harry@example.com',
      metadata: { customer: '42' },
    },
  });
  t.is(r.status, 200);
  t.regex(r.body.id, /^adr_[a-zA-Z0-9]+$/);
  t.is(r.body.object, 'address');
  t.is(r.body.description, 'Harry - Office');
  t.is(r.body.name, 'HARRY ZHANG');
  t.is(r.body.company, 'LOB');
  t.is(r.body.address_country, 'UNITED STATES');
  t.deepEqual(r.body.metadata, { customer: '42' });
  t.is(r.body.recipient_moved, false);
  t.regex(r.body.date_created, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  t.is(r.body.date_modified, r.body.date_created);
  t.false('deleted' in r.body);
});

test('US addresses are upper-cased and standardized; full state names stored as the code', async (t, { api }) => {
  const r = await api('POST', '/v1/addresses', {
    json: { ...US, address_state: 'california', address_zip: '941071741' },
  });
  t.is(r.status, 200);
  t.is(r.body.address_state, 'CA');
  t.is(r.body.address_city, 'SAN FRANCISCO');
  t.is(r.body.address_zip, '94107-1741');
  t.regex(r.body.address_line1, /^210 KING ST/);
});

test('standardization is deterministic: the same input gives the same output', async (t, { api }) => {
  const a = await api('POST', '/v1/addresses', { json: US });
  const b = await api('POST', '/v1/addresses', { json: US });
  for (const field of ['address_line1', 'address_line2', 'address_city', 'address_state', 'address_zip'])
    t.is(a.body[field], b.body[field]);
});

test('form-urlencoded bodies with bracket metadata work like JSON', async (t, { api }) => {
  const form = new URLSearchParams({ ...US, 'metadata[team]': 'ops', 'metadata[n]': '1' }).toString();
  const r = await api('POST', '/v1/addresses', { form });
  t.is(r.status, 200);
  t.deepEqual(r.body.metadata, { team: 'ops', n: '1' });
});

test('multipart bodies are accepted', async (t, { engine }) => {
  const fd = new FormData();
  for (const [k, v] of Object.entries(US)) fd.append(k, v);
  const r = await fetch(`${engine.url}/v1/addresses`, {
    method: 'POST',
    body: fd,
    headers: { authorization: `Basic ${Buffer.from(`${engine.keys.test}:`).toString('base64')}` },
  });
  t.is(r.status, 200);
  t.is(((await r.json()) as { name: string }).name, 'HARRY ZHANG');
});

const invalid: [string, Record<string, unknown>, RegExp][] = [
  ['address_line1 is required', { ...US, address_line1: undefined }, /address_line1 is required/],
  ['name or company is required', { ...US, name: undefined }, /name or company is required/],
  ['US address_city is required', { ...US, address_city: undefined }, /address_city is required/],
  [
    'neither name/company nor city/state/zip: the city first, as the vendor answers',
    { address_line1: '185 Berry St' },
    /^address_city is required$/,
  ],
  [
    'no name or company and no city: the city first',
    { ...US, name: undefined, address_city: undefined },
    /^address_city is required$/,
  ],
  [
    'no name or company and a bad ZIP: the name first',
    { ...US, name: undefined, address_zip: '9410' },
    /name or company/,
  ],
  ['US address_state is required', { ...US, address_state: undefined }, /address_state is required/],
  ['US address_zip is required', { ...US, address_zip: undefined }, /address_zip is required/],
  ['US state must be a real state', { ...US, address_state: 'ZZ' }, /address_state must be a valid US state/],
  ['US ZIP must be 12345 or 12345-1234', { ...US, address_zip: '9410' }, /address_zip must be in the format/],
  ['US address_line1 at most 64', { ...US, address_line1: 'x'.repeat(65) }, /address_line1 must be at most 64/],
  ['US address_line2 at most 64', { ...US, address_line2: 'x'.repeat(65) }, /address_line2 must be at most 64/],
  [
    'any address_line1 at most 200',
    { ...US, address_country: 'GB', address_line1: 'x'.repeat(201) },
    /address_line1 must be at most 200/,
  ],
  ['name at most 40', { ...US, name: 'x'.repeat(41) }, /name must be at most 40/],
  ['company at most 40', { ...US, company: 'x'.repeat(41) }, /company must be at most 40/],
  ['phone at most 40', { ...US, phone: '1'.repeat(41) }, /phone must be at most 40/],
  ['email at most 100', { ...US, email: `${'x'.repeat(95)}@a.com` }, /email must be at most 100/],
  ['description at most 255', { ...US, description: 'x'.repeat(256) }, /description must be at most 255/],
  [
    'address_city at most 200',
    { ...US, address_country: 'GB', address_city: 'x'.repeat(201) },
    /address_city must be at most 200/,
  ],
  [
    'non-US address_zip at most 40',
    { ...US, address_country: 'GB', address_zip: '1'.repeat(41) },
    /address_zip must be at most 40/,
  ],
  ['country must be two letters', { ...US, address_country: 'USA' }, /address_country must be a two-letter/],
  ['country must exist', { ...US, address_country: 'QQ' }, /address_country must be a valid/],
  [
    'metadata at most 20 keys',
    { ...US, metadata: Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`k${i}`, 'v'])) },
    /metadata must have at most 20 keys/,
  ],
  ['metadata keys at most 40', { ...US, metadata: { ['k'.repeat(41)]: 'v' } }, /metadata/],
  ['metadata values at most 500', { ...US, metadata: { k: 'v'.repeat(501) } }, /metadata\.k must be at most 500/],
  [
    'metadata values without double quotes',
    { ...US, metadata: { k: 'say "hi"' } },
    /metadata\.k must not contain double quotes/,
  ],
  ['metadata keys without backslashes', { ...US, metadata: { 'a\\b': 'v' } }, /metadata/],
  ['metadata without nested objects', { ...US, metadata: { k: { nested: 'x' } } }, /metadata\.k must be a string/],
  ['unknown fields are refused', { ...US, colour: 'red' }, /colour is not allowed/],
  [
    'a name without control characters (an ANSI escape)',
    { ...US, name: 'Ada \u001b[31mRED' },
    /name must not contain control characters/,
  ],
  [
    'an address line without line breaks',
    { ...US, address_line1: '1 Main St\r\nX' },
    /address_line1 must not contain control/,
  ],
  ['a city without C1 controls', { ...US, address_city: 'Spring\u0085field' }, /address_city must not contain control/],
];

for (const [rule, body, message] of invalid) {
  test(`rule: ${rule}`, async (t, { api }) => {
    const r = await api('POST', '/v1/addresses', { json: body });
    t.is(r.status, 422);
    t.is(r.body.error.status_code, 422);
    t.is(r.body.error.code, 'invalid');
    t.regex(r.body.error.message, message);
  });
}

test('non-US addresses are only upper-cased and keep optional fields optional', async (t, { api }) => {
  const r = await api('POST', '/v1/addresses', {
    json: {
      company: 'Acme GmbH',
      address_line1: 'Hauptstraße 5',
      address_city: 'Berlin',
      address_zip: '10115',
      address_country: 'de',
    },
  });
  t.is(r.status, 200);
  t.is(r.body.address_line1, 'HAUPTSTRASSE 5');
  t.is(r.body.address_city, 'BERLIN');
  t.is(r.body.address_state, null);
  t.is(r.body.address_country, 'GERMANY');
  t.is(r.body.recipient_moved, null);
});

test('a US territory given as the country is a domestic address with the territory as state', async (t, { api }) => {
  const r = await api('POST', '/v1/addresses', {
    json: {
      name: 'Ana',
      address_line1: '1 calle luna',
      address_city: 'San Juan',
      address_zip: '00901',
      address_country: 'PR',
    },
  });
  t.is(r.status, 200);
  t.is(r.body.address_state, 'PR');
  t.is(r.body.address_country, 'UNITED STATES');
  const noZip = await api('POST', '/v1/addresses', {
    json: { name: 'Ana', address_line1: '1 calle luna', address_city: 'San Juan', address_country: 'PR' },
  });
  t.is(noZip.status, 422);
  t.regex(noZip.body.error.message, /address_zip is required/);
});

test('test-mode NCOA sample: a moved recipient', async (t, { api }) => {
  const r = await api('POST', '/v1/addresses', { json: { ...US, address_line1: 'NCOA', address_line2: undefined } });
  t.is(r.status, 200);
  t.is(r.body.recipient_moved, true);
  t.not(r.body.address_line1, 'NCOA');
});

test('retrieve and delete; a deleted address is gone', async (t, { api }) => {
  const created = await api('POST', '/v1/addresses', { json: US });
  const got = await api('GET', `/v1/addresses/${created.body.id}`);
  t.deepEqual(got.body, created.body);
  const deleted = await api('DELETE', `/v1/addresses/${created.body.id}`);
  t.deepEqual(deleted.body, { id: created.body.id, deleted: true });
  const again = await api('GET', `/v1/addresses/${created.body.id}`);
  t.is(again.status, 404);
  t.is(again.body.error.code, 'not_found');
  t.is((await api('DELETE', `/v1/addresses/${created.body.id}`)).status, 404);
});

test('an unknown or malformed id is 404', async (t, { api }) => {
  t.is((await api('GET', '/v1/addresses/adr_doesnotexist')).status, 404);
  t.is((await api('GET', '/v1/addresses/%E2%9C%93')).status, 404);
});

test('isolation: another account and the live key never see the object (404, not 403)', async (t, { api, engine }) => {
  await engine.setSetting('payment_method_verified', true);
  await engine.setSetting('email_verified', true);
  const created = await api('POST', '/v1/addresses', { json: US });
  const other = await engine.createAccount();
  const asOther = client(engine.url, other.test);
  t.is((await asOther('GET', `/v1/addresses/${created.body.id}`)).status, 404);
  t.is((await asOther('DELETE', `/v1/addresses/${created.body.id}`)).status, 404);
  t.false(
    (await asOther('GET', '/v1/addresses?limit=100')).body.data.some((a: { id: string }) => a.id === created.body.id),
  );
  const live = await api('GET', `/v1/addresses/${created.body.id}`, { key: engine.keys.live });
  t.is(live.status, 404);
  t.is((await api('GET', `/v1/addresses/${created.body.id}`)).status, 200);
});

serial(
  'live mode: the edition address limit gives 403 feature_limit_reached; test mode has none',
  async (t, { engine }) => {
    const account = `limits-${Date.now()}`;
    const keys = await engine.createAccount(account);
    for (const [name, value] of [
      ['payment_method_verified', true],
      ['email_verified', true],
      ['address_limit', 2],
    ] as const) {
      await engine.setSetting(name, value, account);
    }
    const live = client(engine.url, keys.live);
    t.is((await live('POST', '/v1/addresses', { json: US })).status, 200);
    const second = await live('POST', '/v1/addresses', { json: US });
    t.is(second.status, 200);
    const third = await live('POST', '/v1/addresses', { json: US });
    t.is(third.status, 403);
    t.is(third.body.error.code, 'feature_limit_reached');
    await live('DELETE', `/v1/addresses/${second.body.id}`);
    t.is((await live('POST', '/v1/addresses', { json: US })).status, 200, 'deleted addresses do not count');
    const test3 = client(engine.url, keys.test);
    for (let i = 0; i < 3; i++) t.is((await test3('POST', '/v1/addresses', { json: US })).status, 200);
  },
);

serial('live mode needs a payment method and a verified e-mail', async (t, { engine }) => {
  const account = `gates-${Date.now()}`;
  const keys = await engine.createAccount(account);
  const live = client(engine.url, keys.live);
  const noPayment = await live('GET', '/v1/addresses');
  t.is(noPayment.status, 401);
  t.is(noPayment.body.error.code, 'payment_method_unverified');
  await engine.setSetting('payment_method_verified', true, account);
  t.is((await live('GET', '/v1/addresses')).status, 200);
  const noEmail = await live('POST', '/v1/addresses', { json: US });
  t.is(noEmail.status, 401);
  t.is(noEmail.body.error.code, 'email_required');
});

test('idempotency: a repeated key returns the first response and creates nothing new', async (t, { engine }) => {
  const keys = await engine.createAccount();
  const api = client(engine.url, keys.test);
  const first = await api('POST', '/v1/addresses', { json: US, headers: { 'Idempotency-Key': 'abc-1' } });
  const again = await api('POST', '/v1/addresses', {
    json: { ...US, name: 'Someone Else' },
    headers: { 'Idempotency-Key': 'abc-1' },
  });
  t.deepEqual(again.body, first.body);
  const viaQuery = await api('POST', '/v1/addresses?idempotency_key=abc-1', { json: US });
  t.deepEqual(viaQuery.body, first.body, 'the query parameter is the same key');
  t.is((await api('GET', '/v1/addresses?include[]=total_count')).body.total_count, 1);
  const both = await api('POST', '/v1/addresses?idempotency_key=x', { json: US, headers: { 'Idempotency-Key': 'x' } });
  t.is(both.status, 422);
  const tooLong = await api('POST', '/v1/addresses', { json: US, headers: { 'Idempotency-Key': 'k'.repeat(257) } });
  t.is(tooLong.status, 422);
  const live = await api('POST', '/v1/addresses', {
    json: US,
    headers: { 'Idempotency-Key': 'abc-1' },
    key: keys.live,
  });
  t.is(live.status, 401, 'keys are scoped per mode (live also needs a payment method)');
});

test('idempotency under concurrency: one key creates exactly one object', async (t, { engine }) => {
  const keys = await engine.createAccount();
  const api = client(engine.url, keys.test);
  const replies = await Promise.all(
    Array.from({ length: 8 }, () => api('POST', '/v1/addresses', { json: US, headers: { 'Idempotency-Key': 'race' } })),
  );
  const ok = replies.filter((r) => r.status === 200);
  t.true(ok.length >= 1);
  t.true(replies.every((r) => r.status === 200 || (r.status === 409 && r.body.error.code === 'conflict')));
  t.true(ok.every((r) => r.body.id === ok[0].body.id));
  t.is((await api('GET', '/v1/addresses?include[]=total_count')).body.total_count, 1);
  const after = await api('POST', '/v1/addresses', { json: US, headers: { 'Idempotency-Key': 'race' } });
  t.is(after.body.id, ok[0].body.id);
});

test('idempotency: a failed request does not burn its key', async (t, { engine }) => {
  const keys = await engine.createAccount();
  const api = client(engine.url, keys.test);
  const bad = await api('POST', '/v1/addresses', {
    json: { ...US, address_zip: 'nope' },
    headers: { 'Idempotency-Key': 'retry-me' },
  });
  t.is(bad.status, 422);
  const good = await api('POST', '/v1/addresses', { json: US, headers: { 'Idempotency-Key': 'retry-me' } });
  t.is(good.status, 200);
});

serial(
  'live mode corrects a US address from the ZIP database; the same input stays deterministic',
  async (t, { engine }) => {
    const name = `live-${Date.now()}`;
    const keys = await engine.createAccount(name);
    await engine.setSetting('payment_method_verified', true, name);
    await engine.setSetting('email_verified', true, name);
    const live = client(engine.url, keys.live);
    const input = {
      name: 'Ada',
      address_line1: '1 telegraph hill boulevard',
      address_city: 'san fransisco',
      address_state: 'california',
      address_zip: '94133',
    };
    const a = await live('POST', '/v1/addresses', { json: input });
    t.is(a.status, 200);
    t.is(a.body.address_line1, '1 TELEGRAPH HILL BLVD');
    t.is(a.body.address_city, 'SAN FRANCISCO');
    t.is(a.body.address_state, 'CA');
    t.is(a.body.recipient_moved, null, 'no change-of-address data behind live mode');
    const b = await live('POST', '/v1/addresses', { json: input });
    for (const field of ['address_line1', 'address_line2', 'address_city', 'address_state', 'address_zip'])
      t.is(b.body[field], a.body[field]);
  },
);
