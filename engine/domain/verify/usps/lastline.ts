// The last line: city, state and ZIP, read backwards from the end of a run of words.

import { MAX_STATE_NAME_WORDS, stateCode } from './states';
import { streetSuffix } from './suffixes';
import type { Word } from './text';

export interface ZipParts {
  zip_code: string;
  zip_code_plus_4: string;
}

/** "12345", "12345-6789", "123456789" (and "12345 6789" split over two words). */
export function parseZip(text: string): ZipParts | undefined {
  const m = /^(\d{5})(?:-?(\d{4}))?$/.exec(text.replace(/\s+/g, ''));
  if (!m) return undefined;
  return { zip_code: m[1], zip_code_plus_4: m[2] ?? '' };
}

/** ZIP ending at word `end` (exclusive): the parts and where they start. */
export function readZipBackward(w: readonly Word[], end: number): (ZipParts & { start: number }) | undefined {
  const last = w[end - 1]?.text;
  if (last === undefined) return undefined;
  const prev = w[end - 2]?.text;
  if (/^\d{4}$/.test(last) && prev !== undefined && /^\d{5}$/.test(prev)) {
    return { zip_code: prev, zip_code_plus_4: last, start: end - 2 };
  }
  const zip = parseZip(last);
  return zip ? { ...zip, start: end - 1 } : undefined;
}

/**
 * State ending at word `end`, as a code or a full name of up to a few words.
 * A code that is also a street suffix (CT, PR, MT, KY) is trusted only when a ZIP follows
 * or a comma precedes it; otherwise "123 OAK CT" would lose its suffix.
 */
export function readStateBackward(
  w: readonly Word[],
  end: number,
  zipFollows: boolean,
): { state: string; start: number } | undefined {
  for (let k = Math.min(MAX_STATE_NAME_WORDS, end); k >= 1; k--) {
    const slice = w.slice(end - k, end).map((x) => x.text);
    // A comma inside a multi-word name means two fields, not one name.
    if (w.slice(end - k, end - 1).some((x) => x.comma)) continue;
    // "WASHINGTON DC": a code at the very end is the state by itself; the word before is the city.
    if (k > 1 && slice[k - 1].length === 2 && stateCode(slice[k - 1]) !== undefined) continue;
    const code = stateCode(slice.join(' '));
    if (code === undefined) continue;
    if (k === 1 && slice[0].length === 2 && streetSuffix(slice[0]) !== undefined) {
      const commaBefore = w[end - 2]?.comma === true;
      if (!zipFollows && !commaBefore) continue;
    }
    // A lone state word with nothing before it is more likely a street or city fragment.
    if (end - k === 0 && !zipFollows) continue;
    return { state: code, start: end - k };
  }
  return undefined;
}

const COUNTRY_TAILS: readonly (readonly string[])[] = [
  ['UNITED', 'STATES', 'OF', 'AMERICA'],
  ['UNITED', 'STATES'],
  ['USA'],
  ['US'],
  ['U', 'S', 'A'],
];

/** Index after the address proper, dropping a trailing country name ("..., USA"). */
export function dropCountry(w: readonly Word[]): number {
  for (const tail of COUNTRY_TAILS) {
    const start = w.length - tail.length;
    if (
      start > 0 &&
      tail.every((t, k) => w[start + k].text === t) &&
      (w[start - 1].comma || /^\d/.test(w[start - 1].text))
    ) {
      return start;
    }
  }
  return w.length;
}

export interface LastLine extends ZipParts {
  city: string;
  state: string;
}

/** A whole last line ("Springfield, IL 62701-1234"). */
export function parseLastLine(w: readonly Word[]): LastLine {
  let end = dropCountry(w);
  const zip = readZipBackward(w, end);
  if (zip) end = zip.start;
  const state = end > 0 ? readLastLineState(w, end) : undefined;
  if (state) end = state.start;
  return {
    city: w
      .slice(0, end)
      .map((x) => x.text)
      .join(' '),
    state: state?.state ?? '',
    zip_code: zip?.zip_code ?? '',
    zip_code_plus_4: zip?.zip_code_plus_4 ?? '',
  };
}

// On a line known to be the last line, any state code or name at the end counts.
function readLastLineState(w: readonly Word[], end: number): { state: string; start: number } | undefined {
  for (let k = Math.min(MAX_STATE_NAME_WORDS, end); k >= 1; k--) {
    const slice = w.slice(end - k, end).map((x) => x.text);
    if (k > 1 && slice[k - 1].length === 2 && stateCode(slice[k - 1]) !== undefined) continue;
    const code = stateCode(slice.join(' '));
    if (code !== undefined) return { state: code, start: end - k };
  }
  return undefined;
}
