// The field rules of US verification (spec: US verification) and of the bulk form (docs/compat-notes.md), with
// their messages; keys (secret and publishable, test and live), rate limits, payment gates.
import { databaseSuite } from '../../helpers/suite';
import { client } from '../../helpers/http';
import { conforms, freshAccount } from './helpers';

const { test } = databaseSuite();

const PATH = '/v1/us_verifications';

const REFUSED: [string, Record<string, unknown>, string][] = [
  [
    'no primary_line and no address',
    { city: 'San Francisco', state: 'CA' },
    'primary_line is required or address is required',
  ],
  [
    'an empty primary_line',
    { primary_line: '  ', zip_code: '94107' },
    'primary_line is required or address is required',
  ],
  [
    'neither ZIP nor city and state',
    { primary_line: '210 King St' },
    'zip_code is required, or city and state are required',
  ],
  [
    'a city without state or ZIP',
    { primary_line: '210 King St', city: 'San Francisco' },
    'state is required when zip_code is absent',
  ],
  [
    'a state without city or ZIP',
    { primary_line: '210 King St', state: 'CA' },
    'city is required when zip_code is absent',
  ],
  [
    'a four-digit ZIP',
    { primary_line: '210 King St', zip_code: '9410' },
    'zip_code must be a ZIP code (12345) or ZIP+4 (12345-6789)',
  ],
  [
    'a ZIP with letters',
    { primary_line: '210 King St', zip_code: '9410A' },
    'zip_code must be a ZIP code (12345) or ZIP+4 (12345-6789)',
  ],
  [
    'a six-digit ZIP',
    { primary_line: '210 King St', zip_code: '941071' },
    'zip_code must be a ZIP code (12345) or ZIP+4 (12345-6789)',
  ],
  [
    'address with recipient',
    { address: '210 King St 94107', recipient: 'Harry' },
    'recipient is not allowed with address: send either address or the components',
  ],
  [
    'address with a component',
    { address: '210 King St 94107', city: 'San Francisco' },
    'city is not allowed with address: send either address or the components',
  ],
  [
    'address with zip_code',
    { address: '210 King St', zip_code: '94107' },
    'zip_code is not allowed with address: send either address or the components',
  ],
  ['an unknown field', { primary_line: '210 King St', zip_code: '94107', country: 'US' }, 'country is not allowed'],
  [
    'a primary_line over 200 characters',
    { primary_line: 'x'.repeat(201), zip_code: '94107' },
    'primary_line must be at most 200 characters',
  ],
  ['an address over 500 characters', { address: 'x'.repeat(501) }, 'address must be at most 500 characters'],
  [
    'a state over 50 characters',
    { primary_line: '210 King St', city: 'SF', state: 'x'.repeat(51) },
    'state must be at most 50 characters',
  ],
];

for (const [title, json, message] of REFUSED) {
  test(`refused with 422: ${title}`, async (t, ctx) => {
    const { api } = await freshAccount(ctx);
    const r = await api('POST', PATH, { json });
    conforms(t, 'POST', PATH, r, 422);
    t.deepEqual(r.body, { error: { message, code: 'invalid', status_code: 422 } });
  });
}

const ACCEPTED: [string, Record<string, unknown>][] = [
  ['ZIP alone', { primary_line: '210 King St', zip_code: '94107' }],
  ['ZIP+4 with a hyphen', { primary_line: '210 King St', zip_code: '94107-1741' }],
  ['ZIP+4 without a hyphen', { primary_line: '210 King St', zip_code: '941071741' }],
  ['city and state, no ZIP', { primary_line: '210 King St', city: 'San Francisco', state: 'CA' }],
  [
    'city and state with an empty ZIP',
    { primary_line: '210 King St', city: 'San Francisco', state: 'California', zip_code: '' },
  ],
  [
    'every component',
    {
      recipient: 'Harry',
      primary_line: '210 King St',
      secondary_line: 'Ste 6100',
      urbanization: '',
      city: 'San Francisco',
      state: 'CA',
      zip_code: '94107',
    },
  ],
  ['a null recipient', { recipient: null, primary_line: '210 King St', zip_code: '94107' }],
  ['one address string', { address: '210 King St, San Francisco CA 94107' }],
];

