// The verification objects as returned (spec: US verification, US autocompletion, US ZIP lookup,
// International verification), with every enumeration the spec allows.
import { Type, type TLiteral, type TSchema, type TUnion } from '@sinclair/typebox';
import { objectName } from './fields';

const s = (description: string) => Type.String({ description });
/** A union of string literals, typed so that `Static<>` of a schema keeps the values (the engine's types). */
const oneOf = <const T extends readonly string[]>(values: T, description: string) =>
  Type.Union(
    values.map((v) => Type.Literal(v)),
    { description },
  ) as unknown as TUnion<{ -readonly [K in keyof T]: TLiteral<T[K]> }>;
const nullableNumber = (description: string) => Type.Union([Type.Number(), Type.Null()], { description });
const withId = (pattern: string, prefix: string) =>
  Type.String({ pattern, description: `Unique identifier prefixed with \`${prefix}\`.` });

const US_DELIVERABILITY = [
  'deliverable',
  'deliverable_unnecessary_unit',
  'deliverable_incorrect_unit',
  'deliverable_missing_unit',
  'undeliverable',
] as const;
const INTL_DELIVERABILITY = ['deliverable', 'deliverable_missing_info', 'undeliverable', 'no_match'] as const;
/** The vendor's intl coverage levels, deepest first. */
export const INTL_COVERAGE = ['SUBBUILDING', 'HOUSENUMBER/BUILDING', 'STREET', 'LOCALITY', 'SPARSE'] as const;
/** The vendor's intl status: Verified, Fixed, Missing info or Unverified, then the level (4 premise ... 1 region). */
export const INTL_STATUS = [
  'LV4',
  'LV3',
  'LV2',
  'LV1',
  'LF4',
  'LF3',
  'LF2',
  'LF1',
  'LM4',
  'LM3',
  'LM2',
  'LU1',
] as const;
export type IntlCoverage = (typeof INTL_COVERAGE)[number];
export type IntlStatus = (typeof INTL_STATUS)[number];
const ZIP_CODE_TYPES = ['standard', 'military', 'unique', 'po_box', ''] as const;
const DIRECTIONS = ['N', 'S', 'E', 'W', 'NE', 'NW', 'SE', 'SW', ''] as const;
const YN = ['Y', 'N', ''] as const;
/** What answered a live US verification (our extension, `street_data`). */
export const STREET_DATA = ['street_ranges', 'address_points', 'last_line'] as const;

export const usComponents = () =>
  Type.Object({
    primary_number: s('House or box number.'),
    street_predirection: oneOf(DIRECTIONS, 'Directional before the street name.'),
    street_name: s('Street name (or PO BOX, RR 2 BOX, PSC 1234 BOX for the non-street forms).'),
    street_suffix: s('USPS suffix abbreviation (ST, AVE, BLVD, ...).'),
    street_postdirection: oneOf(DIRECTIONS, 'Directional after the street name.'),
    secondary_designator: s('Unit designator (APT, STE, ...).'),
    secondary_number: s('Unit number.'),
    pmb_designator: s('Private mailbox designator.'),
    pmb_number: s('Private mailbox number.'),
    extra_secondary_designator: s('A second unit designator given in the input.'),
    extra_secondary_number: s('A second unit number given in the input.'),
    city: Type.String({ maxLength: 200, description: 'City.' }),
    state: Type.String({ maxLength: 2, description: 'Two-letter state, territory or military state code.' }),
    zip_code: Type.String({
      pattern: '^(\\d{5})?$',
      description: '5-digit ZIP code (empty when none could be determined).',
    }),
    zip_code_plus_4: Type.String({ pattern: '^(\\d{4})?$', description: 'ZIP+4 add-on (empty when unknown).' }),
    zip_code_type: oneOf(ZIP_CODE_TYPES, 'Kind of ZIP code.'),
    delivery_point_barcode: s('12-digit delivery point barcode (empty without delivery point data).'),
    address_type: oneOf(
      ['residential', 'commercial', ''],
      'Residential (incl. PO boxes) or commercial; empty when unknown.',
    ),
    record_type: oneOf(
      ['street', 'highrise', 'firm', 'po_box', 'rural_route', 'general_delivery', ''],
      'Record type; populated only on a DPV match (Y, S or D).',
    ),
    default_building_address: Type.Boolean({
      description: 'Whether this is the default address of a building with several delivery points.',
    }),
    county: s('County name.'),
    county_fips: Type.String({ pattern: '^(\\d{5})?$', description: '5-digit county FIPS code.' }),
    carrier_route: s('4-character carrier route (empty without carrier route data).'),
    carrier_route_type: oneOf(
      ['city_delivery', 'rural_route', 'highway_contract', 'po_box', 'general_delivery', ''],
      'Kind of carrier route.',
    ),
    po_box_only_flag: oneOf(YN, 'Y when the ZIP is served by PO boxes only.'),
    latitude: nullableNumber('Latitude; null for undeliverable and military addresses.'),
    longitude: nullableNumber('Longitude; null for undeliverable and military addresses.'),
  });

