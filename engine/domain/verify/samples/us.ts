// Test-mode US verification: the fourteen magic primary_line (or address) values of the spec and
// docs/compat-notes.md, each with realistic components; anything else gets the hint sample.
import {
  dpvAnalysis,
  NO_SCORE,
  noDpvAnalysis,
  withCase,
  type DeliverabilityAnalysis,
  type UsComponents,
  type UsDeliverability,
  type UsVerification,
} from '../us-object';
import type { LetterCase } from '../case';
import { PO_BOX_SAMPLE } from '../../../catalog/verifications';

export const TEST_RECIPIENT = 'TEST KEYS DO NOT VERIFY ADDRESSES';

/** 12-digit delivery point barcode: ZIP, +4, delivery point, and the check digit that makes the digit sum a multiple of 10. */
export function deliveryPointBarcode(zip: string, plus4: string, point: string): string {
  const digits = `${zip}${plus4}${point}`;
  const sum = [...digits].reduce((n, d) => n + Number(d), 0);
  return `${digits}${(10 - (sum % 10)) % 10}`;
}

const blankComponents: UsComponents = {
  primary_number: '',
  street_predirection: '',
  street_name: '',
  street_suffix: '',
  street_postdirection: '',
  secondary_designator: '',
  secondary_number: '',
  pmb_designator: '',
  pmb_number: '',
  extra_secondary_designator: '',
  extra_secondary_number: '',
  city: '',
  state: '',
  zip_code: '',
  zip_code_plus_4: '',
  zip_code_type: '',
  delivery_point_barcode: '',
  address_type: '',
  record_type: '',
  default_building_address: false,
  county: '',
  county_fips: '',
  carrier_route: '',
  carrier_route_type: '',
  po_box_only_flag: '',
  latitude: null,
  longitude: null,
};

const SF = {
  city: 'SAN FRANCISCO',
  state: 'CA',
  county: 'SAN FRANCISCO',
  county_fips: '06075',
  zip_code_type: 'standard',
  po_box_only_flag: 'N',
} as const;

interface Spec {
  primary: string;
  secondary?: string;
  urbanization?: string;
  deliverability: UsDeliverability;
  c: Partial<UsComponents>;
  point?: string;
  analysis: DeliverabilityAnalysis;
}

function build(value: string, s: Spec): UsVerification {
  const c: UsComponents = { ...blankComponents, ...s.c };
  if (s.point && c.zip_code_plus_4)
    c.delivery_point_barcode = deliveryPointBarcode(c.zip_code, c.zip_code_plus_4, s.point);
  const zip = c.zip_code_plus_4 ? `${c.zip_code}-${c.zip_code_plus_4}` : c.zip_code;
  return {
    id: `us_ver_${value.replace(/ /g, '_')}`,
    recipient: TEST_RECIPIENT,
    primary_line: s.primary,
    secondary_line: s.secondary ?? '',
    urbanization: s.urbanization ?? '',
    last_line: [c.city, c.state, zip].filter(Boolean).join(' '),
    deliverability: s.deliverability,
    components: c,
    deliverability_analysis: s.analysis,
    svc_confidence_score: { ...NO_SCORE },
    object: 'us_verification',
  };
}

const street = (
  primary_number: string,
  street_name: string,
  street_suffix: string,
  more: Partial<UsComponents> = {},
): Partial<UsComponents> => ({
  primary_number,
  street_name,
  street_suffix,
  carrier_route_type: 'city_delivery',
  ...more,
});
const Y = dpvAnalysis('Y', ['AA', 'BB']);
const BERRY = {
  ...SF,
  ...street('185', 'BERRY', 'ST'),
  zip_code: '94107',
  zip_code_plus_4: '1741',
  address_type: 'commercial',
  record_type: 'highrise',
  carrier_route: 'C032',
  latitude: 37.7765,
  longitude: -122.3917,
} as const;
const BRODERICK = {
  ...SF,
  ...street('1709', 'BRODERICK', 'ST'),
  zip_code: '94115',
  zip_code_plus_4: '2525',
  address_type: 'residential',
  record_type: 'street',
  carrier_route: 'C038',
  latitude: 37.7868,
  longitude: -122.4418,
} as const;

