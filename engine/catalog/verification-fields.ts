// Request bodies, queries and rules of the verification family (spec: US verification, US
// autocomplete, US ZIP lookup, International verification; docs/compat-notes.md: bulk verification).
import { Type, type Static, type TObject } from '@sinclair/typebox';
import { isCountryCode, US_TERRITORIES } from './countries';
import { nullable } from './fields';
import { isBlank as blank } from './blank';
import type { Rule } from './types';

const str = (maxLength: number, description: string, example: string) =>
  Type.String({ maxLength, description, examples: [example] });

/** `case` query of US verification (single and bulk) and autocomplete. */
export const caseQuery = () =>
  Type.Object({
    case: Type.Optional(
      Type.Union([Type.Literal('upper'), Type.Literal('proper')], {
        default: 'upper',
        description:
          'Casing of recipient, primary_line, secondary_line, urbanization and last_line: `upper` (default) or `proper`.',
        examples: ['proper'],
      }),
    ),
  });

export const autocompleteQuery = () =>
  Type.Object({
    ...caseQuery().properties,
    valid_addresses: Type.Optional(
      Type.Boolean({
        description:
          'Accepted for compatibility (one official client sends it); suggestions come from known addresses either way.',
        examples: [true],
      }),
    ),
  });

/** Body of `POST /v1/us_verifications`: components, or one `address` string, never both. */
export const usVerificationBody = () =>
  Type.Object({
    recipient: Type.Optional(
      nullable(str(500, 'Intended recipient, a person or firm. Not allowed with `address`.', 'Harry Zhang')),
    ),
    primary_line: Type.Optional(
      str(200, 'Street line: house number, street, and units. Required unless `address` is sent.', '210 King Street'),
    ),
    secondary_line: Type.Optional(str(200, 'Second line, usually the unit.', 'Suite 6100')),
    urbanization: Type.Optional(str(200, 'Puerto Rico only: the urbanization (URB ...).', 'URB LAS GLADIOLAS')),
    city: Type.Optional(str(200, 'City. City and state are required when zip_code is absent.', 'San Francisco')),
    state: Type.Optional(
      str(50, 'Two-letter state code or the state name. City and state are required when zip_code is absent.', 'CA'),
    ),
    zip_code: Type.Optional(
      Type.String({
        pattern: '^\\s*(\\d{5}(-?\\d{4})?)?\\s*$',
        errorMessage: 'must be a ZIP code (12345) or ZIP+4 (12345-6789)',
        description: 'ZIP or ZIP+4. Required when city and state are absent.',
        examples: ['94107'],
      }),
    ),
    address: Type.Optional(
      str(
        500,
        'The whole address as one string; then no other field may be sent.',
        '210 King Street, San Francisco, CA 94107',
      ),
    ),
  });

/** `address` stands alone: no recipient and no component beside it. */
const singleOrComponents =
  (components: readonly string[], allowed: readonly string[] = []): Rule =>
  (body) => {
    if (blank(body.address)) return undefined;
    const extra = components.find((f) => !allowed.includes(f) && f !== 'address' && body[f] !== undefined);
    return extra
      ? { message: `${extra} is not allowed with address: send either address or the components` }
      : undefined;
  };

const primaryLineRequired: Rule = (body) =>
  blank(body.address) && blank(body.primary_line)
    ? { message: 'primary_line is required or address is required' }
    : undefined;

const cityStateOrZip: Rule = (body) => {
  if (!blank(body.address) || !blank(body.zip_code)) return undefined;
  if (blank(body.city) && blank(body.state)) return { message: 'zip_code is required, or city and state are required' };
  if (blank(body.city)) return { message: 'city is required when zip_code is absent' };
  if (blank(body.state)) return { message: 'state is required when zip_code is absent' };
  return undefined;
};

const US_FIELDS = Object.keys(usVerificationBody().properties);
export const usVerificationRules: Rule[] = [singleOrComponents(US_FIELDS), primaryLineRequired, cityStateOrZip];

/** Body of `POST /v1/intl_verifications`: components with a country, or `address` with a country. */
/** A US verification body as validated. */
export type UsVerificationInput = Static<ReturnType<typeof usVerificationBody>>;