export const deliverabilityAnalysis = () =>
  Type.Object({
    dpv_confirmation: oneOf(
      ['Y', 'S', 'D', 'N', ''],
      'Delivery Point Validation result; empty when no DPV match was made.',
    ),
    dpv_cmra: oneOf(YN, 'Commercial mail receiving agency.'),
    dpv_vacant: oneOf(YN, 'Vacant.'),
    dpv_active: oneOf(YN, 'Receiving mail.'),
    dpv_inactive_reason: oneOf(['01', '02', '03', '04', '05', '06', ''], 'Why the address is inactive.'),
    dpv_throwback: oneOf(YN, 'Street address whose mail goes to a PO box.'),
    dpv_non_delivery_day_flag: oneOf(YN, 'Mail is not delivered on some days.'),
    dpv_non_delivery_day_values: s('Days without delivery, Sunday first (YNNNNNN).'),
    dpv_no_secure_location: oneOf(YN, 'No secure location for parcels.'),
    dpv_door_not_accessible: oneOf(YN, 'Door not accessible.'),
    dpv_footnotes: Type.Array(Type.String({ minLength: 2, maxLength: 2 }), {
      maxItems: 3,
      description: 'DPV footnotes (AA, BB, N1, ...); empty when no DPV match was attempted.',
    }),
    ews_match: Type.Boolean({ description: 'Flagged by the Early Warning System.' }),
    lacs_indicator: oneOf(YN, 'Converted by LACSLink.'),
    lacs_return_code: oneOf(['A', '92', '14', '00', ''], 'LACSLink return code.'),
    suite_return_code: oneOf(['A', '00', ''], 'SuiteLink return code.'),
  });

export const confidenceScore = () =>
  Type.Object(
    {
      score: Type.Union([Type.Number({ minimum: 0, maximum: 100 }), Type.Null()], {
        description: 'Share of mail delivered to this address (0-100); null without tracking data.',
      }),
      level: oneOf(
        ['high', 'medium', 'low', ''],
        'high (over 70), medium (40-70), low (under 40), or empty without data.',
      ),
    },
    { description: 'Confidence that mail reaches this address, from delivery data.' },
  );

export const usVerificationObject = () =>
  Type.Object({
    id: withId('^us_ver_[a-zA-Z0-9_]+$', 'us_ver_'),
    recipient: Type.Union([Type.String({ maxLength: 500 }), Type.Null()], {
      description: 'Recipient as sent (cased), or null.',
    }),
    primary_line: Type.String({ maxLength: 200, description: 'Standardized delivery line.' }),
    secondary_line: Type.String({
      maxLength: 200,
      description: 'Usually empty; units that did not fit on the primary line.',
    }),
    urbanization: Type.String({ maxLength: 200, description: 'Puerto Rico urbanization; empty elsewhere.' }),
    last_line: s('CITY ST 12345-6789.'),
    deliverability: oneOf(US_DELIVERABILITY, 'Summary of the deliverability.'),
    components: usComponents(),
    deliverability_analysis: deliverabilityAnalysis(),
    svc_confidence_score: confidenceScore(),
    street_data: Type.Optional(
      oneOf(
        STREET_DATA,
        "Our extension, on live answers: what answered. street_ranges: the operator's loaded TIGER/Line address ranges placed the number on the street; address_points: a loaded address point (OpenAddresses) matched it; last_line: the ZIP has no street data, so only the city, state and ZIP were checked. Never USPS data: the dpv_* fields stay empty.",
      ),
    ),
    object: objectName('us_verification'),
  });