const SPECS: Record<string, Spec | UsVerification> = {
  'commercial highrise': {
    primary: '185 BERRY ST STE 6100',
    deliverability: 'deliverable',
    point: '99',
    analysis: { ...Y, suite_return_code: '00' },
    c: { ...BERRY, secondary_designator: 'STE', secondary_number: '6100' },
  },
  'residential highrise': {
    primary: '301 MISSION ST APT 20A',
    deliverability: 'deliverable',
    point: '20',
    analysis: Y,
    c: {
      ...SF,
      ...street('301', 'MISSION', 'ST'),
      secondary_designator: 'APT',
      secondary_number: '20A',
      zip_code: '94105',
      zip_code_plus_4: '2234',
      address_type: 'residential',
      record_type: 'highrise',
      carrier_route: 'C001',
      latitude: 37.7904,
      longitude: -122.3964,
    },
  },
  'residential house': {
    primary: '1709 BRODERICK ST',
    deliverability: 'deliverable',
    point: '09',
    analysis: Y,
    c: BRODERICK,
  },
  // The spec publishes this one; the catalog carries it for the API documents.
  'po box': PO_BOX_SAMPLE,
  'rural route': {
    primary: 'RR 2 BOX 130',
    deliverability: 'deliverable',
    point: '30',
    analysis: Y,
    c: {
      primary_number: '130',
      street_name: 'RR 2 BOX',
      city: 'LAKE CITY',
      state: 'IA',
      zip_code: '51449',
      zip_code_plus_4: '9702',
      zip_code_type: 'standard',
      address_type: 'residential',
      record_type: 'rural_route',
      county: 'CALHOUN',
      county_fips: '19025',
      carrier_route: 'R002',
      carrier_route_type: 'rural_route',
      po_box_only_flag: 'N',
      latitude: 42.2661,
      longitude: -94.7347,
    },
  },
  'puerto rico': {
    primary: '150 CALLE A',
    urbanization: 'URB LAS GLADIOLAS',
    deliverability: 'deliverable',
    point: '50',
    analysis: Y,
    c: {
      ...street('150', 'CALLE A', ''),
      city: 'SAN JUAN',
      state: 'PR',
      zip_code: '00926',
      zip_code_plus_4: '3232',
      zip_code_type: 'standard',
      address_type: 'residential',
      record_type: 'street',
      county: 'SAN JUAN',
      county_fips: '72127',
      carrier_route: 'C012',
      po_box_only_flag: 'N',
      latitude: 18.3469,
      longitude: -66.0543,
    },
  },
  military: {
    primary: 'UNIT 2050 BOX 4190',
    deliverability: 'deliverable',
    point: '90',
    analysis: Y,
    c: {
      primary_number: '4190',
      street_name: 'UNIT 2050 BOX',
      city: 'APO',
      state: 'AP',
      zip_code: '96278',
      zip_code_plus_4: '2050',
      zip_code_type: 'military',
      address_type: 'residential',
      record_type: 'street',
      carrier_route: 'C001',
      carrier_route_type: 'city_delivery',
      po_box_only_flag: 'N',
    },
  },
  'department of state': {
    primary: '5150 BUCHAREST PL',
    deliverability: 'deliverable',
    point: '50',
    analysis: Y,
    c: {
      ...street('5150', 'BUCHAREST', 'PL'),
      city: 'WASHINGTON',
      state: 'DC',
      zip_code: '20521',
      zip_code_plus_4: '5150',
      zip_code_type: 'po_box',
      address_type: 'commercial',
      record_type: 'street',
      county: 'DISTRICT OF COLUMBIA',
      county_fips: '11001',
      carrier_route: 'C000',
      po_box_only_flag: 'Y',
      latitude: 38.8933,
      longitude: -77.0146,
    },
  },
  deliverable: {
    primary: '1 TELEGRAPH HILL BLVD',
    deliverability: 'deliverable',
    point: '01',
    analysis: Y,
    c: {
      ...SF,
      ...street('1', 'TELEGRAPH HILL', 'BLVD'),
      zip_code: '94133',
      zip_code_plus_4: '3108',
      address_type: 'commercial',
      record_type: 'street',
      carrier_route: 'C041',
      latitude: 37.8024,
      longitude: -122.4058,
    },
  },
  'missing unit': {
    primary: '185 BERRY ST',
    deliverability: 'deliverable_missing_unit',
    point: '99',
    analysis: dpvAnalysis('D', ['AA', 'N1']),
    c: { ...BERRY, default_building_address: true },
  },
  'incorrect unit': {
    primary: '185 BERRY ST STE 9999',
    deliverability: 'deliverable_incorrect_unit',
    point: '99',
    analysis: dpvAnalysis('S', ['AA', 'CC'], { suite_return_code: '00' }),
    c: { ...BERRY, secondary_designator: 'STE', secondary_number: '9999', default_building_address: true },
  },
  'unnecessary unit': {
    primary: '1709 BRODERICK ST APT 1',
    deliverability: 'deliverable_unnecessary_unit',
    point: '09',
    analysis: dpvAnalysis('S', ['AA', 'CC']),
    c: { ...BRODERICK, secondary_designator: 'APT', secondary_number: '1' },
  },
  'undeliverable block match': {
    primary: '2599 MARKET ST',
    deliverability: 'undeliverable',
    analysis: dpvAnalysis('N', ['AA', 'M3']),
    c: { ...SF, primary_number: '2599', street_name: 'MARKET', street_suffix: 'ST', zip_code: '94114' },
  },
  'undeliverable no match': {
    primary: '123 FAKE ST',
    deliverability: 'undeliverable',
    analysis: dpvAnalysis('', ['A1']),
    c: {
      primary_number: '123',
      street_name: 'FAKE',
      street_suffix: 'ST',
      city: 'SAN FRANCISCO',
      state: 'CA',
      zip_code: '94107',
    },
  },
};

