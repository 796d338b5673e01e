// The account's US mail strictness (docs/compat-notes.md), as the address book and mailpieces will call it.
import test from 'ava';
import { ApiError } from '../../../engine/base/errors';
import {
  assertUsMailStrictness,
  strictnessAllows,
  usDeliverability,
  verifiedUsRecord,
} from '../../../engine/domain/verify/strictness';

const GOOD = {
  address_line1: '210 King Street',
  address_line2: 'Suite 6100',
  address_city: 'san francisco',
  address_state: 'CA',
  address_zip: '94107',
};
const BAD_ZIP = { ...GOOD, address_zip: '00001' };

test('strict allows deliverable only; normal adds the three unit values; relaxed allows all', (t) => {
  const all = [
    'deliverable',
    'deliverable_unnecessary_unit',
    'deliverable_incorrect_unit',
    'deliverable_missing_unit',
    'undeliverable',
  ] as const;
  t.deepEqual(
    all.filter((d) => strictnessAllows('strict', d)),
    ['deliverable'],
  );
  t.deepEqual(
    all.filter((d) => strictnessAllows('normal', d)),
    all.slice(0, 4),
  );
  t.deepEqual(
    all.filter((d) => strictnessAllows('relaxed', d)),
    [...all],
  );
});

test('live: the verifier judges; a failing address raises failed_deliverability_strictness (422)', (t) => {
  t.is(usDeliverability(GOOD, 'live').deliverability, 'deliverable');
  t.notThrows(() => assertUsMailStrictness(GOOD, 'strict', 'live'));
  const error = t.throws(() => assertUsMailStrictness(BAD_ZIP, 'normal', 'live'), { instanceOf: ApiError });
  t.is(error!.code, 'failed_deliverability_strictness');
  t.is(error!.status, 422);
  t.regex(error!.message, /^to address is undeliverable \(ZIP code 00001 does not exist\)/);
  t.notThrows(() => assertUsMailStrictness(BAD_ZIP, 'relaxed', 'live'));
});

test("test mode never verifies: magic test values pick their sample's deliverability, anything else passes", (t) => {
  t.is(usDeliverability(BAD_ZIP, 'test').deliverability, 'deliverable');
  t.is(usDeliverability({ ...GOOD, address_line1: 'missing unit' }, 'test').deliverability, 'deliverable_missing_unit');
  t.throws(() => assertUsMailStrictness({ ...GOOD, address_line1: 'missing unit' }, 'strict', 'test'), {
    instanceOf: ApiError,
  });
  t.notThrows(() => assertUsMailStrictness({ ...GOOD, address_line1: 'missing unit' }, 'normal', 'test'));
  t.throws(
    () => assertUsMailStrictness({ ...GOOD, address_line1: 'Undeliverable No Match' }, 'normal', 'test', 'from'),
    { message: /^from address is undeliverable/ },
  );
});

test('verifiedUsRecord: Pub 28 lines, city, state and ZIP from the ZIP database', (t) => {
  t.deepEqual(
    verifiedUsRecord({ ...GOOD, address_city: 'San Fransisco', address_zip: '94107-1741' }, 'strict', 'live'),
    {
      address_line1: '210 KING ST STE 6100',
      address_line2: null,
      address_city: 'SAN FRANCISCO',
      address_state: 'CA',
      address_zip: '94107-1741',
      deliverability: 'deliverable',
    },
  );
  t.like(verifiedUsRecord(BAD_ZIP, 'relaxed', 'live'), { address_zip: '00001', deliverability: 'undeliverable' });
  t.like(
    verifiedUsRecord(
      {
        address_line1: '150 Calle A',
        address_line2: 'Urb Las Gladiolas',
        address_city: 'San Juan',
        address_state: 'PR',
        address_zip: '00926',
      },
      'strict',
      'live',
    ),
    { address_line1: '150 CALLE A', address_line2: 'URB LAS GLADIOLAS' },
  );
});
