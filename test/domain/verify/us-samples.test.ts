// Test keys: the fourteen magic values of the spec and docs/compat-notes.md give their samples; anything else the hint.
import test from 'ava';
import { databaseSuite } from '../../helpers/suite';
import { conforms, freshAccount } from './helpers';
import {
  US_TEST_VALUES,
  usTestSample,
  deliveryPointBarcode,
  TEST_RECIPIENT,
} from '../../../engine/domain/verify/samples/us';
import { usVerifications } from '../../../engine/catalog/verifications';
import { lookupZip, normalizeCity } from '../../../engine/domain/verify/zipdb';

const suite = databaseSuite();

const EXPECTED: Record<string, { deliverability: string; record_type: string; address_type: string; dpv: string }> = {
  'commercial highrise': {
    deliverability: 'deliverable',
    record_type: 'highrise',
    address_type: 'commercial',
    dpv: 'Y',
  },
  'residential highrise': {
    deliverability: 'deliverable',
    record_type: 'highrise',
    address_type: 'residential',
    dpv: 'Y',
  },
  'residential house': { deliverability: 'deliverable', record_type: 'street', address_type: 'residential', dpv: 'Y' },
  'po box': { deliverability: 'deliverable', record_type: 'po_box', address_type: 'residential', dpv: 'Y' },
  'rural route': { deliverability: 'deliverable', record_type: 'rural_route', address_type: 'residential', dpv: 'Y' },
  'puerto rico': { deliverability: 'deliverable', record_type: 'street', address_type: 'residential', dpv: 'Y' },
  military: { deliverability: 'deliverable', record_type: 'street', address_type: 'residential', dpv: 'Y' },
  'department of state': { deliverability: 'deliverable', record_type: 'street', address_type: 'commercial', dpv: 'Y' },
  deliverable: { deliverability: 'deliverable', record_type: 'street', address_type: 'commercial', dpv: 'Y' },
  'missing unit': {
    deliverability: 'deliverable_missing_unit',
    record_type: 'highrise',
    address_type: 'commercial',
    dpv: 'D',
  },
  'incorrect unit': {
    deliverability: 'deliverable_incorrect_unit',
    record_type: 'highrise',
    address_type: 'commercial',
    dpv: 'S',
  },
  'unnecessary unit': {
    deliverability: 'deliverable_unnecessary_unit',
    record_type: 'street',
    address_type: 'residential',
    dpv: 'S',
  },
  'undeliverable block match': { deliverability: 'undeliverable', record_type: '', address_type: '', dpv: 'N' },
  'undeliverable no match': { deliverability: 'undeliverable', record_type: '', address_type: '', dpv: '' },
};

test('the spec has fourteen magic values and each has a sample', (t) => {
  t.deepEqual([...US_TEST_VALUES].sort(), Object.keys(EXPECTED).sort());
});

for (const value of Object.keys(EXPECTED)) {
  test(`sample "${value}" is realistic: components agree with the ZIP database, last line and barcode with the components`, (t) => {
    const v = usTestSample({ primary_line: value });
    const c = v.components;
    const record = lookupZip(c.zip_code)!;
    t.truthy(record, c.zip_code);
    t.is(record.state, c.state);
    t.true(
      record.cities.some((x) => normalizeCity(x) === normalizeCity(c.city)),
      `${c.city} for ${c.zip_code}`,
    );
    if (c.county) t.is(c.county_fips, record.countyFips);
    t.is(
      v.last_line,
      [c.city, c.state, c.zip_code_plus_4 ? `${c.zip_code}-${c.zip_code_plus_4}` : c.zip_code].join(' '),
    );
    if (c.delivery_point_barcode) {
      t.is(c.delivery_point_barcode.length, 12);
      t.is([...c.delivery_point_barcode].reduce((n, d) => n + Number(d), 0) % 10, 0);
    }
    if (['AA', 'AE', 'AP'].includes(c.state) || v.deliverability === 'undeliverable') t.is(c.latitude, null);
    else t.is(typeof c.latitude, 'number');
    t.is(String(v.components.record_type), EXPECTED[value].record_type);
    t.is(String(v.components.address_type), EXPECTED[value].address_type);
    t.is(String(v.deliverability_analysis.dpv_confirmation), EXPECTED[value].dpv);
    t.true(v.deliverability_analysis.dpv_footnotes.length >= 1 && v.deliverability_analysis.dpv_footnotes.length <= 3);
  });
}

