// Components, by the spec's us_verification names.
import test from 'ava';
import { parseUsAddress, type ParsedUsAddress } from '../../../../engine/domain/verify/usps';

function pick(p: ParsedUsAddress, keys: readonly (keyof ParsedUsAddress)[]): Partial<ParsedUsAddress> {
  return Object.fromEntries(keys.map((k) => [k, p[k]]));
}

test('one-line street address with unit and ZIP+4', (t) => {
  const p = parseUsAddress('123 main street apt 4 springfield il 62701-1234');
  t.like(p, {
    kind: 'street',
    primary_number: '123',
    street_predirection: '',
    street_name: 'MAIN',
    street_suffix: 'ST',
    street_postdirection: '',
    secondary_designator: 'APT',
    secondary_number: '4',
    city: 'SPRINGFIELD',
    state: 'IL',
    zip_code: '62701',
    zip_code_plus_4: '1234',
    unparsed: '',
  });
});

test('ZIP+4 written as nine digits', (t) => {
  t.like(parseUsAddress('1 Telegraph Hill Blvd San Francisco CA 941331234'), {
    zip_code: '94133',
    zip_code_plus_4: '1234',
  });
});

test('pre- and postdirectionals, spelled out or abbreviated', (t) => {
  t.like(parseUsAddress('100 North Main Street Northwest, Atlanta, GA 30303'), {
    street_predirection: 'N',
    street_name: 'MAIN',
    street_suffix: 'ST',
    street_postdirection: 'NW',
  });
  t.like(parseUsAddress('1900 Kanawha Blvd E, Charleston, WV 25305'), {
    street_name: 'KANAWHA',
    street_postdirection: 'E',
  });
});

test('directionals and suffix words that are the street name stay the name', (t) => {
  t.like(parseUsAddress('123 North St, Boston, MA 02113'), {
    street_predirection: '',
    street_name: 'NORTH',
    street_suffix: 'ST',
  });
  t.like(parseUsAddress('1 E Street, Salt Lake City, UT 84103'), {
    street_predirection: '',
    street_name: 'E',
    street_suffix: 'ST',
  });
  t.like(parseUsAddress('45 Park Ave, New York, NY 10016'), { street_name: 'PARK', street_suffix: 'AVE' });
  t.like(parseUsAddress('10 Avenue of the Americas, New York, NY 10013'), {
    street_name: 'AVENUE OF THE AMERICAS',
    street_suffix: '',
  });
  t.like(parseUsAddress('100 Avenue N, Brooklyn, NY 11230'), { street_name: 'AVENUE N', street_postdirection: '' });
  t.like(parseUsAddress('350 Fifth Avenue, New York, NY 10118'), { street_name: 'FIFTH', street_suffix: 'AVE' });
});

test('fractional and hyphenated house numbers', (t) => {
  t.like(parseUsAddress('123 1/2 Main St, Venice, CA 90291'), { primary_number: '123 1/2', street_name: 'MAIN' });
  t.like(parseUsAddress('12-34 31st Ave, Astoria, NY 11106'), {
    primary_number: '12-34',
    street_name: '31ST',
    street_suffix: 'AVE',
  });
});

test('units in their many spellings', (t) => {
  const cases: [string, string, string][] = [
    ['1 Main St #4, Concord, NH 03301', '#', '4'],
    ['1 Main St # 4, Concord, NH 03301', '#', '4'],
    ['1 Main St Suite 200, Concord, NH 03301', 'STE', '200'],
    ['1 Main St ste. 200, Concord, NH 03301', 'STE', '200'],
    ['1 Main St unit B, Concord, NH 03301', 'UNIT', 'B'],
    ['1 Main St Apartment 3-C, Concord, NH 03301', 'APT', '3-C'],
    ['1 Main St 2nd Floor, Concord, NH 03301', 'FL', '2'],
    ['1 Main St Rear, Concord, NH 03301', 'REAR', ''],
    ['1 Main St Penthouse, Concord, NH 03301', 'PH', ''],
    ['1 Main St Lot 12, Concord, NH 03301', 'LOT', '12'],
  ];
  for (const [input, designator, number] of cases) {
    t.like(
      parseUsAddress(input),
      { secondary_designator: designator, secondary_number: number, street_name: 'MAIN' },
      input,
    );
  }
});

test('unit on the second line, and two units', (t) => {
  t.like(
    parseUsAddress({ primaryLine: '185 Berry St', secondaryLine: 'Suite 6100', lastLine: 'San Francisco CA 94107' }),
    {
      secondary_designator: 'STE',
      secondary_number: '6100',
    },
  );
  t.like(parseUsAddress('1600 Amphitheatre Pkwy Bldg 40 Fl 2, Mountain View, CA 94043'), {
    secondary_designator: 'BLDG',
    secondary_number: '40',
    extra_secondary_designator: 'FL',
    extra_secondary_number: '2',
  });
});

test('private mailbox', (t) => {
  t.like(parseUsAddress('123 Main St PMB 456, Springfield, IL 62701'), {
    pmb_designator: 'PMB',
    pmb_number: '456',
    secondary_designator: '',
  });
  t.like(parseUsAddress('123 Main St Ste 100 PMB 456, Springfield, IL 62701'), {
    secondary_designator: 'STE',
    secondary_number: '100',
    pmb_designator: 'PMB',
    pmb_number: '456',
  });
});

