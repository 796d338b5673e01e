// Bracket-nested form pairs (`to[name]=…`, `a[0]=1`) into objects: bodies, multipart fields.
import qs from 'qs';
import { ApiError } from '../base/errors';
import { MAX_DEPTH, MAX_VALUES } from '../domain/validation/input-shape';
import { decodeFormComponent } from './utf8';

/** Bracket forms: qs refuses (rather than silently truncating) past these, and never builds prototypes. */
const QS_OPTIONS = {
  depth: MAX_DEPTH,
  strictDepth: true,
  arrayLimit: 100,
  parameterLimit: MAX_VALUES,
  throwOnLimitExceeded: true,
  allowPrototypes: false,
  // qs's decoder keeps an undecodable `%FF` as text; ours keeps it visible to validation (./utf8.ts)
  decoder: (text: string) => decodeFormComponent(text),
} as const;

/**
 * `raw` is the form's bytes as latin1 (one character a byte), or ASCII. Past qs's limits it throws a
 * RangeError: too deep is a 422, too many values a 413.
 */
export function parseForm(raw: string): Record<string, unknown> {
  try {
    return qs.parse(raw, QS_OPTIONS) as Record<string, unknown>;
  } catch (error) {
    if (error instanceof RangeError && /depth/i.test(error.message)) {
      throw new ApiError('invalid', `form body is nested too deeply: at most ${MAX_DEPTH} levels`, 422);
    }
    if (error instanceof RangeError)
      throw new ApiError('invalid', `form body must hold at most ${MAX_VALUES} values`, 413);
    throw new ApiError('invalid', 'request body is not a valid form', 422);
  }
}
