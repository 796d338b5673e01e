// House numbers and the street itself: predirectional, name, suffix, postdirectional.

import { directional, isLikelyPostdirectional } from './directionals';
import { findUnit, readUnit } from './secondary';
import { isStrongSuffix, streetSuffix } from './suffixes';
import { isFraction, isHouseNumber } from './text';

export interface StreetParts {
  street_predirection: string;
  street_name: string;
  street_suffix: string;
  street_postdirection: string;
}

/** "123", "123 1/2", "12-34" at word `i`; empty number and `end === i` when absent. */
export function readHouseNumber(w: readonly string[], i: number): { primary_number: string; end: number } {
  const first = w[i];
  if (first === undefined || !isHouseNumber(first)) return { primary_number: '', end: i };
  if (isFraction(w[i + 1] ?? '')) return { primary_number: `${first} ${w[i + 1]}`, end: i + 2 };
  return { primary_number: first, end: i + 1 };
}

/**
 * Splits the words after the house number. Only the last word can be a suffix and only an
 * outer word a directional, and never when that would leave no name: "NORTH ST" keeps
 * NORTH as the name, "AVENUE B" and "AVENUE OF THE AMERICAS" keep AVENUE.
 */
export function parseStreetWords(words: readonly string[]): StreetParts {
  const out: StreetParts = { street_predirection: '', street_name: '', street_suffix: '', street_postdirection: '' };
  let rest = [...words];

  const lastDir = rest.length >= 2 ? directional(rest[rest.length - 1]) : undefined;
  const bareSuffixBefore = rest.length === 2 && streetSuffix(rest[0]) !== undefined;
  if (lastDir && !bareSuffixBefore) {
    out.street_postdirection = lastDir;
    rest = rest.slice(0, -1);
  }

  const suffix = rest.length >= 2 ? streetSuffix(rest[rest.length - 1]) : undefined;
  if (suffix) {
    out.street_suffix = suffix;
    rest = rest.slice(0, -1);
  }

  const firstDir = rest.length >= 2 ? directional(rest[0]) : undefined;
  if (firstDir) {
    out.street_predirection = firstDir;
    rest = rest.slice(1);
  }

  out.street_name = rest.join(' ');
  return out;
}

// Words that begin multi-word city names, used only when nothing else marks the street's end.
const CITY_PREFIXES = new Set([
  'NEW',
  'SAN',
  'SANTA',
  'LOS',
  'LAS',
  'EL',
  'LA',
  'FORT',
  'FT',
  'SAINT',
  'ST',
  'PORT',
  'MOUNT',
  'MT',
  'EAST',
  'WEST',
  'NORTH',
  'SOUTH',
  'SALT',
  'LAKE',
  'PALM',
  'CAPE',
  'GRAND',
  'BATON',
  'DES',
  'CORPUS',
  'COLORADO',
  'OVERLAND',
  'ROUND',
  'CEDAR',
  'SIOUX',
  'ANN',
  'BEVERLY',
  'LONG',
  'VIRGINIA',
  'KANSAS',
  'JERSEY',
  'OKLAHOMA',
  'CARSON',
  'JEFFERSON',
  'ELK',
  'BOWLING',
  'FALLS',
  'CHAPEL',
  'SILVER',
  'ROCK',
]);

/**
 * Where the street ends in an unpunctuated one-line address ("123 MAIN ST SPRINGFIELD").
 * `nameStart` is the first word after the house number; the result is the index of the first
 * word after the street (units may follow it). Prefers, in order: a unit designator, a
 * reliable suffix (AVE, STREET) plus a likely postdirectional, any suffix word, and
 * finally a guess that the city is the last word or a known multi-word city start.
 */
export function streetEnd(w: readonly string[], nameStart: number): number {
  const minEnd = nameStart + 1;
  if (w.length <= minEnd) return w.length;

  const unitAt = findUnit(w, minEnd);
  let suffixAt = -1;
  for (let i = minEnd; i < w.length && (unitAt < 0 || i < unitAt); i++) {
    if (isStrongSuffix(w[i])) {
      suffixAt = i;
      break;
    }
  }
  if (suffixAt >= 0) {
    const next = w[suffixAt + 1];
    const hasPostdir =
      next !== undefined && isLikelyPostdirectional(next) && readUnit(w, suffixAt + 1, false) === undefined;
    return hasPostdir ? suffixAt + 2 : suffixAt + 1;
  }
  if (unitAt >= 0) return unitAt;

  // Any suffix word, unless it is more likely the start of the city ("1 BROADWAY FT WORTH").
  for (let i = minEnd; i < w.length - 1; i++) {
    if (streetSuffix(w[i]) !== undefined && !CITY_PREFIXES.has(w[i])) return i + 1;
  }

  let cityStart = w.length - 1;
  while (cityStart - 1 >= minEnd && CITY_PREFIXES.has(w[cityStart - 1])) cityStart--;
  return Math.max(cityStart, minEnd);
}
