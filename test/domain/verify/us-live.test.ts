// The live US verifier, in-process: what it can know from the ZIP database, and what it never claims.
import test from 'ava';
import { judgeUsAddress, verifyUsAddress } from '../../../engine/domain/verify/us-verifier';
import { properCase } from '../../../engine/domain/verify/case';

const v = verifyUsAddress;

test('a matching ZIP, city and state is deliverable; components filled from the ZIP database', (t) => {
  const r = v({
    recipient: 'harry  zhang',
    primary_line: '210 king street suite 6100',
    city: 'san francisco',
    state: 'California',
    zip_code: '94107-1741',
  });
  t.is(r.deliverability, 'deliverable');
  t.is(r.recipient, 'HARRY ZHANG');
  t.is(r.primary_line, '210 KING ST STE 6100');
  t.is(r.last_line, 'SAN FRANCISCO CA 94107-1741');
  t.like(r.components, {
    primary_number: '210',
    street_name: 'KING',
    street_suffix: 'ST',
    secondary_designator: 'STE',
    secondary_number: '6100',
    city: 'SAN FRANCISCO',
    state: 'CA',
    zip_code: '94107',
    zip_code_plus_4: '1741',
    zip_code_type: 'standard',
    county: 'SAN FRANCISCO',
    county_fips: '06075',
    po_box_only_flag: 'N',
  });
  t.is(typeof r.components.latitude, 'number');
  t.is(typeof r.components.longitude, 'number');
  t.regex(r.id, /^us_ver_[0-9a-f]+$/);
});

test('never claims a DPV match, delivery point or RDI it did not make; confidence score null with level empty', (t) => {
  const r = v({ primary_line: '210 King St', zip_code: '94107' });
  t.deepEqual(r.deliverability_analysis, {
    dpv_confirmation: '',
    dpv_cmra: '',
    dpv_vacant: '',
    dpv_active: '',
    dpv_inactive_reason: '',
    dpv_throwback: '',
    dpv_non_delivery_day_flag: '',
    dpv_non_delivery_day_values: '',
    dpv_no_secure_location: '',
    dpv_door_not_accessible: '',
    dpv_footnotes: [],
    ews_match: false,
    lacs_indicator: '',
    lacs_return_code: '',
    suite_return_code: '',
  });
  t.deepEqual(r.svc_confidence_score, { score: null, level: '' });
  t.like(r.components, {
    record_type: '',
    address_type: '',
    delivery_point_barcode: '',
    carrier_route: '',
    carrier_route_type: '',
    default_building_address: false,
  });
  t.is(r.recipient, null);
});

test('a ZIP alone fills city and state; a city and state with one ZIP fill the ZIP', (t) => {
  t.is(v({ primary_line: '1 Telegraph Hill Blvd', zip_code: '94133' }).last_line, 'SAN FRANCISCO CA 94133');
  const r = v({ primary_line: '100 Main St', city: 'lake city', state: 'iowa' });
  t.is(r.deliverability, 'deliverable');
  t.is(r.last_line, 'LAKE CITY IA 51449');
  t.is(r.components.county, 'CALHOUN');
});

test('undeliverable: a ZIP that does not exist', (t) => {
  const { verification, reason } = judgeUsAddress({ primary_line: '1 Main St', zip_code: '00001' });
  t.is(verification.deliverability, 'undeliverable');
  t.is(reason, 'ZIP code 00001 does not exist');
  t.like(verification.components, {
    zip_code: '00001',
    zip_code_type: '',
    county: '',
    latitude: null,
    po_box_only_flag: '',
  });
});

test('undeliverable: a ZIP of another state, or a city the ZIP does not serve', (t) => {
  t.is(
    judgeUsAddress({ primary_line: '210 King St', city: 'San Francisco', state: 'NY', zip_code: '94107' }).reason,
    'ZIP code 94107 is not in NY',
  );
  const other = judgeUsAddress({ primary_line: '210 King St', city: 'San Diego', state: 'CA', zip_code: '94107-1741' });
  t.is(other.verification.deliverability, 'undeliverable');
  t.is(other.reason, 'SAN DIEGO CA is not served by ZIP code 94107');
  t.is(other.verification.components.zip_code_plus_4, '', 'an unverified ZIP+4 is not repeated');
  t.is(other.verification.components.latitude, null);
});

test('a misspelt city, or a name the database does not list for a one-city ZIP, becomes the ZIP city', (t) => {
  t.is(
    v({ primary_line: '210 King St', city: 'San Fransisco', state: 'CA', zip_code: '94107' }).last_line,
    'SAN FRANCISCO CA 94107',
  );
  // an alias the database lacks is not printed: the engine cannot tell it from a wrong city
  const alias = v({ primary_line: '4059 Mt Lee Dr', city: 'Hollywood', state: 'CA', zip_code: '90068' });
  t.is(alias.deliverability, 'deliverable');
  t.is(alias.last_line, 'LOS ANGELES CA 90068');
  t.is(
    v({ address: '11 N 4th St, St. Louis, MO 63102' }).components.city,
    'SAINT LOUIS',
    'spelled as the ZIP database spells it',
  );
});