export const intlVerificationBody = () =>
  Type.Object({
    recipient: Type.Optional(nullable(str(500, 'Intended recipient, a person or firm.', 'John Doe'))),
    primary_line: Type.Optional(str(200, 'Street line. Required unless `address` is sent.', '370 Water St')),
    secondary_line: Type.Optional(str(200, 'Second line (unit, building).', '')),
    city: Type.Optional(str(200, 'City or locality.', 'Summerside')),
    state: Type.Optional(str(200, 'State, province or region.', 'Prince Edward Island')),
    postal_code: Type.Optional(str(12, "Postal code in the country's format.", 'C1N 1C4')),
    country: Type.String({
      pattern: '^[A-Za-z]{2}$',
      errorMessage: 'must be a two-letter ISO 3166 country code',
      description: 'Two-letter ISO 3166 country code. Not US or a US territory: those go to US verification.',
      examples: ['CA'],
    }),
    address: Type.Optional(
      str(
        500,
        'The whole address (without country) as one string; then only `country` may be sent beside it.',
        '370 Water St, Summerside PE C1N 1C4',
      ),
    ),
  });

const notUsCountry: Rule = (body) => {
  const country = String(body.country ?? '').toUpperCase();
  if (!isCountryCode(country)) return { message: 'country must be a valid two-letter ISO 3166 country code' };
  if (country === 'US' || US_TERRITORIES.has(country)) {
    return {
      message: `country ${country} is the United States or a US territory: verify it with POST /v1/us_verifications`,
    };
  }
  return undefined;
};

const INTL_FIELDS = Object.keys(intlVerificationBody().properties);
export const intlVerificationRules: Rule[] = [
  notUsCountry,
  singleOrComponents(INTL_FIELDS, ['country']),
  primaryLineRequired,
];

/** Bulk bodies: 1 to 20 entries; each is checked on its own so one bad entry does not fail the rest. */
export const bulkBody = (what: string, single: TObject) =>
  Type.Object({
    addresses: Type.Array(
      Type.Object(
        {},
        {
          additionalProperties: true,
          description: `One body of ${what}.`,
          examples: [
            Object.fromEntries(
              Object.entries(single.properties)
                .filter(([, s]) => s.examples)
                .slice(0, 4)
                .map(([k, s]) => [k, (s.examples as unknown[])[0]]),
            ),
          ],
        },
      ),
      {
        minItems: 1,
        maxItems: 20,
        description: `1 to 20 addresses, each as the body of ${what}.`,
      },
    ),
  });

export const autocompleteBody = () =>
  Type.Object({
    address_prefix: Type.String({
      minLength: 1,
      maxLength: 200,
      pattern: '^[A-Za-z0-9 ]+$',
      errorMessage: 'must contain only letters, numbers and spaces (street number and name)',
      description: 'The start of the street line: house number and street name, letters, numbers and spaces only.',
      examples: ['185 B'],
    }),
    city: Type.Optional(str(200, 'Only suggestions in this city (case insensitive, exact).', 'San Francisco')),
    state: Type.Optional(
      Type.String({
        pattern: '^[A-Za-z]{2}$',
        errorMessage: 'must be a two-letter state code',
        description: 'Only suggestions in this state (two letters, case insensitive).',
        examples: ['CA'],
      }),
    ),
    zip_code: Type.Optional(
      Type.String({
        pattern: '^\\d{1,5}$',
        errorMessage: 'must be 1 to 5 digits',
        description: 'Only suggestions whose ZIP starts with these digits.',
        examples: ['94107'],
      }),
    ),
    geo_ip_sort: Type.Optional(
      Type.Boolean({
        description: 'Accepted; suggestions are ordered by match quality (no IP geolocation data is shipped).',
        examples: [false],
      }),
    ),
  });

export const zipLookupBody = () =>
  Type.Object({
    zip_code: Type.String({
      pattern: '^\\d{5}$',
      errorMessage: 'must be a 5-digit ZIP code',
      description: 'A 5-digit ZIP code.',
      examples: ['94107'],
    }),
  });

/** An international verification body as validated. */
export type IntlVerificationInput = Static<ReturnType<typeof intlVerificationBody>>;
