// The live US verifier: parse -> place (ZIP, city, state checked against the bundled ZIP database)
// -> Pub 28 lines -> components. It has no delivery point data, so it never claims a DPV match:
// deliverability says only what the ZIP database can back.
import { newId } from '../../base/ids';
import { parseUsAddress, standardize, isMilitaryState, type ParsedUsAddress } from './usps';
import { countyName, lookupZip, normalizeCity, zipsForCityState, type ZipRecord } from './zipdb';
import type { StreetVerdict } from '../streets/match';
import type { LetterCase } from './case';
import {
  NO_SCORE,
  dpvAnalysis,
  noDpvAnalysis,
  withCase,
  type UsComponents,
  type UsDeliverability,
  type UsVerification,
  type UsVerificationInput,
} from './us-object';

/** Where the address is, as far as the ZIP database can tell. */
interface Place {
  found: boolean;
  /** why not found, for callers that explain (address book errors) */
  reason: string;
  record?: ZipRecord;
  city: string;
  state: string;
  zip: string;
}

const TWO_LETTERS = /^[A-Z]{2}$/;

function cityIn(record: ZipRecord, city: string): string | undefined {
  const key = normalizeCity(city);
  return key === '' ? undefined : record.cities.find((c) => normalizeCity(c) === key);
}

const MILITARY_CITIES = new Set(['APO', 'FPO', 'DPO']);

/**
 * The city to print for a ZIP, or undefined when the engine cannot decide. One of the ZIP's names is
 * kept; a misspelling of one (SAN FRANSISCO) is corrected as USPS would. A city of the same state
 * whose ZIPs all lie outside this ZIP's sectional center (first three digits) contradicts the ZIP:
 * either may be wrong. Any other name (NEW YORK with 94107, an alias the database does not list) is
 * replaced by the ZIP's city when the ZIP has only one: printing a name the database cannot back
 * would claim what the engine does not know, while the ZIP's own city is always a good last line.
 */
function cityForZip(record: ZipRecord, city: string): string | undefined {
  const exact = cityIn(record, city);
  if (exact) return exact;
  const upper = city.toUpperCase();
  if (record.type === 'military' && MILITARY_CITIES.has(upper)) return upper;
  const typo = record.cities.find((c) => nearlySame(normalizeCity(c), normalizeCity(city)));
  if (typo) return typo;
  const scf = record.zip.slice(0, 3);
  const elsewhere = zipsForCityState(city, record.state);
  if (elsewhere.length > 0 && !elsewhere.some((z) => z.startsWith(scf))) return undefined;
  return record.cities.length === 1 ? record.city : undefined;
}

/** Edit distance of at most 2 (1 for short names): a typo, not another place. */
function nearlySame(a: string, b: string): boolean {
  const max = Math.min(a.length, b.length) < 6 ? 1 : 2;
  if (Math.abs(a.length - b.length) > max) return false;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++)
      row[j] = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    if (Math.min(...row) > max) return false;
    prev = row;
  }
  return prev[b.length] <= max;
}

/** ZIP first (it must exist and agree with city and state); else a city and state with exactly one ZIP. */
function place(p: ParsedUsAddress): Place {
  const miss = (reason: string, record?: ZipRecord): Place => ({
    found: false,
    reason,
    record,
    city: p.city,
    state: p.state,
    zip: p.zip_code,
  });
  if (p.zip_code !== '') {
    const record = lookupZip(p.zip_code);
    if (!record) return miss(`ZIP code ${p.zip_code} does not exist`);
    if (p.state !== '' && p.state !== record.state) return miss(`ZIP code ${p.zip_code} is not in ${p.state}`, record);
    const city = p.city === '' ? record.city : cityForZip(record, p.city);
    if (city === undefined) return miss(`${p.city} ${record.state} is not served by ZIP code ${p.zip_code}`, record);
    return { found: true, reason: '', record, city, state: record.state, zip: record.zip };
  }
  if (p.city === '' || p.state === '') return miss('no ZIP code, city or state');
  const zips = zipsForCityState(p.city, p.state);
  if (zips.length === 0) return miss(`${p.city} ${p.state} is not a known city`);
  const record = lookupZip(zips[0])!;
  const city = cityIn(record, p.city) ?? p.city;
  // Several ZIPs: which one serves the street needs street data the database does not hold.
  if (zips.length > 1)
    return {
      ...miss(`${city} ${record.state} has ${zips.length} ZIP codes: send zip_code`),
      city,
      state: record.state,
    };
  return { found: true, reason: '', record, city, state: record.state, zip: record.zip };
}

