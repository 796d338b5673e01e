// The verification family: US verification (single and bulk), US autocomplete, US ZIP lookup, US
// reverse geocode lookup (reverse-geocode.ts),
// international verification (single and bulk). Nothing is stored; every call answers at once.
import type { Static } from '@sinclair/typebox';
import type { Resource } from './types';
import { defineResource } from './resource';
import { usReverseGeocodeLookups } from './reverse-geocode';
import { operation } from './operation';
import {
  autocompleteBody,
  autocompleteQuery,
  bulkBody,
  caseQuery,
  intlVerificationBody,
  intlVerificationRules,
  usVerificationBody,
  usVerificationRules,
  zipLookupBody,
} from './verification-fields';
import {
  autocompletionObject,
  bulkResponse,
  intlVerificationObject,
  usVerificationObject,
  zipLookupObject,
} from './verification-objects';

/** The spec's published test sample for `po box`; test mode answers with it (engine/domain/verify/samples). */
export const PO_BOX_SAMPLE: Static<ReturnType<typeof usVerificationObject>> = {
  id: 'us_ver_po_box',
  recipient: 'TEST KEYS DO NOT VERIFY ADDRESSES',
  primary_line: 'PO BOX 720114',
  secondary_line: '',
  urbanization: '',
  last_line: 'SAN FRANCISCO CA 94172-0114',
  deliverability: 'deliverable',
  components: {
    primary_number: '720114',
    street_predirection: '',
    street_name: 'PO BOX',
    street_suffix: '',
    street_postdirection: '',
    secondary_designator: '',
    secondary_number: '',
    pmb_designator: '',
    pmb_number: '',
    extra_secondary_designator: '',
    extra_secondary_number: '',
    city: 'SAN FRANCISCO',
    state: 'CA',
    zip_code: '94172',
    zip_code_plus_4: '0114',
    zip_code_type: 'po_box',
    delivery_point_barcode: '941720114146',
    address_type: 'residential',
    record_type: 'po_box',
    default_building_address: false,
    county: 'SAN FRANCISCO',
    county_fips: '06075',
    carrier_route: 'B002',
    carrier_route_type: 'po_box',
    po_box_only_flag: 'Y',
    latitude: 37.7597,
    longitude: -122.694,
  },
  deliverability_analysis: {
    dpv_confirmation: 'Y',
    dpv_cmra: 'N',
    dpv_vacant: 'N',
    dpv_active: 'Y',
    dpv_inactive_reason: '',
    dpv_throwback: 'N',
    dpv_non_delivery_day_flag: 'N',
    dpv_non_delivery_day_values: '',
    dpv_no_secure_location: 'N',
    dpv_door_not_accessible: 'N',
    dpv_footnotes: ['AA', 'BB'],
    ews_match: false,
    lacs_indicator: '',
    lacs_return_code: '',
    suite_return_code: '',
  },
  svc_confidence_score: { score: null, level: '' },
  object: 'us_verification',
};

// A single verification's body is also each entry of the bulk form: one schema for both.
const usBody = usVerificationBody();
const usQuery = caseQuery();
const intlBody = intlVerificationBody();

const VERIFY_SUMMARY =
  'Test keys return the samples of the spec; live keys verify offline against the bundled ZIP database.';

export const usVerificationOperations = {
  verify: operation({
    name: 'verify',
    method: 'POST',
    path: '/v1/us_verifications',
    summary: 'Verify a US address',
    body: usBody,
    query: usQuery,
    rules: usVerificationRules,
    response: 'object',
    publishable: true,
    rateLimitFactor: 2,
    freeLiveQuota: 300,
  }),
  verify_bulk: operation({
    name: 'verify_bulk',
    method: 'POST',
    path: '/v1/bulk/us_verifications',
    summary: 'Verify up to 20 US addresses',
    body: bulkBody('POST /v1/us_verifications', usBody),
    query: usQuery,
    response: 'object',
    responseSchema: bulkResponse(usVerificationObject(), PO_BOX_SAMPLE),
    publishable: true,
  }),
};

export const usVerifications = defineResource({
  name: 'us_verifications',
  title: 'US verification',
  object: 'us_verification',
  idPrefix: 'us_ver',
  idPattern: '^us_ver_[a-zA-Z0-9_]+$',
  description: `Verify and standardize US and US territory addresses (USPS Publication 28). ${VERIFY_SUMMARY} The first 300 live verifications a month need no payment method.`,
  schema: usVerificationObject(),
  operations: Object.values(usVerificationOperations),
  events: [],
  sample: PO_BOX_SAMPLE,
});

