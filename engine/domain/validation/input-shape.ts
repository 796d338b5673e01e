// Bounds on the shape of any parsed input (body or query) before anything else walks it: nesting depth,
// number of values, prototype keys and NUL characters. One iterative pass, so no input can overflow
// the stack here, and the recursive code after it (coercion, validation, JSON) only sees bounded trees.
import { ApiError } from '../../base/errors';
import { textFault } from './text';

/** Deeper than any field of the API needs (an inline address inside a mailpiece is three levels). */
export const MAX_DEPTH = 20;
/** Keys and array items together; a bulk verification of 20 addresses uses a few hundred. */
export const MAX_VALUES = 10_000;

const label = (path: string, what: string) => path || what;

/**
 * Throws the spec's error for input no request needs: a tree deeper than MAX_DEPTH (422), more than
 * MAX_VALUES values (413), a `__proto__` key (422: it would turn into a prototype when merged), or a
 * NUL character in a key or string (422: PostgreSQL text cannot hold one, and no field needs it), or an
 * unpaired surrogate (422: bytes that were not UTF-8, or a `\ud800` escape; ./text.ts).
 */
export function assertSaneInput(input: unknown, what: 'body' | 'query'): void {
  const stack: { value: unknown; path: string; depth: number }[] = [{ value: input, path: '', depth: 0 }];
  let values = 0;
  while (stack.length > 0) {
    const { value, path, depth } = stack.pop()!;
    if (typeof value === 'string') {
      if (value.includes('\u0000'))
        throw new ApiError('invalid', `${label(path, what)} must not contain NUL characters`, 422);
      // here too, for what no schema reads (the idempotency_key query); bidi needs the schema (validate.ts)
      const fault = textFault(value, true);
      if (fault) throw new ApiError('invalid', `${label(path, what)} ${fault}`, 422);
      continue;
    }
    if (typeof value !== 'object' || value === null) continue;
    if (depth >= MAX_DEPTH)
      throw new ApiError('invalid', `${what} is nested too deeply: at most ${MAX_DEPTH} levels`, 422);
    const entries: [string, unknown][] = Array.isArray(value)
      ? value.map((item, i) => [String(i), item])
      : Object.entries(value);
    values += entries.length;
    if (values > MAX_VALUES) throw new ApiError('invalid', `${what} must hold at most ${MAX_VALUES} values`, 413);
    for (const [key, item] of entries) {
      if (key === '__proto__') throw new ApiError('invalid', `${label(path, what)} must not have a __proto__ key`, 422);
      if (key.includes('\u0000'))
        throw new ApiError('invalid', `${label(path, what)} keys must not contain NUL characters`, 422);
      const keyFault = textFault(key, true);
      if (keyFault) throw new ApiError('invalid', `${label(path, what)} has a key that ${keyFault}`, 422);
      const child = Array.isArray(value) ? `${path}[${key}]` : path ? `${path}.${key}` : key;
      stack.push({ value: item, path: child, depth: depth + 1 });
    }
  }
}
