// The key a street is stored and looked up by: the engine's Pub 28 parts (predirectional, name,
// suffix, postdirectional) joined by '|', so "North Main Street", "N MAIN ST" and "n. main st." are
// one street, in the data and in an address to verify alike.
import { parseUsAddress } from '../verify/usps';

export interface StreetParts {
  street_predirection: string;
  street_name: string;
  street_suffix: string;
  street_postdirection: string;
}

export function streetKey(p: StreetParts): string {
  return `${p.street_predirection}|${p.street_name}|${p.street_suffix}|${p.street_postdirection}`;
}

export function partsOfKey(key: string): StreetParts {
  const [pre = '', name = '', suffix = '', post = ''] = key.split('|');
  return { street_predirection: pre, street_name: name, street_suffix: suffix, street_postdirection: post };
}

/** Names repeat along a street's segments: each full name is parsed once per import. */
const KEPT = 50_000;

/** The key of a street name as the data writes it ("N Main St"); undefined when it has no name. */
export function streetKeyMaker(): (fullName: string) => string | undefined {
  const known = new Map<string, string | undefined>();
  return (fullName) => {
    const cached = known.get(fullName);
    if (cached !== undefined || known.has(fullName)) return cached;
    // A house number first, so the parser reads the words as a street line.
    const parsed = parseUsAddress({ primaryLine: `1 ${fullName}` });
    const key = parsed.kind === 'street' && parsed.street_name !== '' ? streetKey(parsed) : undefined;
    if (known.size >= KEPT) known.clear();
    known.set(fullName, key);
    return key;
  };
}

/** A unit as the points compare it: the number or letter alone, upper case ("Apt #4b" -> "4B"). */
export function unitKey(unit: string): string {
  const words = unit
    .toUpperCase()
    .replace(/[^A-Z0-9-]+/g, ' ')
    .trim()
    .split(' ')
    .filter(Boolean);
  return words.length === 0 ? '' : words[words.length - 1];
}