test('the published PO box sample: the catalog sample is what test keys return, barcode check digit included', (t) => {
  t.deepEqual(usTestSample({ primary_line: 'po box' }), usVerifications.sample as never);
  t.is(deliveryPointBarcode('94172', '0114', '14'), '941720114146');
});

for (const value of Object.keys(EXPECTED)) {
  suite.test(`test key, primary_line "${value}" returns its sample (vendor schema)`, async (t, ctx) => {
    const { api } = await freshAccount(ctx);
    const r = await api('POST', '/v1/us_verifications', { json: { primary_line: value, zip_code: '12345' } });
    conforms(t, 'POST', '/v1/us_verifications', r);
    t.is(r.body.id, `us_ver_${value.replace(/ /g, '_')}`);
    t.is(r.body.recipient, TEST_RECIPIENT);
    t.is(r.body.deliverability, EXPECTED[value].deliverability);
    t.is(r.body.object, 'us_verification');
    t.deepEqual(r.body.svc_confidence_score, { score: null, level: '' });
    const viaAddress = await api('POST', '/v1/us_verifications', { json: { address: value.toUpperCase() } });
    t.deepEqual(viaAddress.body, r.body, 'the address form and any letter case give the same sample');
  });
}

suite.test('test key: the Puerto Rico sample has its urbanization; military has no coordinates', async (t, ctx) => {
  const { api } = await freshAccount(ctx);
  const pr = await api('POST', '/v1/us_verifications', {
    json: { primary_line: 'puerto rico', city: 'San Juan', state: 'PR' },
  });
  t.is(pr.body.urbanization, 'URB LAS GLADIOLAS');
  t.is(pr.body.components.state, 'PR');
  const mil = await api('POST', '/v1/us_verifications', { json: { primary_line: 'military', zip_code: '96278' } });
  t.is(mil.body.components.zip_code_type, 'military');
  t.is(mil.body.components.latitude, null);
  t.is(mil.body.last_line, 'APO AP 96278-2050');
});

suite.test('test key: any other value returns the hint sample naming the magic values', async (t, ctx) => {
  const { api } = await freshAccount(ctx);
  const r = await api('POST', '/v1/us_verifications', {
    json: { primary_line: '210 King Street', city: 'San Francisco', state: 'CA' },
  });
  t.is(r.status, 200);
  t.is(r.body.recipient, TEST_RECIPIENT);
  const text = `${r.body.primary_line} ${r.body.secondary_line}`;
  for (const value of US_TEST_VALUES) t.true(text.includes(value.toUpperCase()), value);
  t.true(r.body.primary_line.length <= 200 && r.body.secondary_line.length <= 200);
  t.regex(r.body.id, /^us_ver_[a-zA-Z0-9_]+$/);
  conforms(t, 'POST', '/v1/us_verifications', r);
});

suite.test('case=proper proper-cases recipient, lines and last line; components stay upper case', async (t, ctx) => {
  const { api } = await freshAccount(ctx);
  const r = await api('POST', '/v1/us_verifications?case=proper', {
    json: { primary_line: 'po box', zip_code: '94107' },
  });
  t.is(r.body.recipient, 'Test Keys Do Not Verify Addresses');
  t.is(r.body.primary_line, 'PO Box 720114');
  t.is(r.body.last_line, 'San Francisco CA 94172-0114');
  t.is(r.body.components.city, 'SAN FRANCISCO');
  const pr = await api('POST', '/v1/us_verifications?case=proper', {
    json: { primary_line: 'puerto rico', zip_code: '00926' },
  });
  t.is(pr.body.urbanization, 'URB Las Gladiolas');
  t.is(pr.body.primary_line, '150 Calle A');
  const upper = await api('POST', '/v1/us_verifications?case=upper', {
    json: { primary_line: 'po box', zip_code: '94107' },
  });
  t.is(upper.body.primary_line, 'PO BOX 720114');
  const bad = await api('POST', '/v1/us_verifications?case=lower', {
    json: { primary_line: 'po box', zip_code: '94107' },
  });
  t.is(bad.status, 422);
  t.regex(bad.body.error.message, /^case must be/);
});

suite.test('a form-encoded body (as lob-node sends it) gives the same sample', async (t, ctx) => {
  const { api } = await freshAccount(ctx);
  const r = await api('POST', '/v1/us_verifications', {
    form: 'primary_line=residential+house&city=San+Francisco&state=CA',
  });
  t.is(r.status, 200);
  t.is(r.body.id, 'us_ver_residential_house');
});
