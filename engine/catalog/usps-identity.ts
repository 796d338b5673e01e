// The operator's USPS identity: what a live piece needs before it may be printed and mailed (its
// Intelligent Mail barcode's Mailer ID and service types, the permit its indicia names, the CRID its
// postage statements are filed under). It is configuration (engine/platform/config.ts); this file only checks
// the values and says what is missing, so the render path and /health read one answer.
import { US_STATES } from './us-states';

export interface UspsIdentity {
  /** 6 digits (0-8 first: 9 serial digits left) or 9 digits (9 first: 6 serial digits left) */
  mailerId: string;
  crid: string;
  permit: { number: string; city: string; state: string };
  /** service type identifier (STID) of the IMb per mail type */
  serviceType: { usps_first_class: string; usps_standard: string };
}

/** The configured values, each possibly unset. */
export interface UspsSettings {
  mailerId?: string;
  crid?: string;
  permitNumber?: string;
  permitCity?: string;
  permitState?: string;
  stidFirstClass: string;
  stidMarketing: string;
}

export type UspsReadiness = { ready: true; identity: UspsIdentity } | { ready: false; missing: string[] };

const STATES = new Set(US_STATES.map((s) => s.code));

/** Why a value cannot be used, or undefined when it can (unset values are checked by readiness). */
export const USPS_CHECKS = {
  mailerId: (v: string) =>
    /^[0-8]\d{5}$/.test(v) || /^9\d{8}$/.test(v)
      ? undefined
      : 'must be a USPS Mailer ID: 6 digits not starting with 9, or 9 digits starting with 9',
  crid: (v: string) => (/^\d{4,15}$/.test(v) ? undefined : 'must be a USPS CRID: 4 to 15 digits'),
  permitNumber: (v: string) => (/^\d{1,8}$/.test(v) ? undefined : 'must be a permit number: 1 to 8 digits'),
  permitCity: (v: string) =>
    /^[A-Za-z][A-Za-z .'-]{0,39}$/.test(v) ? undefined : 'must be the permit office city: letters, at most 40',
  permitState: (v: string) =>
    STATES.has(v.toUpperCase()) ? undefined : 'must be the two-letter USPS code of the permit office state',
  stid: (v: string) => (/^\d{3}$/.test(v) ? undefined : 'must be a 3-digit USPS service type identifier (STID)'),
};

/** The environment variable of each setting, for what is missing. */
export const USPS_VARIABLES: Record<'mailerId' | 'crid' | 'permitNumber' | 'permitCity' | 'permitState', string> = {
  mailerId: 'USPS_MAILER_ID',
  crid: 'USPS_CRID',
  permitNumber: 'USPS_PERMIT_NUMBER',
  permitCity: 'USPS_PERMIT_CITY',
  permitState: 'USPS_PERMIT_STATE',
};

/** The identity when every part of it is set, else the variables still to set. */
export function uspsReadiness(settings: UspsSettings): UspsReadiness {
  const { mailerId, crid, permitNumber, permitCity, permitState } = settings;
  const given = { mailerId, crid, permitNumber, permitCity, permitState };
  const missing = Object.entries(given)
    .filter(([, value]) => value === undefined)
    .map(([key]) => USPS_VARIABLES[key as keyof typeof given]);
  if (!mailerId || !crid || !permitNumber || !permitCity || !permitState) return { ready: false, missing };
  return {
    ready: true,
    identity: {
      mailerId,
      crid,
      permit: { number: permitNumber, city: permitCity.toUpperCase(), state: permitState.toUpperCase() },
      serviceType: { usps_first_class: settings.stidFirstClass, usps_standard: settings.stidMarketing },
    },
  };
}

/** A sentence for a piece, /health and the banner. */
export const missingSentence = (missing: string[]): string =>
  `the operator's USPS identity is not configured: set ${missing.join(', ')} and restart the engine`;

/**
 * The S10 range USPS assigned the operator for registered mail: the two-letter service indicator
 * (R and a letter) and the first and last 8-digit serial numbers. Registered numbers are drawn from
 * it in order; without one, live registered mail is refused.
 */
export interface RegisteredRange {
  indicator: string;
  first: number;
  last: number;
}

/** The environment variables of the registered range, in the order an operator sets them. */
export const REGISTERED_VARIABLES = [
  'USPS_S10_SERVICE_INDICATOR',
  'USPS_S10_FIRST_SERIAL',
  'USPS_S10_LAST_SERIAL',
] as const;

export const S10_CHECKS = {
  indicator: (v: string) =>
    /^R[A-Z]$/i.test(v)
      ? undefined
      : 'must be the S10 service indicator of registered mail: R and a letter (RR, RA, ...)',
  serial: (v: string) => (/^\d{8}$/.test(v) ? undefined : 'must be an S10 serial number: 8 digits'),
};

/**
 * The configured range, undefined when none is set; a range set in part or backwards is a sentence
 * saying what is wrong (the engine refuses to start with it).
 */
export function registeredRange(given: {
  indicator?: string;
  first?: string;
  last?: string;
}): RegisteredRange | undefined | { wrong: string } {
  const { indicator, first, last } = given;
  if (indicator === undefined && first === undefined && last === undefined) return undefined;
  if (indicator === undefined || first === undefined || last === undefined)
    return { wrong: `registered mail needs all of ${REGISTERED_VARIABLES.join(', ')} (or none of them)` };
  if (Number(first) > Number(last))
    return { wrong: `USPS_S10_FIRST_SERIAL ${first} is past USPS_S10_LAST_SERIAL ${last}` };
  return { indicator: indicator.toUpperCase(), first: Number(first), last: Number(last) };
}

/** Why a live registered letter is refused when no range is configured. */
export const REGISTERED_OFF =
  `registered mail is off: set ${REGISTERED_VARIABLES.join(', ')} to the S10 range USPS assigned you ` +
  'and restart the engine';
