// The catalog entries of the verification family: operation flags, documented body fields, and
// every answer the verifiers give conforms to the object schema the catalog publishes.
import test from 'ava';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import type { TObject } from '@sinclair/typebox';
import {
  intlVerifications,
  usAutocompletions,
  usVerifications,
  usZipLookups,
  verificationResources,
} from '../../../engine/catalog/verifications';
import { US_TEST_VALUES, usTestSample } from '../../../engine/domain/verify/samples/us';
import { INTL_TEST_VALUES, intlTestSample } from '../../../engine/domain/verify/samples/intl';
import { testSuggestions } from '../../../engine/domain/verify/samples/autocomplete';
import { testZipLookup } from '../../../engine/domain/verify/samples/zip';
import { verifyUsAddress } from '../../../engine/domain/verify/us-verifier';
import { verifyIntlAddress } from '../../../engine/domain/verify/intl-verifier';
import { autocompletion, suggestFromAddresses } from '../../../engine/domain/verify/autocomplete';
import { lookupUsZip } from '../../../engine/domain/verify/zip-lookup';

const conforms = (schema: TObject, value: unknown) =>
  [...TypeCompiler.Compile(schema).Errors(value)].map((e) => `${e.path} ${e.message}`);

test('operations: names, paths, publishable keys, rate limit factors, the free live quota', (t) => {
  const ops = verificationResources.flatMap((r) =>
    r.operations.map((o) => [
      r.name,
      o.name,
      o.path,
      Boolean(o.publishable),
      o.rateLimitFactor ?? 1,
      o.freeLiveQuota ?? 0,
    ]),
  );
  t.deepEqual(ops, [
    ['us_verifications', 'verify', '/v1/us_verifications', true, 2, 300],
    ['us_verifications', 'verify_bulk', '/v1/bulk/us_verifications', true, 1, 0],
    ['us_autocompletions', 'autocomplete', '/v1/us_autocompletions', true, 2, 0],
    ['us_zip_lookups', 'lookup', '/v1/us_zip_lookups', false, 1, 0],
    ['us_reverse_geocode_lookups', 'lookup', '/v1/us_reverse_geocode_lookups', false, 1, 0],
    ['intl_verifications', 'verify', '/v1/intl_verifications', true, 1, 0],
    ['intl_verifications', 'verify_bulk', '/v1/bulk/intl_verifications', true, 1, 0],
  ]);
});

test('every body field has a description and an example', (t) => {
  for (const r of verificationResources) {
    for (const o of r.operations) {
      for (const [name, field] of Object.entries(o.body!.properties)) {
        t.truthy(field.description, `${o.path} ${name}`);
        t.truthy(field.examples ?? (field.items as TObject | undefined)?.examples, `${o.path} ${name}`);
      }
    }
  }
});

test('US samples, the hint, and live results conform to the us_verification schema', (t) => {
  for (const value of [...US_TEST_VALUES, 'anything'])
    t.deepEqual(conforms(usVerifications.schema, usTestSample({ primary_line: value }, 'proper')), [], value);
  for (const address of [
    '210 King St, San Francisco CA 94107',
    '1 Main St 00001',
    'PSC 1234 Box 5678 APO AE 09021',
    'nothing at all',
  ]) {
    t.deepEqual(conforms(usVerifications.schema, verifyUsAddress({ address })), [], address);
  }
  t.deepEqual(conforms(usVerifications.schema, usVerifications.sample), []);
});

test('intl, autocomplete and ZIP lookup answers conform to their schemas', (t) => {
  for (const value of [...INTL_TEST_VALUES, 'other'])
    t.deepEqual(conforms(intlVerifications.schema, intlTestSample({ primary_line: value })), [], value);
  t.deepEqual(
    conforms(
      intlVerifications.schema,
      verifyIntlAddress({ primary_line: '10 Downing St', city: 'London', postal_code: 'SW1A 2AA', country: 'gb' }),
    ),
    [],
  );
  t.deepEqual(conforms(usAutocompletions.schema, autocompletion(testSuggestions('1 s', {}))), []);
  t.deepEqual(conforms(usAutocompletions.schema, autocompletion(suggestFromAddresses('1', {}, []))), []);
  t.deepEqual(conforms(usZipLookups.schema, testZipLookup('10001')), []);
  t.deepEqual(conforms(usZipLookups.schema, lookupUsZip('96278')), []);
  t.deepEqual(conforms(usZipLookups.schema, lookupUsZip('00001')), []);
  for (const r of [intlVerifications, usAutocompletions, usZipLookups])
    t.deepEqual(conforms(r.schema, r.sample), [], r.name);
});
