// Autocomplete from the loaded street data: the streets of the ZIPs the filters name (a ZIP, or a
// city and state) whose name starts as typed, each with the typed house number when the data holds
// that number on it (a side's range with its parity, or a point).
import type { StreetLookups } from '../../store/streets';
import { partsOfKey } from './street-key';
import { verdictOn } from './match';

export interface StreetSuggestion {
  primary_line: string;
  zip_code: string;
}

const READ = 50;

export async function suggestStreets(
  lookups: StreetLookups,
  zips: readonly string[],
  number: string,
  streetTyped: string,
  limit: number,
): Promise<StreetSuggestion[]> {
  if (zips.length === 0 || streetTyped === '') return [];
  const names = await lookups.namesStartingWith(zips, streetTyped, READ);
  const out: StreetSuggestion[] = [];
  for (const n of names) {
    if (out.length >= limit) break;
    const p = partsOfKey(n.street_key);
    const street = [p.street_predirection, p.street_name, p.street_suffix, p.street_postdirection]
      .filter(Boolean)
      .join(' ');
    if (number !== '') {
      const { segments, points } = await lookups.streetOf(n.zip, n.street_key);
      const q = { parts: p, primaryNumber: number, unit: '' };
      if (verdictOn(q, n.street_key, 'street_ranges', segments, points).answer !== 'found') continue;
    }
    out.push({ primary_line: number ? `${number} ${street}` : street, zip_code: n.zip });
  }
  return out;
}
