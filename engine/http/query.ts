// Query strings arrive in three forms, all sent by one official client or another: brackets
// (`date_created[gt]=…`, `include[]=total_count`), JSON values (`metadata={"k":"v"}`), and repeated
// plain pairs (`include=total_count&include=total_count`). All three become the same object.
import qs from 'qs';
import { ApiError } from '../base/errors';
import { decodeFormComponent } from './utf8';

/** Plain `key=value` pairs that need no decoding: what most requests send (`limit=10`). */
const PLAIN = /^\w+=[\w.:-]*(?:&\w+=[\w.:-]*)*$/;

/** The plain form read directly (qs cost ~18 µs of a list page); anything else goes through qs. */
function plainPairs(search: string): Record<string, unknown> | undefined {
  const pairs = search.split('&');
  if (pairs.length > 200) return undefined; // qs's parameter limit
  const parsed: Record<string, unknown> = {};
  for (const pair of pairs) {
    const at = pair.indexOf('=');
    const key = pair.slice(0, at);
    // repeated keys combine into arrays and prototype names are skipped: qs's rules, left to qs
    if (Object.hasOwn(parsed, key) || key in Object.prototype) return undefined;
    parsed[key] = pair.slice(at + 1);
  }
  return parsed;
}

export function parseQuery(search: string): Record<string, unknown> {
  const raw = search.startsWith('?') ? search.slice(1) : search;
  if (raw === '') return {};
  const plain = raw.length <= 2_000 && PLAIN.test(raw) ? plainPairs(raw) : undefined;
  if (plain) return plain;
  const parsed = qs.parse(raw, {
    depth: 3,
    arrayLimit: 100,
    parameterLimit: 200,
    allowPrototypes: false,
    duplicates: 'combine',
    // an undecodable `%FF` reaches validation, which names its field (./utf8.ts)
    decoder: (text: string) => decodeFormComponent(text),
  }) as Record<string, unknown>;
  for (const [key, value] of Object.entries(parsed)) {
    if (typeof value === 'string' && /^\s*[[{]/.test(value)) {
      try {
        parsed[key] = JSON.parse(value);
      } catch {
        throw new ApiError('invalid', `${key} must be valid JSON or use the bracket form`, 422);
      }
    }
  }
  return parsed;
}
