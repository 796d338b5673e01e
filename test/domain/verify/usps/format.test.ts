import test from 'ava';
import { standardize, standardizeAddress } from '../../../../engine/domain/verify/usps';

test('components in any spelling come out in Pub 28 form', (t) => {
  t.deepEqual(
    standardize({
      primary_number: '123',
      street_predirection: 'north',
      street_name: 'Main',
      street_suffix: 'Street',
      street_postdirection: 'Southwest',
      secondary_designator: 'Suite',
      secondary_number: '#200',
      city: 'Springfield',
      state: 'Illinois',
      zip_code: '62701',
      zip_code_plus_4: '1234',
    }),
    {
      primaryLine: '123 N MAIN ST SW STE 200',
      secondaryLine: '',
      lastLine: 'SPRINGFIELD IL 62701-1234',
      urbanization: '',
    },
  );
});

test('a unit number without a known designator gets "#"', (t) => {
  t.is(
    standardize({ primary_number: '1', street_name: 'MAIN', street_suffix: 'ST', secondary_number: '4' }).primaryLine,
    '1 MAIN ST # 4',
  );
});

test('box-style lines print the fixed words first, kind given or inferred', (t) => {
  t.is(standardize({ kind: 'po_box', street_name: 'PO BOX', primary_number: '123' }).primaryLine, 'PO BOX 123');
  t.is(standardize({ street_name: 'RR 2 BOX', primary_number: '152' }).primaryLine, 'RR 2 BOX 152');
  t.is(standardize({ street_name: 'PSC 1234 BOX', primary_number: '5678' }).primaryLine, 'PSC 1234 BOX 5678');
});

test('units move to the secondary line when the primary line would be too long', (t) => {
  const c = {
    primary_number: '12345',
    street_name: 'DR MARTIN LUTHER KING JR',
    street_suffix: 'BLVD',
    secondary_designator: 'STE',
    secondary_number: '100',
  };
  t.is(standardize(c).primaryLine, '12345 DR MARTIN LUTHER KING JR BLVD STE 100');
  t.deepEqual(standardize(c, { maxPrimaryLineLength: 30 }), {
    primaryLine: '12345 DR MARTIN LUTHER KING JR BLVD',
    secondaryLine: 'STE 100',
    lastLine: '',
    urbanization: '',
  });
});

test('last line pieces are optional and a non-ZIP is kept cleaned', (t) => {
  t.is(standardize({ city: 'boise', state: 'id' }).lastLine, 'BOISE ID');
  t.is(standardize({ zip_code: '83702' }).lastLine, '83702');
  t.is(standardize({ city: 'Boise', state: 'ID', zip_code: '8370' }).lastLine, 'BOISE ID 8370');
});

test('no punctuation survives except house-number hyphens, fractions and the ZIP+4 hyphen', (t) => {
  const out = standardizeAddress("12-34 1/2 O'Brien St., Apt. #5-B; Winston-Salem, N.C. 27101-1234");
  t.is(out.primaryLine, '12-34 1/2 O BRIEN ST APT 5-B');
  t.is(out.lastLine, 'WINSTON SALEM NC 27101-1234');
});

test('deterministic', (t) => {
  const input = '500 w madison st apt 12b chicago il 60661';
  t.deepEqual(standardizeAddress(input), standardizeAddress(input));
});