test('PO boxes put the box number in primary_number', (t) => {
  for (const input of ['P.O. Box 123', 'POB 123', 'Post Office Box 123', 'PO BOX 123', 'po box #123', 'Box 123']) {
    const p = parseUsAddress({ primaryLine: input, lastLine: 'Springfield IL 62705' });
    t.deepEqual(
      pick(p, ['kind', 'street_name', 'primary_number']),
      { kind: 'po_box', street_name: 'PO BOX', primary_number: '123' },
      input,
    );
  }
});

test('rural routes and highway contract routes', (t) => {
  for (const input of ['RR 2 Box 152', 'Rural Route 2 Box 152', 'RFD 2 Box 152', 'R.R. 2, Box 152']) {
    t.like(
      parseUsAddress({ primaryLine: input }),
      { kind: 'rural_route', street_name: 'RR 2 BOX', primary_number: '152' },
      input,
    );
  }
  t.like(parseUsAddress('HC 68 Box 23A, Cottonwood, ID 83522'), {
    kind: 'highway_contract',
    street_name: 'HC 68 BOX',
    primary_number: '23A',
  });
});

test('military addresses', (t) => {
  t.like(parseUsAddress('PSC 1234 Box 5678 APO AE 09204'), {
    kind: 'military',
    street_name: 'PSC 1234 BOX',
    primary_number: '5678',
    city: 'APO',
    state: 'AE',
    zip_code: '09204',
  });
  t.like(parseUsAddress('UNIT 2050 BOX 4190 APO AP 96278'), {
    kind: 'military',
    street_name: 'UNIT 2050 BOX',
    primary_number: '4190',
    secondary_designator: '',
  });
  t.like(parseUsAddress('CMR 410 BOX 55 APO AE 09096'), {
    kind: 'military',
    street_name: 'CMR 410 BOX',
    primary_number: '55',
  });
  t.like(parseUsAddress('USS Ohio FPO AP 96698'), {
    kind: 'military',
    street_name: 'USS OHIO',
    city: 'FPO',
    state: 'AP',
  });
  t.like(parseUsAddress('Unit 8900 Box 0001 DPO AE 09498'), { kind: 'military', city: 'DPO' });
});

test('general delivery', (t) => {
  t.like(parseUsAddress('General Delivery, Juneau, AK 99801'), {
    kind: 'general_delivery',
    street_name: 'GENERAL DELIVERY',
    primary_number: '',
  });
});

test('Puerto Rico urbanization', (t) => {
  t.like(parseUsAddress('URB Las Gladiolas 150 Calle A, San Juan PR 00926'), {
    urbanization: 'URB LAS GLADIOLAS',
    primary_number: '150',
    street_name: 'CALLE A',
    city: 'SAN JUAN',
    state: 'PR',
  });
});

test('a code that is also a street suffix is not taken for the state without a ZIP or comma', (t) => {
  t.like(parseUsAddress('14 Pine Ct'), { street_name: 'PINE', street_suffix: 'CT', state: '' });
  t.like(parseUsAddress('14 Pine Ct, Hartford, CT'), { street_suffix: 'CT', city: 'HARTFORD', state: 'CT' });
});

test('separate city, state and ZIP fields win over the last line', (t) => {
  t.like(
    parseUsAddress({
      primaryLine: '1 Main St',
      lastLine: 'Nowhere XX',
      city: 'concord',
      state: 'New Hampshire',
      zipCode: '03301-1234',
    }),
    {
      city: 'CONCORD',
      state: 'NH',
      zip_code: '03301',
      zip_code_plus_4: '1234',
    },
  );
});

test('text it cannot place is kept in unparsed', (t) => {
  t.like(parseUsAddress({ primaryLine: 'Acme Corp', secondaryLine: '1 Main St' }), {
    primary_number: '1',
    street_name: 'MAIN',
    unparsed: 'ACME CORP',
  });
  t.like(parseUsAddress({ primaryLine: '1 Main St', secondaryLine: 'c/o Jane Doe' }), { unparsed: 'C O JANE DOE' });
});

test('never throws on odd input', (t) => {
  for (const input of ['', '   ', ',,,', '#', '12345', 'PO BOX', 'APT', '1/2', '---', 'URB']) {
    t.notThrows(() => parseUsAddress(input), input);
    t.notThrows(() => parseUsAddress({ primaryLine: input, secondaryLine: input, lastLine: input }), input);
  }
});

test('a designator whose number is missing is kept for the verifier', (t) => {
  t.like(parseUsAddress('123 Main St Apt'), {
    street_name: 'MAIN',
    street_suffix: 'ST',
    secondary_designator: 'APT',
    secondary_number: '',
  });
  t.like(parseUsAddress('123 Oak Trlr'), { street_name: 'OAK', street_suffix: 'TRLR', secondary_designator: '' });
});

test('unpunctuated one-line addresses find where the city starts', (t) => {
  t.like(parseUsAddress('1 Broadway Ft Worth TX 76102'), { street_name: 'BROADWAY', city: 'FT WORTH' });
  t.like(parseUsAddress('500 Clematis St West Palm Beach FL 33401'), {
    street_postdirection: '',
    city: 'WEST PALM BEACH',
  });
  t.like(parseUsAddress('600 Independence Ave Southwest Washington DC 20560'), {
    street_postdirection: 'SW',
    city: 'WASHINGTON',
  });
  t.like(parseUsAddress('11 n 4th st st louis mo 63102'), { street_name: '4TH', city: 'ST LOUIS', state: 'MO' });
});
