// Test-mode international verification: four magic primary_line values (spec), else a hint.
import type { IntlDeliverability, IntlVerification } from '../intl-verifier';
import type { IntlStatus } from '../../../catalog/verification-objects';
import { TEST_RECIPIENT } from './us';

const WATER_ST = {
  primary_number: '370',
  street_name: 'WATER ST',
  city: 'SUMMERSIDE',
  state: 'PE',
  postal_code: 'C1N 1C4',
};

/**
 * The status each canned answer stands for, as if street data had been consulted (the vendor's own test
 * answer is LV4 at SUBBUILDING coverage): verified to the premise; premise matched with the postal code
 * missing; street found but not the house number; nothing matched.
 */
const STATUS: Record<IntlDeliverability, IntlStatus> = {
  deliverable: 'LV4',
  deliverable_missing_info: 'LM4',
  undeliverable: 'LF3',
  no_match: 'LU1',
};

function sample(
  id: string,
  deliverability: IntlDeliverability,
  primary: string,
  components: IntlVerification['components'],
): IntlVerification {
  const last = [components.city, components.state, components.postal_code].filter(Boolean).join(' ');
  return {
    id,
    recipient: TEST_RECIPIENT,
    primary_line: primary,
    secondary_line: '',
    last_line: last,
    country: 'CA',
    coverage: 'SUBBUILDING',
    deliverability,
    status: STATUS[deliverability],
    components,
    object: 'intl_verification',
  };
}

// A Map, not an object: the key is the customer's primary_line, and "constructor" or "__proto__" must
// find nothing rather than Object.prototype's members.
const SAMPLES: ReadonlyMap<string, IntlVerification> = new Map([
  ['deliverable', sample('intl_ver_deliverable', 'deliverable', '370 WATER ST', WATER_ST)],
  [
    'deliverable missing info',
    sample('intl_ver_deliverablemissinginfo', 'deliverable_missing_info', '370 WATER ST', {
      ...WATER_ST,
      postal_code: '',
    }),
  ],
  [
    'undeliverable',
    sample('intl_ver_undeliverable', 'undeliverable', '9999 WATER ST', { ...WATER_ST, primary_number: '9999' }),
  ],
  [
    'no match',
    sample('intl_ver_nomatch', 'no_match', '1 NOWHERE RD', {
      primary_number: '1',
      street_name: 'NOWHERE RD',
      city: '',
      state: '',
      postal_code: '',
    }),
  ],
]);

export const INTL_TEST_VALUES: readonly string[] = [...SAMPLES.keys()];

const HINT = sample(
  'intl_ver_testkeys',
  'no_match',
  `TEST KEYS RETURN SAMPLES FOR PRIMARY_LINE: ${INTL_TEST_VALUES.map((v) => v.toUpperCase()).join(', ')}`,
  { primary_number: '', street_name: '', city: '', state: '', postal_code: '' },
);

export function intlTestSample(body: { primary_line?: string; address?: string }): IntlVerification {
  const k = (body.address ?? body.primary_line ?? '').replace(/\s+/g, ' ').trim().toLowerCase();
  return structuredClone(SAMPLES.get(k) ?? HINT);
}
