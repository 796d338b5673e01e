import test from 'ava';
import { standardizeAddressRecord } from '../../../../engine/domain/verify/usps';
import { ADDRESS_CASES } from './fixtures/addresses';

test('a messy record comes out standardized', (t) => {
  t.deepEqual(
    standardizeAddressRecord({
      address_line1: '185 berry street',
      address_line2: 'suite 6100',
      address_city: 'san francisco',
      address_state: 'California',
      address_zip: '941071234',
    }),
    {
      address_line1: '185 BERRY ST STE 6100',
      address_line2: null,
      address_city: 'SAN FRANCISCO',
      address_state: 'CA',
      address_zip: '94107-1234',
    },
  );
});

test('other fields of the record are kept', (t) => {
  const out = standardizeAddressRecord({
    name: 'Jane',
    address_line1: '1 main st',
    address_country: 'US',
    address_zip: '03301',
  });
  t.is(out.name, 'Jane');
  t.is(out.address_country, 'US');
  t.is(out.address_line1, '1 MAIN ST');
  t.is(out.address_zip, '03301');
});

test('a unit that would push line 1 past 64 characters stays on line 2', (t) => {
  const line1 = '12345 Doctor Martin Luther King Junior Memorial Scenic Parkway Northwest';
  const out = standardizeAddressRecord({
    address_line1: line1,
    address_line2: 'Apartment 1204',
    address_city: 'Atlanta',
    address_state: 'GA',
    address_zip: '30303',
  });
  t.is(out.address_line1, '12345 DOCTOR MARTIN LUTHER KING JUNIOR MEMORIAL SCENIC PKWY NW');
  t.true(out.address_line1.length <= 64);
  t.is(out.address_line2, 'APT 1204');
  t.deepEqual(standardizeAddressRecord(out), out);
});

test('urbanization and unplaced text ride on line 2', (t) => {
  const pr = standardizeAddressRecord({
    address_line1: 'URB Las Gladiolas 150 Calle A',
    address_city: 'San Juan',
    address_state: 'Puerto Rico',
    address_zip: '00926',
  });
  t.is(pr.address_line1, '150 CALLE A');
  t.is(pr.address_line2, 'URB LAS GLADIOLAS');
  t.is(pr.address_state, 'PR');
  const firm = standardizeAddressRecord({
    address_line1: 'Attn: Billing',
    address_line2: '1 Main St.',
    address_city: 'Concord',
    address_state: 'nh',
    address_zip: '03301',
  });
  t.is(firm.address_line1, '1 MAIN ST');
  t.is(firm.address_line2, 'ATTN BILLING');
});

test('unknown states and malformed ZIPs are cleaned, not dropped', (t) => {
  const out = standardizeAddressRecord({
    address_line1: '1 Main St',
    address_city: 'Somewhere',
    address_state: 'Calif.',
    address_zip: ' 9410 ',
  });
  t.is(out.address_state, 'CALIF');
  t.is(out.address_zip, '9410');
});

test('idempotent over every table address', (t) => {
  for (const { input } of ADDRESS_CASES) {
    const record =
      typeof input === 'string'
        ? { address_line1: input }
        : {
            address_line1: input.primaryLine,
            address_line2: input.secondaryLine ?? null,
            address_city: input.city ?? input.lastLine ?? null,
            address_state: input.state ?? null,
            address_zip: input.zipCode ?? null,
          };
    const once = standardizeAddressRecord(record);
    t.deepEqual(standardizeAddressRecord(once), once, JSON.stringify(input));
  }
});

test('idempotent over split records built from the table', (t) => {
  for (const { expected } of ADDRESS_CASES) {
    const once = standardizeAddressRecord({
      address_line1: expected.primaryLine.toLowerCase(),
      address_line2: expected.urbanization ?? null,
      address_city: expected.lastLine.split(' ').slice(0, -2).join(' '),
      address_state: expected.lastLine.split(' ').slice(-2)[0],
      address_zip: expected.lastLine.split(' ').slice(-1)[0],
    });
    t.is(once.address_line1, expected.primaryLine);
    t.deepEqual(standardizeAddressRecord(once), once);
  }
});
