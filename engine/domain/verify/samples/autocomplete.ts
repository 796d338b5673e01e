// Test-mode autocomplete (docs/compat-notes.md): "<number> s" returns ten fixed suggestions; each further letter
// of "suggestion" drops one from the front; the number sent replaces the number of each line.
// Any other prefix returns one suggestion saying test keys do not autocomplete.
import type { Suggestion } from '../suggestion';

const FIXED: readonly Suggestion[] = [
  // Three real streets in front of the vendor's published seven.
  { primary_line: '1 TELEGRAPH AVE', city: 'OAKLAND', state: 'CA', zip_code: '94612' },
  { primary_line: '1 TELEGRAPH RD', city: 'BELLINGHAM', state: 'WA', zip_code: '98226' },
  { primary_line: '1 TELEPHONE AVE', city: 'ANCHORAGE', state: 'AK', zip_code: '99503' },
  { primary_line: '1 TELEPHONE RD', city: 'OXFORD', state: 'AR', zip_code: '72565' },
  { primary_line: '1 TELEGA PL', city: 'PALMDALE', state: 'CA', zip_code: '93550' },
  { primary_line: '1 TELEGRAM AVE', city: 'ELMONT', state: 'NY', zip_code: '11003' },
  { primary_line: '1 TELEGRAM AVE', city: 'GARDEN CITY', state: 'KS', zip_code: '67846' },
  { primary_line: '1 TELEGRAPH HILL RD', city: 'HOLMDEL', state: 'NJ', zip_code: '07733' },
  { primary_line: '1 TELEGRAPH HILL RD S', city: 'HOLMDEL', state: 'NJ', zip_code: '07733' },
  { primary_line: '1 TELEGRAPH HILL BLVD', city: 'SAN FRANCISCO', state: 'CA', zip_code: '94133' },
];

const NO_AUTOCOMPLETE: Suggestion = {
  primary_line: 'TEST KEYS DO NOT AUTOCOMPLETE US ADDRESSES',
  city: 'SAN FRANCISCO',
  state: 'CA',
  zip_code: '94107',
};

const WORD = 'suggestions';

export interface AutocompleteFilters {
  city?: string;
  state?: string;
  zip_code?: string;
}

export function matchesFilters(s: Suggestion, f: AutocompleteFilters): boolean {
  if (f.city && s.city.toUpperCase() !== f.city.trim().toUpperCase()) return false;
  if (f.state && s.state !== f.state.trim().toUpperCase()) return false;
  if (f.zip_code && !s.zip_code.startsWith(f.zip_code)) return false;
  return true;
}

export function testSuggestions(prefix: string, filters: AutocompleteFilters): Suggestion[] {
  const m = /^\s*(\d+)\s+([a-z]+)\s*$/i.exec(prefix);
  const letters = m?.[2].toLowerCase();
  if (!m || !letters || !WORD.startsWith(letters)) return [{ ...NO_AUTOCOMPLETE }];
  // "1 s" -> 10, "1 su" -> 9, ... "1 suggestion" -> 1, "0 suggestions" -> none.
  const count = Math.max(0, FIXED.length - (letters.length - 1));
  return FIXED.slice(FIXED.length - count)
    .map((s) => ({ ...s, primary_line: s.primary_line.replace(/^\d+/, m[1]) }))
    .filter((s) => matchesFilters(s, filters));
}
