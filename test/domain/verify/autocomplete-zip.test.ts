// US autocomplete and US ZIP lookup: the test-mode behaviour of docs/compat-notes.md, and live answers from the
// account's own address book and the ZIP database.
import test from 'ava';
import { databaseSuite } from '../../helpers/suite';
import { conforms, freshAccount } from './helpers';
import { suggestFromAddresses } from '../../../engine/domain/verify/autocomplete';

const suite = databaseSuite();
const AUTO = '/v1/us_autocompletions';
const ZIP = '/v1/us_zip_lookups';

suite.test(
  'test keys: "N s" returns ten; each further letter of "suggestion" drops one from the front; the number replaces each line\'s',
  async (t, ctx) => {
    const { api } = await freshAccount(ctx);
    const ten = await api('POST', AUTO, { json: { address_prefix: '1 s' } });
    conforms(t, 'POST', AUTO, ten);
    t.is(ten.body.suggestions.length, 10);
    t.deepEqual(
      ten.body.suggestions.slice(-7).map((s: { primary_line: string }) => s.primary_line),
      [
        '1 TELEPHONE RD',
        '1 TELEGA PL',
        '1 TELEGRAM AVE',
        '1 TELEGRAM AVE',
        '1 TELEGRAPH HILL RD',
        '1 TELEGRAPH HILL RD S',
        '1 TELEGRAPH HILL BLVD',
      ],
    );
    t.deepEqual(ten.body.suggestions.at(-1), {
      primary_line: '1 TELEGRAPH HILL BLVD',
      city: 'SAN FRANCISCO',
      state: 'CA',
      zip_code: '94133',
      object: 'us_autocompletion',
    });
    const nine = await api('POST', AUTO, { json: { address_prefix: '185 su' } });
    t.is(nine.body.suggestions.length, 9);
    t.is(nine.body.suggestions[0].primary_line, '185 TELEGRAPH RD');
    t.deepEqual(
      nine.body.suggestions.slice(1),
      ten.body.suggestions
        .slice(2)
        .map((s: { primary_line: string }) => ({ ...s, primary_line: s.primary_line.replace(/^1 /, '185 ') })),
    );
    t.is((await api('POST', AUTO, { json: { address_prefix: '1 suggestion' } })).body.suggestions.length, 1);
    t.deepEqual((await api('POST', AUTO, { json: { address_prefix: '0 suggestions' } })).body.suggestions, []);
  },
);

suite.test(
  'test keys: city and state filters apply to the fixed list, case insensitive and exact; ZIP by prefix',
  async (t, ctx) => {
    const { api } = await freshAccount(ctx);
    const ny = await api('POST', AUTO, { json: { address_prefix: '1 s', state: 'ny' } });
    t.deepEqual(
      ny.body.suggestions.map((s: { city: string }) => s.city),
      ['ELMONT'],
    );
    const holmdel = await api('POST', AUTO, { json: { address_prefix: '1 s', city: 'holmdel', state: 'NJ' } });
    t.is(holmdel.body.suggestions.length, 2);
    t.is(
      (await api('POST', AUTO, { json: { address_prefix: '1 s', city: 'holm' } })).body.suggestions.length,
      0,
      'no partial city match',
    );
    t.is((await api('POST', AUTO, { json: { address_prefix: '1 s', zip_code: '94' } })).body.suggestions.length, 2);
  },
);

suite.test(
  'test keys: a prefix that matches nothing returns the one suggestion saying so; case=proper applies',
  async (t, ctx) => {
    const { api } = await freshAccount(ctx);
    const r = await api('POST', AUTO, { json: { address_prefix: '210 King' } });
    t.deepEqual(
      r.body.suggestions.map((s: { primary_line: string }) => s.primary_line),
      ['TEST KEYS DO NOT AUTOCOMPLETE US ADDRESSES'],
    );
    const proper = await api('POST', `${AUTO}?case=proper&valid_addresses=true`, {
      json: { address_prefix: '1 s', state: 'CA' },
    });
    t.deepEqual(
      proper.body.suggestions.map((s: { primary_line: string; city: string }) => `${s.primary_line}, ${s.city}`),
      ['1 Telegraph Ave, Oakland', '1 Telega Pl, Palmdale', '1 Telegraph Hill Blvd, San Francisco'],
    );
  },
);

const AUTO_REFUSED: [Record<string, unknown>, string][] = [
  [{}, 'address_prefix is required'],
  [{ address_prefix: '' }, 'address_prefix is not allowed to be empty'],
  [
    { address_prefix: '185 B#' },
    'address_prefix must contain only letters, numbers and spaces (street number and name)',
  ],
  [{ address_prefix: '185 B', state: 'California' }, 'state must be a two-letter state code'],
  [{ address_prefix: '185 B', zip_code: '941x' }, 'zip_code must be 1 to 5 digits'],
  [{ address_prefix: '185 B', geo_ip_sort: 'maybe' }, 'geo_ip_sort must be a boolean'],
];

for (const [json, message] of AUTO_REFUSED) {
  suite.test(`autocomplete refused: ${message}`, async (t, ctx) => {
    const { api } = await freshAccount(ctx);
    const r = await api('POST', AUTO, { json });
    conforms(t, 'POST', AUTO, r, 422);
    t.is(r.body.error.message, message);
  });
}

