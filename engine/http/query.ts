// Query strings arrive in three forms, all sent by one official client or another: brackets
// (`date_created[gt]=…`, `include[]=total_count`), JSON values (`metadata={"k":"v"}`), and repeated
// plain pairs (`include=total_count&include=total_count`). All three become the same object.
import qs from 'qs';
import { ApiError } from '../errors';

export function parseQuery(search: string): Record<string, unknown> {
  const parsed = qs.parse(search.replace(/^\?/, ''), {
    depth: 3,
    arrayLimit: 100,
    parameterLimit: 200,
    allowPrototypes: false,
    duplicates: 'combine',
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