for (const [title, json] of ACCEPTED) {
  test(`accepted: ${title}`, async (t, ctx) => {
    const { api, keys } = await freshAccount(ctx, { payment_method_verified: true });
    conforms(t, 'POST', PATH, await api('POST', PATH, { json }));
    conforms(t, 'POST', PATH, await api('POST', PATH, { json, key: keys.live }));
  });
}

test('every key kind may verify: secret and publishable, test and live', async (t, ctx) => {
  const { keys, api } = await freshAccount(ctx, { payment_method_verified: true });
  for (const key of [keys.test, keys.testPub])
    t.is(
      (await api('POST', PATH, { key, json: { primary_line: 'deliverable', zip_code: '94133' } })).body.id,
      'us_ver_deliverable',
    );
  for (const key of [keys.live, keys.livePub]) {
    const r = await api('POST', PATH, { key, json: { primary_line: '1 Telegraph Hill Blvd', zip_code: '94133' } });
    t.is(r.body.deliverability, 'deliverable');
    t.regex(r.body.id, /^us_ver_[0-9a-f]+$/);
  }
});

test('publishable keys may call US and international verification and autocomplete, nothing else', async (t, ctx) => {
  const { keys, api } = await freshAccount(ctx);
  const pub = keys.testPub;
  t.is(
    (
      await api('POST', '/v1/bulk/us_verifications', {
        key: pub,
        json: { addresses: [{ primary_line: 'po box', zip_code: '94107' }] },
      })
    ).status,
    200,
  );
  t.is(
    (await api('POST', '/v1/intl_verifications', { key: pub, json: { primary_line: 'deliverable', country: 'CA' } }))
      .status,
    200,
  );
  t.is(
    (
      await api('POST', '/v1/bulk/intl_verifications', {
        key: pub,
        json: { addresses: [{ primary_line: 'deliverable', country: 'CA' }] },
      })
    ).status,
    200,
  );
  t.is((await api('POST', '/v1/us_autocompletions', { key: pub, json: { address_prefix: '1 s' } })).status, 200);
  const zip = await api('POST', '/v1/us_zip_lookups', { key: pub, json: { zip_code: '94107' } });
  conforms(t, 'POST', '/v1/us_zip_lookups', zip, 403);
  t.is(zip.body.error.code, 'publishable_key_not_allowed');
  t.is((await api('GET', '/v1/addresses', { key: pub })).status, 403);
});

test('rate limits: 300 per 5 s for US verification and autocomplete (twice the account limit), 150 for the rest', async (t, ctx) => {
  const { keys } = await freshAccount(ctx, { rate_limit_per_5s: 150 });
  const api = client(ctx.engine.url, keys.test);
  const limits: Record<string, [string, Record<string, unknown>]> = {
    300: [PATH, { primary_line: 'po box', zip_code: '94107' }],
    '300 ': ['/v1/us_autocompletions', { address_prefix: '1 s' }],
    150: ['/v1/intl_verifications', { primary_line: 'deliverable', country: 'CA' }],
    '150 ': ['/v1/us_zip_lookups', { zip_code: '94107' }],
  };
  for (const [limit, [path, json]] of Object.entries(limits)) {
    const r = await api('POST', path, { json });
    t.is(r.headers.get('x-rate-limit-limit'), limit.trim(), path);
    t.is(r.headers.get('ratelimit-limit'), limit.trim(), path);
  }
  t.is(
    (
      await api('POST', '/v1/bulk/us_verifications', {
        json: { addresses: [{ primary_line: 'po box', zip_code: '94107' }] },
      })
    ).headers.get('x-rate-limit-limit'),
    '150',
  );
});