export const US_TEST_VALUES: readonly string[] = Object.keys(SPECS);

const sample = (value: string, s: Spec | UsVerification) => ('object' in s ? s : build(value, s));
const SAMPLES: ReadonlyMap<string, UsVerification> = new Map(US_TEST_VALUES.map((v) => [v, sample(v, SPECS[v])]));

const list = (values: readonly string[]) => values.map((v) => v.toUpperCase()).join(', ');

/** Any other value: the lines tell the caller which values give samples. */
const HINT: UsVerification = {
  id: 'us_ver_test_keys',
  recipient: TEST_RECIPIENT,
  primary_line: `TEST KEYS RETURN SAMPLES FOR PRIMARY_LINE: ${list(US_TEST_VALUES.slice(0, 7))}`,
  secondary_line: `OR: ${list(US_TEST_VALUES.slice(7))}`,
  urbanization: '',
  last_line: '',
  deliverability: 'undeliverable',
  components: { ...blankComponents },
  deliverability_analysis: noDpvAnalysis(),
  svc_confidence_score: { ...NO_SCORE },
  object: 'us_verification',
};

const key = (value: string | undefined) => (value ?? '').replace(/\s+/g, ' ').trim().toLowerCase();

/** The magic value a body carries (primary_line or address), if any. */
export function usTestValue(body: { primary_line?: string; address?: string }): string | undefined {
  const k = key(body.address) || key(body.primary_line);
  return SAMPLES.has(k) ? k : undefined;
}

/** The test-mode answer for a validated body. A fresh copy each time, so callers may change it. */
export function usTestSample(
  body: { primary_line?: string; address?: string },
  letterCase?: LetterCase,
): UsVerification {
  const value = usTestValue(body);
  const sample = value === undefined ? HINT : SAMPLES.get(value)!;
  return withCase(structuredClone(sample), letterCase);
}
