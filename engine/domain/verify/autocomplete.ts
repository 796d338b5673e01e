// Live US autocomplete. Suggestions come from the account's own US addresses (its address book, live
// mode), then from the operator's street data in the ZIPs the filters name (domain/streets); the ZIP
// database resolves the city filter, so an acceptable city name of a ZIP (HOLLYWOOD for a LOS ANGELES
// ZIP) finds it too.
import { newId } from '../../base/ids';
import type { Scope } from '../../store/objects';
import type { Services } from '../services';
import type { BodyMatch } from '../../store/body-search';
import { lookupZip, normalizeCity, zipsForCityState } from './zipdb';
import { suggestStreets } from '../streets/suggest';
import { applyCase, type LetterCase } from './case';
import { matchesFilters, type AutocompleteFilters } from './samples/autocomplete';
import type { Suggestion } from './suggestion';

export type { Suggestion } from './suggestion';

export interface Autocompletion {
  id: string;
  suggestions: (Suggestion & { object: 'us_autocompletion' })[];
  object: 'us_autocompletion';
}

const MAX_SUGGESTIONS = 10;
/** Newest candidate addresses read per keystroke: bounds its cost on a huge address book. */
const MAX_CANDIDATES = 500;

const UNIT =
  /\s(?:APT|BSMT|BLDG|DEPT|FL|FRNT|HNGR|KEY|LBBY|LOT|LOWR|OFC|PH|PIER|REAR|RM|SIDE|SLIP|SPC|STOP|STE|TRLR|UNIT|UPPR|PMB|#)(?:\s|$).*$/;
const NUMBERED = /^(\d+[A-Z]?(?:[-/]\d+[A-Z]?)?)\s+(.+)$/;

const clean = (s: string) => s.replace(/\s+/g, ' ').trim().toUpperCase();

/** A stored address object (only its address fields are read). */
type BookAddress = Readonly<Record<string, unknown>>;

function cityMatches(s: Suggestion, city: string): boolean {
  const key = normalizeCity(city);
  if (normalizeCity(s.city) === key) return true;
  const record = lookupZip(s.zip_code);
  return record !== undefined && record.state === s.state && record.cities.some((c) => normalizeCity(c) === key);
}

/** The typed prefix as the whole line, its house number (if any) and the street part after it. */
function typedParts(prefix: string): { typed: string; number: string; streetTyped: string } {
  const typed = clean(prefix);
  const m = NUMBERED.exec(typed);
  const number = m ? m[1] : /^\d+[A-Z]?$/.test(typed) ? typed : '';
  return { typed, number, streetTyped: m ? m[2] : number ? '' : typed };
}

/** Suggestions for a prefix from stored addresses: whole lines first, then "<number> <street>" completions. */
export function suggestFromAddresses(
  prefix: string,
  filters: AutocompleteFilters,
  addresses: Iterable<BookAddress>,
): Suggestion[] {
  const { typed, number, streetTyped } = typedParts(prefix);
  const exact = new Map<string, { s: Suggestion; n: number }>();
  const streets = new Map<string, { s: Suggestion; n: number }>();
  const add = (into: typeof exact, s: Suggestion) => {
    const k = `${s.primary_line}|${s.city}|${s.state}|${s.zip_code}`;
    const hit = into.get(k);
    if (hit) hit.n += 1;
    else into.set(k, { s, n: 1 });
  };
  const { city, ...rest } = filters;
  for (const a of addresses) {
    if (a.address_country !== 'UNITED STATES' || typeof a.address_line1 !== 'string') continue;
    const zip = /^(\d{5})/.exec(String(a.address_zip ?? ''))?.[1];
    if (!zip) continue;
    const base = { city: String(a.address_city ?? ''), state: String(a.address_state ?? ''), zip_code: zip };
    const line = a.address_line1;
    const probe = { ...base, primary_line: line };
    if (!matchesFilters(probe, rest) || (city && !cityMatches(probe, city))) continue;
    if (line.startsWith(typed)) add(exact, probe);
    const parts = NUMBERED.exec(line);
    const street = (parts ? parts[2] : line).replace(UNIT, '');
    if (streetTyped !== '' && street.startsWith(streetTyped)) {
      add(streets, { ...base, primary_line: number ? `${number} ${street}` : line.replace(UNIT, '') });
    }
  }
  const ranked = (map: typeof exact) =>
    [...map.values()].sort((x, y) => y.n - x.n || (x.s.primary_line < y.s.primary_line ? -1 : 1)).map((e) => e.s);
  const out = ranked(exact);
  const seen = new Set(out.map((s) => `${s.primary_line}|${s.city}|${s.state}|${s.zip_code}`));
  for (const s of ranked(streets)) if (!seen.has(`${s.primary_line}|${s.city}|${s.state}|${s.zip_code}`)) out.push(s);
  return out.slice(0, MAX_SUGGESTIONS);
}

/** One query for the addresses that can match: the database filters, suggestFromAddresses decides. */
function candidates(
  services: Services,
  scope: Scope,
  prefix: string,
  filters: AutocompleteFilters,
): Promise<BookAddress[]> {
  const { typed, streetTyped } = typedParts(prefix);
  const all: BodyMatch[] = [{ field: 'address_country', equals: 'UNITED STATES' }];
  if (filters.state) all.push({ field: 'address_state', equals: filters.state.trim().toUpperCase() });
  if (filters.zip_code) all.push({ field: 'address_zip', startsWith: filters.zip_code });
  const any: BodyMatch[] = [{ field: 'address_line1', startsWith: typed }];
  if (streetTyped !== '') any.push({ field: 'address_line1', wordStartsWith: streetTyped });
  return services.store.bodySearch.searchBodies(scope, 'addresses', { all, any, limit: MAX_CANDIDATES });
}

export function autocompletion(suggestions: Suggestion[], letterCase?: LetterCase): Autocompletion {
  return {
    id: newId('us_auto'),
    suggestions: suggestions.slice(0, MAX_SUGGESTIONS).map((s) => ({
      ...s,
      primary_line: applyCase(s.primary_line, letterCase),
      city: applyCase(s.city, letterCase),
      object: 'us_autocompletion' as const,
    })),
    object: 'us_autocompletion',
  };
}

/** The ZIPs whose street data may complete the prefix: the one given, else a city's in its state (a few). */
function filterZips(filters: AutocompleteFilters): string[] {
  const zip = /^\d{5}/.exec(filters.zip_code ?? '')?.[0];
  if (zip) return [zip];
  if (!filters.city || !filters.state) return [];
  return zipsForCityState(filters.city, filters.state.trim().toUpperCase()).slice(0, 100);
}

/** Suggestions from the street data, as the book's are shaped (the ZIP's own city and state). */
async function fromStreets(services: Services, prefix: string, filters: AutocompleteFilters): Promise<Suggestion[]> {
  const { number, streetTyped } = typedParts(prefix);
  const found = await suggestStreets(services.store.streets, filterZips(filters), number, streetTyped, MAX_SUGGESTIONS);
  return found.flatMap((s) => {
    const record = lookupZip(s.zip_code);
    return record
      ? [{ primary_line: s.primary_line, city: record.city, state: record.state, zip_code: s.zip_code }]
      : [];
  });
}

export async function autocompleteLive(
  services: Services,
  scope: Scope,
  prefix: string,
  filters: AutocompleteFilters,
  letterCase?: LetterCase,
): Promise<Autocompletion> {
  const book = suggestFromAddresses(prefix, filters, await candidates(services, scope, prefix, filters));
  const key = (s: Suggestion) => `${s.primary_line}|${s.zip_code}`;
  const seen = new Set(book.map(key));
  const streets = book.length >= MAX_SUGGESTIONS ? [] : await fromStreets(services, prefix, filters);
  return autocompletion([...book, ...streets.filter((s) => !seen.has(key(s)))], letterCase);
}