export const autocompleteOperations = {
  autocomplete: operation({
    name: 'autocomplete',
    method: 'POST',
    path: '/v1/us_autocompletions',
    summary: 'Autocomplete a US address',
    body: autocompleteBody(),
    query: autocompleteQuery(),
    response: 'object',
    publishable: true,
    rateLimitFactor: 2,
  }),
};

export const usAutocompletions = defineResource({
  name: 'us_autocompletions',
  title: 'US autocompletion',
  object: 'us_autocompletion',
  idPrefix: 'us_auto',
  description:
    "Complete a partly typed US street line: at most ten suggestions from the account's own addresses and the ZIP database (test keys: a fixed list).",
  schema: autocompletionObject(),
  operations: Object.values(autocompleteOperations),
  events: [],
  sample: {
    id: 'us_auto_a3ac97bcfbb2460ab20c',
    suggestions: [
      {
        primary_line: '1 TELEGRAPH HILL BLVD',
        city: 'SAN FRANCISCO',
        state: 'CA',
        zip_code: '94133',
        object: 'us_autocompletion',
      },
      {
        primary_line: '1 TELEGRAPH HILL RD',
        city: 'HOLMDEL',
        state: 'NJ',
        zip_code: '07733',
        object: 'us_autocompletion',
      },
    ],
    object: 'us_autocompletion',
  },
});

/** Also test mode's one generic ZIP lookup answer, with the ZIP sent (engine/domain/verify/samples). */
export const ZIP_LOOKUP_SAMPLE: Static<ReturnType<typeof zipLookupObject>> = {
  id: 'us_zip_c7cb63d68f8d6',
  zip_code: '94107',
  zip_code_type: 'standard',
  cities: [{ city: 'SAN FRANCISCO', state: 'CA', county: 'SAN FRANCISCO', county_fips: '06075', preferred: true }],
  object: 'us_zip_lookup',
};

export const zipLookupOperations = {
  // The spec lets publishable keys call US and international verification and autocomplete only.
  lookup: operation({
    name: 'lookup',
    method: 'POST',
    path: '/v1/us_zip_lookups',
    summary: 'Look up a US ZIP code',
    body: zipLookupBody(),
    response: 'object',
  }),
};

export const usZipLookups = defineResource({
  name: 'us_zip_lookups',
  title: 'US ZIP lookup',
  object: 'us_zip_lookup',
  idPrefix: 'us_zip',
  description:
    'The cities, county and kind of a 5-digit ZIP code, from the bundled ZIP database (test keys: one generic sample).',
  schema: zipLookupObject(),
  operations: Object.values(zipLookupOperations),
  events: [],
  sample: ZIP_LOOKUP_SAMPLE,
});

const INTL_SAMPLE = {
  id: 'intl_ver_c7cb63d68f8d6',
  recipient: null,
  primary_line: '370 WATER ST',
  secondary_line: '',
  last_line: 'SUMMERSIDE PE C1N 1C4',
  country: 'CA',
  coverage: 'LOCALITY',
  deliverability: 'deliverable',
  status: 'LV2',
  components: {
    primary_number: '370',
    street_name: 'WATER ST',
    city: 'SUMMERSIDE',
    state: 'PE',
    postal_code: 'C1N 1C4',
  },
  object: 'intl_verification',
};

export const intlVerificationOperations = {
  verify: operation({
    name: 'verify',
    method: 'POST',
    path: '/v1/intl_verifications',
    summary: 'Verify an international address',
    body: intlBody,
    rules: intlVerificationRules,
    response: 'object',
    publishable: true,
  }),
  verify_bulk: operation({
    name: 'verify_bulk',
    method: 'POST',
    path: '/v1/bulk/intl_verifications',
    summary: 'Verify up to 20 international addresses',
    body: bulkBody('POST /v1/intl_verifications', intlBody),
    response: 'object',
    responseSchema: bulkResponse(intlVerificationObject(), INTL_SAMPLE),
    publishable: true,
  }),
};

export const intlVerifications = defineResource({
  name: 'intl_verifications',
  title: 'International verification',
  object: 'intl_verification',
  idPrefix: 'intl_ver',
  description:
    "Check and format an address outside the US: country, postal code format, lines in the country's postal order, upper case.",
  schema: intlVerificationObject(),
  operations: Object.values(intlVerificationOperations),
  events: [],
  sample: INTL_SAMPLE,
});

export const verificationResources: readonly Resource[] = [
  usVerifications,
  usAutocompletions,
  usZipLookups,
  usReverseGeocodeLookups,
  intlVerifications,
];
