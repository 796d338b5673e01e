// Form bodies and query strings carry only strings: turn them into the schema's types before
// validation, so `color=true` and `"color": true` are one request. Only exact spellings convert
// ("2.5" never becomes an integer); anything else is left for validation to refuse.
import { Kind, KindGuard, Type, type TSchema } from '@sinclair/typebox';
import { assertSaneInput } from './input-shape';

const INTEGER = /^-?\d+$/;
const NUMBER = /^-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;

export function coerceTo(schema: TSchema, value: unknown): unknown {
  switch (schema[Kind]) {
    case 'Integer':
      return typeof value === 'string' && INTEGER.test(value.trim()) ? Number(value) : value;
    case 'Number':
      return typeof value === 'string' && NUMBER.test(value.trim()) ? Number(value) : value;
    case 'Boolean':
      return value === 'true' ? true : value === 'false' ? false : value;
    case 'String':
      return typeof value === 'number' || typeof value === 'boolean' ? String(value) : value;
    case 'Null':
      return value === '' || value === 'null' ? null : value;
    case 'Literal':
      return typeof schema.const === 'boolean' || typeof schema.const === 'number'
        ? coerceTo(typeof schema.const === 'boolean' ? Type.Boolean() : Type.Number(), value)
        : value;
    case 'Array':
      return Array.isArray(value) && KindGuard.IsArray(schema)
        ? value.map((item) => coerceTo(schema.items, item))
        : value;
    case 'Object':
      return coerceObject(schema, value);
    case 'Record':
      return coerceRecord(schema, value);
    case 'Union':
      return KindGuard.IsUnion(schema) ? coerceUnion(schema.anyOf, value) : value;
    default:
      return value;
  }
}

function coerceObject(schema: TSchema, value: unknown): unknown {
  if (!isRecord(value) || !KindGuard.IsObject(schema)) return value;
  const out: Record<string, unknown> = { ...value };
  for (const [key, prop] of Object.entries(schema.properties)) if (key in out) out[key] = coerceTo(prop, out[key]);
  return out;
}

function coerceRecord(schema: TSchema, value: unknown): unknown {
  if (typeof value === 'string') return jsonObject(value) ?? value;
  if (!isRecord(value) || !KindGuard.IsRecord(schema)) return value;
  const [inner] = Object.values(schema.patternProperties);
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, coerceTo(inner, v)]));
}

/** The first member that accepts the converted value wins; a string stays a string if one allows it. */
function coerceUnion(members: TSchema[], value: unknown): unknown {
  if (
    typeof value === 'string' &&
    members.some((m) => m[Kind] === 'String' || (m[Kind] === 'Literal' && m.const === value))
  )
    return value;
  for (const member of members) {
    const converted = coerceTo(member, value);
    if (converted !== value) return converted;
  }
  return value;
}

/**
 * A free-form object sent in a form as JSON text (the `lob` client sends `merge_variables` so), held to
 * the same shape limits as any parsed body.
 */
function jsonObject(text: string): Record<string, unknown> | undefined {
  if (!text.trimStart().startsWith('{')) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isRecord(parsed)) return undefined;
  assertSaneInput(parsed, 'body');
  return parsed;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