function deliveryLineProblem(p: ParsedUsAddress): string {
  if (p.kind === 'street' && (p.primary_number === '' || p.street_name === ''))
    return 'the street line has no house number or street';
  // Ships (USS ...) and general delivery have no box number; PO, RR, HC, PSC and UNIT boxes do.
  if (p.primary_number === '' && (/\bBOX$/.test(p.street_name) || p.kind === 'po_box'))
    return 'the box number is missing';
  return '';
}

const ROUTE_TYPE: Partial<Record<ParsedUsAddress['kind'], UsComponents['carrier_route_type']>> = {
  po_box: 'po_box',
  rural_route: 'rural_route',
  highway_contract: 'highway_contract',
  general_delivery: 'general_delivery',
};

/** The parser's directionals are Pub 28 abbreviations (usps/directionals.ts), the schema's values. */
const direction = (d: string) => d as UsComponents['street_predirection'];

export interface UsJudgement {
  verification: UsVerification;
  /** empty when deliverable; otherwise why not */
  reason: string;
}

/** The request's address, parsed (one string, or lines and fields). */
export function parseUsInput(input: UsVerificationInput): ParsedUsAddress {
  return input.address !== undefined && input.address.trim() !== ''
    ? parseUsAddress(input.address)
    : parseUsAddress({
        primaryLine: input.primary_line ?? '',
        secondaryLine: input.secondary_line,
        city: input.city,
        state: input.state,
        zipCode: input.zip_code,
        urbanization: input.urbanization,
      });
}

/** Placed by the last line with a street line the street data can judge: the ZIP to ask it about. */
export function streetQuestionZip(parsed: ParsedUsAddress): string | undefined {
  const where = place(parsed);
  if (!where.found || parsed.kind !== 'street' || deliveryLineProblem(parsed) !== '') return undefined;
  return where.zip;
}

/** Verifies one address offline. Pure apart from the (cached) ZIP database. */
export function judgeUsAddress(input: UsVerificationInput, letterCase?: LetterCase): UsJudgement {
  return judgeParsed(input, parseUsInput(input), letterCase);
}

/** Why the street data refuses the address (empty when it does not), and the vendor's footnote for it. */
function streetRefusal(verdict: StreetVerdict | undefined, zip: string): { reason: string; footnote: string } {
  if (verdict?.answer === 'unknown_street')
    return { reason: `the street is not known in ZIP code ${zip}`, footnote: 'A1' };
  if (verdict?.answer === 'number_outside')
    return {
      reason: `the house number is outside every address range of the street in ZIP code ${zip}`,
      footnote: 'M3',
    };
  return { reason: '', footnote: '' };
}

const UNIT_DELIVERABILITY = {
  ok: 'deliverable',
  missing: 'deliverable_missing_unit',
  incorrect: 'deliverable_incorrect_unit',
} as const;

/**
 * The verification of a parsed address; `verdict` is what the loaded street data says of it (none or
 * `no_data`: the last line alone answers, as it always did without street data).
 */
