// Both official vendor clients drive every verification call with nothing changed but host and key:
// `lob` 7.x (form bodies, JSON for bulk, `?case=`, throws on any `error` envelope) and
// `@lob/lob-typescript-sdk` 1.4 (JSON bodies, model classes whose setters check id patterns).
import type { ExecutionContext } from 'ava';
import {
  Configuration,
  IntlVerificationsApi,
  UsAutocompletionsApi,
  UsVerificationsApi,
  ZipLookupsApi,
} from '@lob/lob-typescript-sdk';
import { databaseSuite, type SuiteContext } from '../../helpers/suite';
import { freshAccount } from './helpers';

type Obj = Record<string, any>;
interface LobError extends Error {
  status_code?: number;
}
interface LobClient {
  usVerifications: { verify(body: Obj, qs?: Obj): Promise<Obj> };
  intlVerifications: { verify(body: Obj): Promise<Obj> };
  usAutocompletions: { autocomplete(body: Obj, qs?: Obj): Promise<Obj> };
  usZipLookups: { lookup(body: Obj): Promise<Obj> };
  bulkUSVerifications: { verify(body: Obj, qs?: Obj): Promise<Obj> };
  bulkIntlVerifications: { verify(body: Obj): Promise<Obj> };
}
// eslint-disable-next-line @typescript-eslint/no-require-imports
const Lob = require('lob') as (key: string, options: { host: string }) => LobClient;

const { test } = databaseSuite();

async function clients(ctx: SuiteContext, live = false) {
  const { keys } = await freshAccount(ctx, { payment_method_verified: true });
  const key = live ? keys.live : keys.test;
  const config = new Configuration({ basePath: `${ctx.engine.url}/v1`, username: key });
  return {
    keys,
    lob: Lob(key, { host: `${ctx.engine.url}/v1/` }),
    us: new UsVerificationsApi(config),
    intl: new IntlVerificationsApi(config),
    auto: new UsAutocompletionsApi(config),
    zip: new ZipLookupsApi(config),
  };
}

async function sdkRejection(t: ExecutionContext, promise: Promise<unknown>): Promise<string> {
  const error = (await t.throwsAsync(promise)) as Error & { response?: { status: number } };
  return `${error.response?.status} ${error.message}`;
}

test('lob-node: usVerifications.verify with a test key, components and one string, ?case=proper', async (t, ctx) => {
  const { lob } = await clients(ctx);
  const v = await lob.usVerifications.verify({ primary_line: 'po box', city: 'San Francisco', state: 'CA' });
  t.is(v.id, 'us_ver_po_box');
  t.is(v.components.zip_code_type, 'po_box');
  const proper = await lob.usVerifications.verify({ address: 'residential house' }, { case: 'proper' });
  t.is(proper.recipient, 'Test Keys Do Not Verify Addresses');
  const error = (await t.throwsAsync(lob.usVerifications.verify({ city: 'San Francisco' }))) as LobError;
  t.is(error.message, 'primary_line is required or address is required');
  t.is(error.status_code, 422);
});

test('lob-node: live verification, bulk (JSON), intl, autocomplete with valid_addresses, ZIP lookup', async (t, ctx) => {
  const { lob } = await clients(ctx, true);
  const v = await lob.usVerifications.verify({
    primary_line: '210 King Street',
    city: 'San Francisco',
    state: 'CA',
    zip_code: '94107',
  });
  t.is(String(v.deliverability), 'deliverable');
  t.is(v.last_line, 'SAN FRANCISCO CA 94107');
  const bulk = await lob.bulkUSVerifications.verify(
    { addresses: [{ primary_line: '1 Telegraph Hill Blvd', zip_code: '94133' }, { primary_line: '' }] },
    { case: 'proper' },
  );
  t.is(bulk.addresses[0].primary_line, '1 Telegraph Hill Blvd');
  t.is(bulk.addresses[1].error.message, 'primary_line is required or address is required');
  t.true(bulk.errors);
  const intl = await lob.intlVerifications.verify({
    primary_line: '370 Water St',
    city: 'Summerside',
    state: 'PE',
    postal_code: 'C1N1C4',
    country: 'CA',
  });
  t.is(intl.last_line, 'SUMMERSIDE PE C1N 1C4');
  const intlBulk = await lob.bulkIntlVerifications.verify({
    addresses: [{ primary_line: 'Unter den Linden 77', city: 'Berlin', postal_code: '10117', country: 'DE' }],
  });
  t.is(intlBulk.addresses[0].last_line, '10117 BERLIN');
  const auto = await lob.usAutocompletions.autocomplete(
    { address_prefix: '210 K', geo_ip_sort: false },
    { case: 'proper', valid_addresses: true },
  );
  t.deepEqual(auto.suggestions, [], 'a fresh account has no addresses to suggest from');
  const zip = await lob.usZipLookups.lookup({ zip_code: '94107' });
  t.is(zip.cities[0].city, 'SAN FRANCISCO');
});