export const intlVerificationObject = () =>
  Type.Object({
    id: withId('^intl_ver_[a-zA-Z0-9]+$', 'intl_ver_'),
    recipient: Type.Union([Type.String({ maxLength: 500 }), Type.Null()], {
      description: 'Recipient as sent (upper case), or null.',
    }),
    primary_line: Type.String({ maxLength: 200, description: 'Delivery line, upper case.' }),
    secondary_line: Type.String({ maxLength: 200, description: 'Second line, upper case.' }),
    last_line: s("Locality, region and postal code in the country's postal order."),
    country: Type.String({ pattern: '^[A-Z]{2}$', description: 'Two-letter ISO 3166 code.' }),
    coverage: oneOf(
      INTL_COVERAGE,
      "How deep addresses of the country can be checked: SUBBUILDING (units), HOUSENUMBER/BUILDING, STREET, LOCALITY (city, province or state), SPARSE. Live answers here check postal codes and regions, not streets: LOCALITY where the country's regions are known, else SPARSE.",
    ),
    deliverability: oneOf(INTL_DELIVERABILITY, 'Summary of the deliverability.'),
    status: oneOf(
      INTL_STATUS,
      'Level of verification: LV verified, LF fixed, LM missing information, LU unverified; the digit is how deep it reached (4 premise, 3 street, 2 locality, 1 region). Live answers here reach the locality: LV2 deliverable, LM2 missing information, LU1 otherwise.',
    ),
    components: Type.Object({
      primary_number: s('House or building number.'),
      street_name: s('Street.'),
      city: Type.String({ maxLength: 200, description: 'City or locality.' }),
      state: s('State, province or region (its postal abbreviation where one is standard).'),
      postal_code: Type.String({ maxLength: 12, description: "Postal code in the country's format." }),
    }),
    object: objectName('intl_verification'),
  });

const suggestion = () =>
  Type.Object({
    primary_line: s('Suggested delivery line.'),
    city: Type.String({ maxLength: 200 }),
    state: Type.String({ maxLength: 2 }),
    zip_code: Type.String({ pattern: '^\\d{5}((-)?\\d{4})?$' }),
    object: Type.Optional(objectName('us_autocompletion')),
  });

export const autocompletionObject = () =>
  Type.Object({
    id: withId('^us_auto_[a-zA-Z0-9]+$', 'us_auto_'),
    suggestions: Type.Array(suggestion(), {
      maxItems: 10,
      description: 'At most ten suggestions; not guaranteed deliverable.',
    }),
    object: objectName('us_autocompletion'),
  });

export const zipLookupObject = () =>
  Type.Object({
    id: withId('^us_zip_[a-zA-Z0-9]+$', 'us_zip_'),
    zip_code: Type.String({ pattern: '^\\d{5}$' }),
    zip_code_type: oneOf(ZIP_CODE_TYPES, 'Kind of ZIP code; empty when the ZIP is unknown.'),
    cities: Type.Array(
      Type.Object({
        city: Type.String({ maxLength: 200 }),
        state: Type.String({ maxLength: 2 }),
        county: s('County name.'),
        county_fips: Type.String({ pattern: '^(\\d{5})?$' }),
        preferred: Type.Boolean({ description: 'The USPS default city of the ZIP; always first.' }),
      }),
      { description: 'Cities of the ZIP, the preferred one first.' },
    ),
    object: objectName('us_zip_lookup'),
  });

/** `{addresses: [...], errors}`: each entry a verification object or an error object. */
export const bulkResponse = (item: TSchema, sample: Record<string, unknown>) =>
  Type.Object(
    {
      addresses: Type.Array(
        Type.Union([
          item,
          Type.Object({
            error: Type.Object({ message: Type.String(), code: Type.String(), status_code: Type.Integer() }),
          }),
        ]),
      ),
      errors: Type.Boolean({ description: 'Whether any entry is an error.' }),
    },
    { examples: [{ addresses: [sample], errors: false }] },
  );
