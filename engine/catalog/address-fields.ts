// The address fields: used by the address book and, inline, by every mailpiece's `to` and `from`.
import { Type, type Static } from '@sinclair/typebox';
import { description, metadata, nullable } from './fields';
import { isBlank as blank } from './blank';
import { isCountryCode, US_TERRITORIES } from './countries';
import { stateCode } from './us-states';
import type { Rule } from './types';
import { withRules } from './rules';

const str = (maxLength: number, text: string, example: string) =>
  Type.String({ maxLength, description: text, examples: [example] });

/** Body of `POST /v1/addresses`, and the inline form of `to`/`from`. */
export const addressInput = () =>
  withRules(
    Type.Object({
      description: Type.Optional(description()),
      name: Type.Optional(
        nullable(str(40, 'Recipient name, at most 40 characters. Either name or company is required.', 'HARRY ZHANG')),
      ),
      company: Type.Optional(
        nullable(str(40, 'Company name, at most 40 characters. Either name or company is required.', 'EXAMPLE CO')),
      ),
      phone: Type.Optional(nullable(str(40, 'Phone number, at most 40 characters.', '555-555-5555'))),
      email: Type.Optional(nullable(str(100, 'E-mail address, at most 100 characters.', 'harry@example.com'))),
      address_line1: Type.String({
        minLength: 1,
        maxLength: 200,
        description: 'First line of the street address: at most 64 characters for US addresses, 200 elsewhere.',
        examples: ['210 King St'],
      }),
      address_line2: Type.Optional(
        nullable(
          str(200, 'Second line (unit, suite): at most 64 characters for US addresses, 200 elsewhere.', 'Suite 6100'),
        ),
      ),
      address_city: Type.Optional(nullable(str(200, 'City. Required for US addresses.', 'San Francisco'))),
      address_state: Type.Optional(
        nullable(
          str(
            200,
            'State: for US addresses a two-letter code or the full state name (required); free text elsewhere.',
            'CA',
          ),
        ),
      ),
      address_zip: Type.Optional(
        nullable(str(40, 'ZIP code: for US addresses 12345 or 12345-1234 (required).', '94107')),
      ),
      address_country: Type.Optional(
        Type.String({
          pattern: '^[A-Za-z]{2}$',
          default: 'US',
          errorMessage: 'must be a two-letter ISO 3166 country code',
          description: 'Two-letter ISO 3166 country code, default US.',
          examples: ['US'],
        }),
      ),
      metadata: Type.Optional(metadata()),
    }),
    addressRules,
  );

const country = (body: Record<string, unknown>) => String(body.address_country ?? 'US').toUpperCase();
/** US territories with their own ISO code are domestic mail: served as US addresses with the territory as state. */
const isDomestic = (body: Record<string, unknown>) => country(body) === 'US' || US_TERRITORIES.has(country(body));

const nameOrCompany: Rule = (body, at) =>
  blank(body.name) && blank(body.company) ? { message: `${at('name')} or ${at('company')} is required` } : undefined;

const knownCountry: Rule = (body, at) =>
  body.address_country !== undefined && !isCountryCode(String(body.address_country))
    ? { message: `${at('address_country')} must be a valid two-letter ISO 3166 country code` }
    : undefined;

const US_ZIP = /^\d{5}(-?\d{4})?$/;

/** Spec, Create rule 1: US addresses need city, state and ZIP (in that order, as the vendor asks for them). */
const usRequiredFields: Rule = (body, at) => {
  if (!isDomestic(body)) return undefined;
  // For a territory given as the country, the territory is the state.
  const required =
    country(body) === 'US'
      ? (['address_city', 'address_state', 'address_zip'] as const)
      : (['address_city', 'address_zip'] as const);
  const missing = required.find((field) => blank(body[field]));
  return missing ? { message: `${at(missing)} is required` } : undefined;
};

/** Spec, Create rule 1: US lines of at most 64, a known state, a ZIP or ZIP+4. */
const usFieldFormats: Rule = (body, at) => {
  if (!isDomestic(body)) return undefined;
  for (const field of ['address_line1', 'address_line2'] as const) {
    const value = body[field];
    if (typeof value === 'string' && value.length > 64)
      return { message: `${at(field)} must be at most 64 characters for US addresses` };
  }
  if (!blank(body.address_state) && !stateCode(String(body.address_state))) {
    return { message: `${at('address_state')} must be a valid US state: a two-letter code or the full state name` };
  }
  if (!US_ZIP.test(String(body.address_zip).trim()))
    return { message: `${at('address_zip')} must be in the format 12345 or 12345-1234` };
  return undefined;
};

/** C0 and C1 control characters (NUL, escape sequences, line breaks, tabs): nothing a printed address holds. */
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
const PRINTED = [
  'name',
  'company',
  'phone',
  'address_line1',
  'address_line2',
  'address_city',
  'address_state',
  'address_zip',
] as const;

/** Every printed field is text a printer can set: a control character would reach the page as garbage. */
const printableFields: Rule = (body, at) => {
  const field = PRINTED.find((f) => typeof body[f] === 'string' && CONTROL.test(body[f]));
  return field ? { message: `${at(field)} must not contain control characters` } : undefined;
};

// Spec, Create rule 2 (non-US maxima 200, 200, 40) is in the schema itself.
// The vendor's order: a US body with neither name/company nor city/state/zip is refused for its city.
const addressRules: Rule[] = [printableFields, knownCountry, usRequiredFields, nameOrCompany, usFieldFormats];

/** The address object as returned. */
export const addressObjectFields = () => ({
  description: nullable(Type.String({ maxLength: 255 })),
  name: nullable(Type.String({ maxLength: 40 })),
  company: nullable(Type.String({ maxLength: 40 })),
  phone: nullable(Type.String({ maxLength: 40 })),
  email: nullable(Type.String({ maxLength: 100 })),
  address_line1: Type.String({ maxLength: 200 }),
  address_line2: nullable(Type.String({ maxLength: 200 })),
  address_city: nullable(Type.String({ maxLength: 200 })),
  address_state: nullable(Type.String({ maxLength: 200 })),
  address_zip: nullable(Type.String({ maxLength: 40 })),
  address_country: Type.String({ description: 'Full country name, e.g. UNITED STATES.' }),
  metadata: metadata(),
  recipient_moved: nullable(
    Type.Boolean({
      description: 'true: changed by a change-of-address filing; false: checked, none found; null: not checked.',
    }),
  ),
});

/** An address create body (or inline `to`/`from`) as validated. */
export type AddressInput = Static<ReturnType<typeof addressInput>>;