suite.test("live: suggestions from the account's own live addresses, at most ten, filters applied", async (t, ctx) => {
  const { api, keys } = await freshAccount(ctx, { payment_method_verified: true, email_verified: true });
  const add = (line: string, city: string, state: string, zip: string, key = keys.live) =>
    api('POST', '/v1/addresses', {
      key,
      json: { name: 'A', address_line1: line, address_city: city, address_state: state, address_zip: zip },
    });
  await add('185 Berry Street Suite 6100', 'San Francisco', 'CA', '94107');
  await add('185 Berry St', 'San Francisco', 'CA', '94107');
  await add('210 King Street', 'San Francisco', 'CA', '94107');
  await add('1 Bayside Village Pl', 'San Francisco', 'CA', '94107');
  await add('4059 Mt Lee Drive', 'Los Angeles', 'CA', '90068');
  await add('185 Broadway', 'New York', 'NY', '10006', keys.test); // test mode: not seen by live keys
  for (let i = 0; i < 12; i++) await add(`${100 + i} Bryant St`, 'San Francisco', 'CA', '94107');

  const b = await api('POST', AUTO, { key: keys.livePub, json: { address_prefix: '185 B' } });
  conforms(t, 'POST', AUTO, b);
  const lines = b.body.suggestions.map((s: { primary_line: string }) => s.primary_line);
  t.deepEqual(lines.slice(0, 2), ['185 BERRY ST', '185 BERRY ST STE 6100'], 'whole addresses first');
  t.true(
    lines.includes('185 BAYSIDE VILLAGE PL') && lines.includes('185 BRYANT ST'),
    'then the typed number on known streets',
  );
  t.false(lines.includes('185 BROADWAY'));
  const many = await api('POST', AUTO, { key: keys.live, json: { address_prefix: '1' } });
  t.is(many.body.suggestions.length, 10);
  t.deepEqual(
    (await api('POST', AUTO, { key: keys.live, json: { address_prefix: '185 B', state: 'NY' } })).body.suggestions,
    [],
  );
  t.is(
    (await api('POST', AUTO, { key: keys.live, json: { address_prefix: '4059', city: 'Hollywood' } })).body.suggestions
      .length,
    0,
    'HOLLYWOOD is not a name of 90068 in the ZIP database',
  );
  t.is(
    (
      await api('POST', AUTO, {
        key: keys.live,
        json: { address_prefix: '4059', city: 'los angeles', zip_code: '900' },
      })
    ).body.suggestions[0].primary_line,
    '4059 MT LEE DR',
  );
});

test("the ZIP database resolves the city filter: an acceptable name of the address's ZIP matches", (t) => {
  const book = [
    {
      address_line1: '9 PINE ST',
      address_city: 'HOLLYWOOD',
      address_state: 'CA',
      address_zip: '90028',
      address_country: 'UNITED STATES',
    },
  ];
  // 90028's name in the database is LOS ANGELES; the stored city says HOLLYWOOD.
  t.is(suggestFromAddresses('9 P', { city: 'Los Angeles' }, book).length, 1);
  t.is(suggestFromAddresses('9 P', { city: 'Hollywood' }, book).length, 1);
  t.is(suggestFromAddresses('9 P', { city: 'Burbank' }, book).length, 0);
});

suite.test('ZIP lookup, test keys: one generic sample with the ZIP sent; 00000 is invalid', async (t, ctx) => {
  const { api } = await freshAccount(ctx);
  const r = await api('POST', ZIP, { json: { zip_code: '10001' } });
  conforms(t, 'POST', ZIP, r);
  t.is(r.body.zip_code, '10001');
  t.is(r.body.cities.length, 1);
  const invalid = await api('POST', ZIP, { json: { zip_code: '00000' } });
  conforms(t, 'POST', ZIP, invalid, 422);
  t.is(invalid.body.error.message, 'invalid zip code');
  for (const [json, message] of [
    [{}, 'zip_code is required'],
    [{ zip_code: '94107-1741' }, 'zip_code must be a 5-digit ZIP code'],
    [{ zip_code: '9410' }, 'zip_code must be a 5-digit ZIP code'],
  ] as const) {
    const bad = await api('POST', ZIP, { json });
    t.is(bad.status, 422);
    t.is(bad.body.error.message, message);
  }
});

suite.test(
  'ZIP lookup, live: from the ZIP database, preferred city first; an unknown ZIP has no cities',
  async (t, ctx) => {
    const { api, keys } = await freshAccount(ctx, { payment_method_verified: true });
    const r = await api('POST', ZIP, { key: keys.live, json: { zip_code: '94107' } });
    conforms(t, 'POST', ZIP, r);
    t.like(r.body, { zip_code: '94107', zip_code_type: 'standard', object: 'us_zip_lookup' });
    t.deepEqual(r.body.cities, [
      { city: 'SAN FRANCISCO', state: 'CA', county: 'SAN FRANCISCO', county_fips: '06075', preferred: true },
    ]);
    t.regex(r.body.id, /^us_zip_[a-zA-Z0-9]+$/);
    t.is((await api('POST', ZIP, { key: keys.live, json: { zip_code: '94172' } })).body.zip_code_type, 'po_box');
    t.is((await api('POST', ZIP, { key: keys.live, json: { zip_code: '96278' } })).body.zip_code_type, 'military');
    const unknown = await api('POST', ZIP, { key: keys.live, json: { zip_code: '00001' } });
    t.like(unknown.body, { zip_code: '00001', zip_code_type: '', cities: [] });
    t.is((await api('POST', ZIP, { key: keys.live, json: { zip_code: '00000' } })).status, 422);
  },
);