test('lob-node: test-mode intl, autocomplete, ZIP lookup; a 403 for a publishable key on ZIP lookup', async (t, ctx) => {
  const { lob, keys } = await clients(ctx);
  t.is(
    (await lob.intlVerifications.verify({ primary_line: 'deliverable missing info', country: 'CA' })).deliverability,
    'deliverable_missing_info',
  );
  t.is((await lob.usAutocompletions.autocomplete({ address_prefix: '1 sug', state: 'CA' })).suggestions.length, 2);
  t.is((await lob.usZipLookups.lookup({ zip_code: '10001' })).zip_code, '10001');
  const pub = Lob(keys.testPub, { host: `${ctx.engine.url}/v1/` });
  const error = (await t.throwsAsync(pub.usZipLookups.lookup({ zip_code: '10001' }))) as LobError;
  t.is(error.status_code, 403);
  t.is((await pub.usVerifications.verify({ primary_line: 'military', zip_code: '96278' })).id, 'us_ver_military');
});

test('SDK: UsVerificationsApi.verifySingle and verifyBulk pass the model id checks, test and live', async (t, ctx) => {
  for (const live of [false, true]) {
    const { us } = await clients(ctx, live);
    const v = await us.verifySingle(
      {
        primary_line: live ? '1 Telegraph Hill Blvd' : 'deliverable',
        city: 'San Francisco',
        state: 'CA',
        zip_code: '94133',
      } as never,
      'proper',
    );
    t.regex(v.id!, /^us_ver_[a-zA-Z0-9_]+$/);
    t.is(String(v.deliverability), 'deliverable');
    t.is(v.primary_line, '1 Telegraph Hill Blvd');
    const one = await us.verifySingle({
      address: live ? '1 Telegraph Hill Blvd, San Francisco CA 94133' : 'unnecessary unit',
    } as never);
    t.is(String(one.deliverability), live ? 'deliverable' : 'deliverable_unnecessary_unit');
    const bulk = await us.verifyBulk(
      { addresses: [{ primary_line: 'po box', zip_code: '94107' }, { city: 'x' }] } as never,
      'upper',
    );
    t.is(bulk.addresses.length, 1, 'the SDK keeps entries with an id in addresses');
    t.is(bulk.errorAddresses.length, 1, 'and moves error entries to errorAddresses');
  }
});

test('SDK: IntlVerificationsApi, UsAutocompletionsApi, ZipLookupsApi with test and live keys', async (t, ctx) => {
  const test = await clients(ctx);
  const d = await test.intl.verifySingle({ primary_line: 'deliverable', country: 'CA' } as never);
  t.is(d.id, 'intl_ver_deliverable');
  t.like(d, { coverage: 'SUBBUILDING', status: 'LV4' }, 'the SDK model carries coverage and status');
  t.is(
    (await test.intl.verifyBulk({ addresses: [{ primary_line: 'no match', country: 'GB' }] } as never)).addresses
      .length,
    1,
  );
  const auto = await test.auto.autocomplete({ address_prefix: '1 s' } as never);
  t.regex(auto.id!, /^us_auto_[a-zA-Z0-9]+$/);
  t.is(auto.suggestions!.length, 10);
  const zip = await test.zip.lookup({ zip_code: '10001' } as never);
  t.is(zip.zip_code, '10001');
  t.regex(zip.id!, /^us_zip_[a-zA-Z0-9]+$/);

  const live = await clients(ctx, true);
  const intl = await live.intl.verifySingle({
    primary_line: '10 Downing St',
    city: 'London',
    postal_code: 'SW1A2AA',
    country: 'GB',
  } as never);
  t.regex(intl.id!, /^intl_ver_[a-zA-Z0-9]+$/);
  t.is(String(intl.deliverability), 'deliverable');
  t.is(String((await live.zip.lookup({ zip_code: '94172' } as never)).zip_code_type), 'po_box');
  t.is((await live.auto.autocomplete({ address_prefix: '1 Tel', state: 'CA' } as never)).suggestions!.length, 0);
});

test('SDK: validation errors reject with the error message', async (t, ctx) => {
  const { us, intl, zip } = await clients(ctx);
  t.is(
    await sdkRejection(t, us.verifySingle({ primary_line: '1 Main St' } as never)),
    '422 zip_code is required, or city and state are required',
  );
  t.is(
    await sdkRejection(t, intl.verifySingle({ primary_line: '1 Main St', country: 'US' } as never)),
    '422 country US is the United States or a US territory: verify it with POST /v1/us_verifications',
  );
  t.is(await sdkRejection(t, zip.lookup({ zip_code: '00000' } as never)), '422 invalid zip code');
});