export function judgeParsed(
  input: UsVerificationInput,
  parsed: ParsedUsAddress,
  letterCase?: LetterCase,
  verdict?: StreetVerdict,
): UsJudgement {
  const where = place(parsed);
  const lineProblem = deliveryLineProblem(parsed);
  const refusal = streetRefusal(verdict, where.zip);
  const reason = where.found ? lineProblem || refusal.reason : where.reason;
  const found = verdict?.answer === 'found' ? verdict : undefined;
  const deliverability: UsDeliverability =
    reason !== '' ? 'undeliverable' : found ? UNIT_DELIVERABILITY[found.unit] : 'deliverable';
  const ok = deliverability !== 'undeliverable';
  const record = ok ? where.record : undefined;
  // A last line that cannot be placed cannot match a ZIP+4 either: the vendor's no-match footnote; a
  // street the data does not know is the same footnote, a number outside its ranges M3. Everything
  // else about delivery points needs USPS data the engine does not have: left empty.
  const analysis = !where.found
    ? dpvAnalysis('', ['A1'])
    : refusal.footnote !== '' && reason === refusal.reason
      ? dpvAnalysis('', [refusal.footnote])
      : noDpvAnalysis();
  // The street as the data spells it (a suffix filled in, a misspelling corrected).
  const street = verdict && 'street' in verdict ? verdict.street : undefined;
  if (street) Object.assign(parsed, street);
  const state = TWO_LETTERS.test(where.state) ? where.state : '';
  const urbanization = state === 'PR' ? parsed.urbanization : '';
  const plus4 = ok ? parsed.zip_code_plus_4 : '';
  const lines = standardize({
    ...parsed,
    city: where.city,
    state: where.state,
    zip_code: where.zip,
    zip_code_plus_4: plus4,
    urbanization,
  });
  const located = record !== undefined && !isMilitaryState(record.state);
  const countyFips = found?.countyFips || record?.countyFips || '';
  const county = countyFips === record?.countyFips ? (record?.county ?? '') : countyName(countyFips);

  const components: UsComponents = {
    primary_number: parsed.primary_number,
    street_predirection: direction(parsed.street_predirection),
    street_name: parsed.street_name,
    street_suffix: parsed.street_suffix,
    street_postdirection: direction(parsed.street_postdirection),
    secondary_designator: parsed.secondary_designator,
    secondary_number: parsed.secondary_number,
    pmb_designator: parsed.pmb_designator,
    pmb_number: parsed.pmb_number,
    extra_secondary_designator: parsed.extra_secondary_designator,
    extra_secondary_number: parsed.extra_secondary_number,
    city: where.city,
    state,
    zip_code: /^\d{5}$/.test(where.zip) ? where.zip : '',
    zip_code_plus_4: plus4,
    zip_code_type: record?.type ?? '',
    delivery_point_barcode: '',
    // The spec counts PO boxes as residential; anything else needs RDI data we do not have.
    address_type: ok && parsed.kind === 'po_box' ? 'residential' : '',
    record_type: '',
    default_building_address: false,
    county,
    county_fips: countyFips,
    carrier_route: '',
    carrier_route_type: ok ? (ROUTE_TYPE[parsed.kind] ?? '') : '',
    po_box_only_flag: record ? (record.type === 'po_box' ? 'Y' : 'N') : '',
    latitude: found ? found.lat : located ? record.latitude : null,
    longitude: found ? found.lon : located ? record.longitude : null,
  };
  const verification: UsVerification = {
    id: newId('us_ver'),
    recipient:
      input.recipient === undefined || input.recipient === null || input.recipient.trim() === ''
        ? null
        : input.recipient.replace(/\s+/g, ' ').trim().toUpperCase(),
    primary_line: lines.primaryLine,
    secondary_line: lines.secondaryLine,
    urbanization: lines.urbanization,
    last_line: lines.lastLine,
    deliverability,
    components,
    deliverability_analysis: analysis,
    svc_confidence_score: { ...NO_SCORE },
    street_data: verdict && verdict.answer !== 'no_data' ? verdict.by : 'last_line',
    object: 'us_verification',
  };
  return { verification: withCase(verification, letterCase), reason };
}

/** The live `POST /v1/us_verifications` answer. */
export function verifyUsAddress(input: UsVerificationInput, letterCase?: LetterCase): UsVerification {
  return judgeUsAddress(input, letterCase).verification;
}