test('US verification gets twice the account limit, then 429', async (t, ctx) => {
  const { keys } = await freshAccount(ctx, { rate_limit_per_5s: 5 });
  const api = client(ctx.engine.url, keys.test);
  const json = { primary_line: 'po box', zip_code: '94107' };
  // The first call of a key and endpoint opens its window: 10 allowed, 9 left.
  const first = await api('POST', PATH, { json });
  t.is(first.headers.get('x-rate-limit-limit'), '10');
  t.is(first.headers.get('x-rate-limit-remaining'), '9');
  // Even across a window turn, at most 20 of 21 quick calls fit in two windows.
  let refused;
  for (let i = 0; i < 20 && !refused; i++) {
    const r = await api('POST', PATH, { json });
    if (r.status === 429) refused = r;
  }
  t.truthy(refused);
  conforms(t, 'POST', PATH, refused!, 429);
  t.is(refused!.body.error.message, 'Rate limit exceeded. Please wait 5 seconds and try your request again.');
});

test('live: intl verification, autocomplete, ZIP lookup and bulk need a payment method (401); test keys do not', async (t, ctx) => {
  const { keys, api } = await freshAccount(ctx);
  const calls: [string, Record<string, unknown>][] = [
    ['/v1/intl_verifications', { primary_line: '370 Water St', postal_code: 'C1N 1C4', country: 'CA' }],
    ['/v1/us_autocompletions', { address_prefix: '1 Tel' }],
    ['/v1/us_zip_lookups', { zip_code: '94107' }],
    ['/v1/bulk/us_verifications', { addresses: [{ primary_line: '1 Telegraph Hill Blvd', zip_code: '94133' }] }],
  ];
  for (const [path, json] of calls) {
    const live = await api('POST', path, { json, key: keys.live });
    t.is(live.status, 401, path);
    t.is(live.body.error.code, 'payment_method_unverified');
    t.is((await api('POST', path, { json })).status, 200, path);
  }
});

test('bulk: 1 to 20 entries; each entry is checked alone and a bad one becomes an error object', async (t, ctx) => {
  const { api } = await freshAccount(ctx);
  const path = '/v1/bulk/us_verifications';
  const r = await api('POST', `${path}?case=proper`, {
    json: {
      addresses: [
        { primary_line: 'po box', zip_code: '94107' },
        { city: 'San Francisco' },
        { address: 'military', recipient: 'x' },
      ],
    },
  });
  conforms(t, 'POST', path, r);
  t.is(r.body.errors, true);
  t.is(r.body.addresses[0].primary_line, 'PO Box 720114');
  t.deepEqual(r.body.addresses[1], {
    error: { message: 'primary_line is required or address is required', code: 'invalid', status_code: 422 },
  });
  t.is(
    r.body.addresses[2].error.message,
    'recipient is not allowed with address: send either address or the components',
  );
  const fine = await api('POST', path, { json: { addresses: [{ primary_line: 'deliverable', zip_code: '94133' }] } });
  t.is(fine.body.errors, false);
  for (const [json, message] of [
    [{}, 'addresses is required'],
    [{ addresses: [] }, 'addresses must contain at least 1 items'],
    [
      { addresses: Array.from({ length: 21 }, () => ({ primary_line: 'po box', zip_code: '94107' })) },
      'addresses must contain at most 20 items',
    ],
  ] as const) {
    const bad = await api('POST', path, { json });
    t.is(bad.status, 422);
    t.is(bad.body.error.message, message);
  }
});

test('bulk in live mode verifies each entry', async (t, ctx) => {
  const { api, keys } = await freshAccount(ctx, { payment_method_verified: true });
  const r = await api('POST', '/v1/bulk/us_verifications', {
    key: keys.live,
    json: {
      addresses: [{ primary_line: '210 King St', zip_code: '94107' }, { address: '1 Main St, Nowhere ZZ 00001' }],
    },
  });
  t.is(r.status, 200);
  t.is(r.body.addresses[0].deliverability, 'deliverable');
  t.is(r.body.addresses[0].last_line, 'SAN FRANCISCO CA 94107');
  t.is(r.body.addresses[1].deliverability, 'undeliverable');
  t.is(r.body.errors, false);
});
