// Walks a value alongside its schema at every depth: unknown keys refused in every closed object,
// defaults filled and attached rules run wherever an object appears, each naming its full path.
// Input reaching here is bounded in depth and size (input-shape.ts), so recursion is safe.
import { Kind, KindGuard, type TObject, type TSchema } from '@sinclair/typebox';
import { ApiError } from '../../base/errors';
import { fieldPath, rulesOf } from '../../catalog/rules';
import { isPlainObject } from './values';

export type Checker = (schema: TSchema, value: unknown) => boolean;

const join = (path: string, key: string) => (path ? `${path}.${key}` : key);

const isOpen = (schema: TObject) => schema.additionalProperties !== undefined && schema.additionalProperties !== false;

/** The schema that describes `value` here: for a union, the object member it is meant for. */
function objectSchemaFor(schema: TSchema, value: unknown, check?: Checker): TObject | undefined {
  if (!isPlainObject(value)) return undefined;
  if (KindGuard.IsObject(schema)) return schema;
  if (!KindGuard.IsUnion(schema)) return undefined;
  const members = schema.anyOf.filter((m) => KindGuard.IsObject(m));
  if (check) return members.find((m) => check(m, value));
  return members.length === 1 ? members[0] : undefined;
}

function children(schema: TSchema, value: unknown, check?: Checker): [TSchema, unknown, string][] {
  const object = objectSchemaFor(schema, value, check);
  if (object && isPlainObject(value)) {
    return Object.entries(object.properties)
      .filter(([key]) => value[key] !== undefined)
      .map(([key, prop]) => [prop, value[key], key]);
  }
  if (KindGuard.IsArray(schema) && Array.isArray(value)) return value.map((item, i) => [schema.items, item, `[${i}]`]);
  if (KindGuard.IsUnion(schema) && Array.isArray(value)) {
    const array = schema.anyOf.find((m) => m[Kind] === 'Array');
    return array ? children(array, value, check) : [];
  }
  return [];
}

const childPath = (path: string, key: string) => (key.startsWith('[') ? `${path}${key}` : join(path, key));

/** Refuses keys no schema declares, at any depth, before type checking (for the plain message). */
export function rejectUnknownKeys(schema: TSchema, value: unknown, path = ''): void {
  const object = objectSchemaFor(schema, value);
  if (object && !isOpen(object) && isPlainObject(value)) {
    for (const key of Object.keys(value)) {
      if (!Object.hasOwn(object.properties, key))
        throw new ApiError('invalid', `${join(path, key)} is not allowed`, 422);
    }
  }
  for (const [child, item, key] of children(schema, value)) rejectUnknownKeys(child, item, childPath(path, key));
}

const defaultsOf = new WeakMap<TObject, [string, unknown][]>();

function fillDefaults(schema: TObject, value: Record<string, unknown>): void {
  let defaults = defaultsOf.get(schema);
  if (!defaults) {
    defaults = Object.entries(schema.properties)
      .filter(([, p]) => p.default !== undefined)
      .map(([k, p]) => [k, p.default]);
    defaultsOf.set(schema, defaults);
  }
  // Defaults are scalars or small literals in the catalog: a copy keeps requests from sharing one.
  for (const [key, fallback] of defaults)
    if (value[key] === undefined) value[key] = typeof fallback === 'object' ? structuredClone(fallback) : fallback;
}

/** After the type check: fills defaults and runs attached rules in every object, inner objects first. */
export function complete(schema: TSchema, value: unknown, check: Checker, path = ''): void {
  for (const [child, item, key] of children(schema, value, check)) complete(child, item, check, childPath(path, key));
  const object = objectSchemaFor(schema, value, check);
  if (!object || !isPlainObject(value)) return;
  const record = value;
  fillDefaults(object, record);
  const at = fieldPath(path);
  for (const rule of rulesOf(object)) {
    const violation = rule(record, at);
    if (violation) throw new ApiError(violation.code ?? 'invalid', violation.message, violation.status ?? 422);
  }
}
