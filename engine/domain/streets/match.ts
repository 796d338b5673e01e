// What the loaded street data says of one street address in one ZIP: the street must be known there
// (after Pub 28 normalization, a missing suffix or directional filled in, or a one-letter misspelling
// of a name of 5+ letters corrected, when exactly one street fits), and the number must lie in a side's
// range with that side's parity, or be an address point. Pure: the rows come from store/streets.ts.
import type { KnownName, PointRow, SegmentRow, StreetLoadKind } from '../../store/streets';
import { alongLine, parseCoords, round6, shareOfRange } from './geometry';
import { partsOfKey, streetKey, unitKey, type StreetParts } from './street-key';

/** What answered: the engine extension field `street_data` of a live US verification. */
export type StreetEvidence = 'street_ranges' | 'address_points' | 'last_line';

export type StreetVerdict =
  /** the ZIP has no street data: the last line alone answers, as without any data */
  | { answer: 'no_data' }
  | { answer: 'unknown_street'; by: StreetEvidence }
  | { answer: 'number_outside'; by: StreetEvidence; street: StreetParts }
  | {
      answer: 'found';
      by: StreetEvidence;
      street: StreetParts;
      lon: number;
      lat: number;
      /** '' when only points answered (they carry no county) */
      countyFips: string;
      /** units the points know at the number: none given though some exist, or one they do not know */
      unit: 'ok' | 'missing' | 'incorrect';
    };

const byKind = (kinds: StreetLoadKind[]): StreetEvidence =>
  kinds.includes('tiger_addrfeat') ? 'street_ranges' : 'address_points';

/** One edit (insert, delete or substitute a letter) apart. */
export function oneEditApart(a: string, b: string): boolean {
  if (a === b || Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  if (a.length === b.length) return a.slice(i + 1) === b.slice(i + 1);
  return a.length > b.length ? a.slice(i + 1) === b.slice(i) : a.slice(i) === b.slice(i + 1);
}

/** A part the address gave must agree; one it left empty may be filled in from the data. */
const agrees = (given: string, known: string) => given === '' || given === known;

/**
 * The one street of the ZIP this address means, or undefined: the same name with the parts it gave,
 * else a name one letter off (5 letters or more) with those parts. Two candidates: no correction.
 */
export function correctStreet(given: StreetParts, names: readonly KnownName[]): string | undefined {
  const keys = [...new Set(names.map((n) => n.street_key))];
  const fits = (p: StreetParts) =>
    agrees(given.street_predirection, p.street_predirection) &&
    agrees(given.street_suffix, p.street_suffix) &&
    agrees(given.street_postdirection, p.street_postdirection);
  const same = keys.filter((k) => {
    const p = partsOfKey(k);
    return p.street_name === given.street_name && fits(p);
  });
  if (same.length > 0) return same.length === 1 ? same[0] : undefined;
  const near = keys.filter((k) => {
    const p = partsOfKey(k);
    return p.street_name.length >= 5 && oneEditApart(p.street_name, given.street_name) && fits(p);
  });
  return near.length === 1 ? near[0] : undefined;
}

const inParity = (n: number, parity: string | null) =>
  parity === 'B' || (parity === 'O' && n % 2 === 1) || (parity === 'E' && n % 2 === 0);

function onSide(n: number, from: number | null, to: number | null, parity: string | null): boolean {
  if (from === null || to === null) return false;
  return n >= Math.min(from, to) && n <= Math.max(from, to) && inParity(n, parity);
}

/** The number's place along the first segment side whose range and parity hold it. */
function inRanges(segments: readonly SegmentRow[], number: string) {
  if (!/^\d{1,9}$/.test(number)) return undefined;
  const n = Number(number);
  for (const s of segments) {
    const side = onSide(n, s.l_from, s.l_to, s.l_parity)
      ? ([s.l_from!, s.l_to!] as const)
      : onSide(n, s.r_from, s.r_to, s.r_parity)
        ? ([s.r_from!, s.r_to!] as const)
        : undefined;
    if (side) return { segment: s, at: alongLine(parseCoords(s.coords), shareOfRange(n, side[0], side[1])) };
  }
  return undefined;
}

export interface StreetQuestion {
  parts: StreetParts;
  primaryNumber: string;
  /** the secondary number given, '' when none */
  unit: string;
}

/** The verdict on the rows of the street the address was matched to (`key`). */
export function verdictOn(
  q: StreetQuestion,
  key: string,
  by: StreetEvidence,
  segments: readonly SegmentRow[],
  points: readonly PointRow[],
): StreetVerdict {
  const street = partsOfKey(key);
  const number = q.primaryNumber.toUpperCase();
  const here = points.filter((p) => p.number === number);
  if (here.length > 0) {
    const units = new Set(here.map((p) => p.unit).filter((u) => u !== ''));
    const given = unitKey(q.unit);
    const unit =
      given === '' ? (units.size > 0 ? 'missing' : 'ok') : units.size > 0 && !units.has(given) ? 'incorrect' : 'ok';
    const at = here.find((p) => p.unit === given) ?? here.find((p) => p.unit === '') ?? here[0];
    const fips = inRanges(segments, number)?.segment.county_fips ?? segments[0]?.county_fips ?? '';
    return {
      answer: 'found',
      by: 'address_points',
      street,
      lon: round6(at.lon),
      lat: round6(at.lat),
      countyFips: fips,
      unit,
    };
  }
  const ranged = inRanges(segments, number);
  if (ranged)
    return {
      answer: 'found',
      by: 'street_ranges',
      street,
      lon: round6(ranged.at.lon),
      lat: round6(ranged.at.lat),
      countyFips: ranged.segment.county_fips,
      unit: 'ok',
    };
  return { answer: 'number_outside', by: segments.length > 0 ? 'street_ranges' : by, street };
}

export { streetKey, byKind };
