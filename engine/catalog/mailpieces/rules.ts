// Rules of mailpiece bodies a schema cannot express. Body rules run at validation; placement rules run
// once `to` and `from` are resolved to address objects (an address id says nothing about its country
// until it is read), on a view of the body whose `to` and `from` are those objects.
import { isBlank } from '../blank';
import { isoInstant } from '../dates';
import type { Rule, RuleViolation } from '../types';

const MERGE_LIMIT = 25_000;
const SEND_AHEAD_DAYS = 180;
const DAY_MS = 86_400_000;
/** Characters a merge variable name may not hold (spec: merge_variables). */
const RESTRICTED = /[!"#%&'()*+,/;<=>@[\\\]^`{|}~]/;

/** First key at any depth that breaks the naming rules, with the code it breaks. */
function badMergeKey(value: unknown, path: string): RuleViolation | undefined {
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = badMergeKey(value[i], `${path}[${i}]`);
      if (found) return found;
    }
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  for (const [key, inner] of Object.entries(value)) {
    if (/\s/.test(key) || key === '')
      return { code: 'merge_variable_whitespace', message: `${path} name "${key}" must not contain whitespace` };
    if (RESTRICTED.test(key))
      return {
        code: 'special_characters_restricted',
        message: `${path} name "${key}" must not contain any of !"#%&'()*+,/;<=>@[\\]^\`{|}~`,
      };
    const found = badMergeKey(inner, `${path}.${key}`);
    if (found) return found;
  }
  return undefined;
}

export const mergeVariableRules: Rule = (body, at) => {
  const vars = body.merge_variables;
  if (vars === undefined || vars === null) return undefined;
  if (JSON.stringify(vars).length > MERGE_LIMIT)
    return { message: `${at('merge_variables')} must be at most ${MERGE_LIMIT} characters when serialized as JSON` };
  return badMergeKey(vars, at('merge_variables'));
};

export const sendDateRule: Rule = (body, at) => {
  if (body.send_date === undefined || body.send_date === null) return undefined;
  const instant = isoInstant(String(body.send_date));
  if (instant === undefined) return { message: `${at('send_date')} must be an ISO 8601 date or date-time` };
  const now = Date.now();
  if (instant <= now) return { message: `${at('send_date')} must be after the current time` };
  if (instant > now + SEND_AHEAD_DAYS * DAY_MS)
    return { message: `${at('send_date')} must be at most ${SEND_AHEAD_DAYS} days from now` };
  return undefined;
};

/** A field the kind refuses when another has a value (`fsc` for 4x6 postcards). */
export const notWith =
  (field: string, other: string, values: readonly unknown[], code = 'invalid'): Rule =>
  (body, at) =>
    !isBlank(body[field]) && body[field] !== false && values.includes(body[other])
      ? { code, message: `${at(field)} is not available when ${at(other)} is ${String(body[other])}` }
      : undefined;

// Placement: the view's `to` and `from` are address objects (address_country is the full name).

const DOMESTIC = 'UNITED STATES';
type AddressView = { address_country?: string; address_line1?: string; address_line2?: string | null };
const addressOf = (body: Record<string, unknown>, field: 'to' | 'from') =>
  (body[field] ?? undefined) as AddressView | undefined;

export const isAbroad = (body: Record<string, unknown>, field: 'to' | 'from' = 'to'): boolean => {
  const address = addressOf(body, field);
  return address !== undefined && address.address_country !== DOMESTIC;
};

export const fromRequiredAbroad: Rule = (body, at) =>
  isAbroad(body) && !addressOf(body, 'from')
    ? { message: `${at('from')} is required when to is outside the US` }
    : undefined;

export const fromInUs: Rule = (body, at) =>
  isAbroad(body, 'from')
    ? { code: 'foreign_return_address', message: `${at('from')} must be a US address` }
    : undefined;

export const standardOnlyInUs: Rule = (body, at) =>
  isAbroad(body) && body.mail_type === 'usps_standard'
    ? { code: 'invalid_international_feature', message: `${at('mail_type')} usps_standard is only for US destinations` }
    : undefined;

/** The kind (or the named sizes of it) cannot go abroad. */
export const domesticOnly =
  (what: string, code = 'invalid_international_feature', sizes?: readonly string[]): Rule =>
  (body, at) =>
    isAbroad(body) && (!sizes || sizes.includes(String(body.size)))
      ? {
          code,
          message: sizes
            ? `${what} of size ${String(body.size)} can only be sent to US addresses`
            : `${what} can only be sent to US addresses (${at('to')})`,
        }
      : undefined;

/** Placement rules of every kind. */
export const sharedPlacementRules: readonly Rule[] = [fromRequiredAbroad, fromInUs, standardOnlyInUs];