test('undeliverable: a city and state with several ZIPs and no ZIP sent (the street decides, and there is no street data)', (t) => {
  const { verification, reason } = judgeUsAddress({ primary_line: '1 Main St', city: 'Helena', state: 'MT' });
  t.is(verification.deliverability, 'undeliverable');
  t.regex(reason, /^HELENA MT has \d+ ZIP codes: send zip_code$/);
  t.is(verification.components.zip_code, '');
  t.is(verification.last_line, 'HELENA MT');
});

test('undeliverable: an unknown city, a street line without a house number, a PO box without its number', (t) => {
  t.is(
    judgeUsAddress({ primary_line: '1 Main St', city: 'Nowhereville', state: 'KS' }).reason,
    'NOWHEREVILLE KS is not a known city',
  );
  t.is(
    judgeUsAddress({ primary_line: 'King Street', zip_code: '94107' }).reason,
    'the street line has no house number or street',
  );
  t.is(judgeUsAddress({ primary_line: 'PO Box', zip_code: '94172' }).verification.deliverability, 'undeliverable');
  t.is(
    judgeUsAddress({ primary_line: 'PSC 1234 Box', zip_code: '09021' }).verification.deliverability,
    'undeliverable',
  );
  t.is(judgeUsAddress({ address: 'USS George Washington FPO AP 96601' }).reason, '', 'ships have no box number');
});

test('PO box: ZIP type, PO-box-only flag, residential (the spec counts PO boxes so), carrier route type', (t) => {
  const r = v({ address: 'po box 720114 san francisco ca 94172-0114' });
  t.is(r.primary_line, 'PO BOX 720114');
  t.like(r.components, {
    street_name: 'PO BOX',
    primary_number: '720114',
    zip_code_type: 'po_box',
    po_box_only_flag: 'Y',
    address_type: 'residential',
    carrier_route_type: 'po_box',
  });
});

test('rural route and highway contract carry their carrier route type', (t) => {
  t.is(
    v({ primary_line: 'Rural Route 4 Box 56', city: 'Mitchell', state: 'SD', zip_code: '57301' }).components
      .carrier_route_type,
    'rural_route',
  );
  t.is(v({ primary_line: 'HC 68 Box 23A', zip_code: '57301' }).components.carrier_route_type, 'highway_contract');
});

test('military: PSC/UNIT boxes with APO/FPO/DPO, ZIP type military, no coordinates', (t) => {
  const r = v({ address: 'Unit 2050 Box 4190, APO AP 96278-2050' });
  t.is(r.deliverability, 'deliverable');
  t.is(r.primary_line, 'UNIT 2050 BOX 4190');
  t.is(r.last_line, 'APO AP 96278-2050');
  t.like(r.components, { zip_code_type: 'military', latitude: null, longitude: null, county: '' });
  t.is(
    v({ address: 'psc 802 box 74, apo, ae 09499' }).deliverability,
    'deliverable',
    'APO, FPO and DPO are one for military ZIPs',
  );
});

test('Puerto Rico: the urbanization is kept; elsewhere it is dropped', (t) => {
  const r = v({
    primary_line: '150 Calle A',
    urbanization: 'urb las gladiolas',
    city: 'San Juan',
    state: 'PR',
    zip_code: '00926',
  });
  t.is(r.urbanization, 'URB LAS GLADIOLAS');
  t.is(r.components.county_fips, '72127');
  t.is(v({ primary_line: '210 King St', urbanization: 'URB X', zip_code: '94107' }).urbanization, '');
});

test('one-line input: messy case, abbreviations, missing commas', (t) => {
  const r = v({ address: '1600 pennsylvania avenue northwest washington district of columbia 20500' });
  t.is(r.primary_line, '1600 PENNSYLVANIA AVE NW');
  t.is(r.last_line, 'WASHINGTON DC 20500');
  t.is(r.components.zip_code_type, 'unique');
});

test('case=proper on live results', (t) => {
  const r = v({ recipient: 'ACME INC', primary_line: '1 telegraph hill blvd', zip_code: '94133' }, 'proper');
  t.is(r.recipient, 'Acme Inc');
  t.is(r.primary_line, '1 Telegraph Hill Blvd');
  t.is(r.last_line, 'San Francisco CA 94133');
  t.is(properCase('89 E 42ND ST APT 4B'), '89 E 42nd St Apt 4B');
  t.is(properCase('PSC 1234 BOX 5678'), 'PSC 1234 Box 5678');
  t.is(properCase('APO AE 09021', true), 'APO AE 09021');
  t.is(properCase("O'FALLON IL 62269", true), "O'Fallon IL 62269");
});
