// Reading the catalog's JSON Schemas the way both packs need them: what kind of input a field is.
import type { JsonSchema, PackOperation, PackResource } from './pack-catalog';
import { pathParameterNames } from '../../engine/catalog/paths';
import { isBlank } from '../../engine/catalog/blank';
import { isPlainObject } from './guards';

export type Primitive = string | number | boolean;

export type FieldKind =
  | { kind: 'string'; schema: JsonSchema; ref?: PackResource }
  | { kind: 'number'; schema: JsonSchema; integer: boolean }
  | { kind: 'boolean'; schema: JsonSchema }
  | { kind: 'options'; schema: JsonSchema; values: Primitive[] }
  | { kind: 'multiOptions'; schema: JsonSchema; values: Primitive[] }
  | { kind: 'list'; schema: JsonSchema; item: FieldKind }
  | { kind: 'objectList'; schema: JsonSchema; item: JsonSchema }
  | { kind: 'object'; schema: JsonSchema }
  | { kind: 'record'; schema: JsonSchema; free: boolean }
  | { kind: 'file'; schema: JsonSchema; text?: JsonSchema }
  | { kind: 'idOrObject'; schema: JsonSchema; id: JsonSchema; ref?: PackResource; object: JsonSchema }
  | { kind: 'json'; schema: JsonSchema };

export interface Field {
  name: string;
  required: boolean;
  nullable: boolean;
  description: string;
  example?: unknown;
  default?: unknown;
  kind: FieldKind;
}

const isNull = (s: JsonSchema) => s.type === 'null';
const isPrimitive = (v: unknown): v is Primitive =>
  typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';
const constOf = (s: JsonSchema): Primitive[] | undefined =>
  s.const !== undefined
    ? [s.const].filter(isPrimitive)
    : Array.isArray(s.enum)
      ? s.enum.filter(isPrimitive)
      : undefined;

/** The branches of a union, without `null`; unions nested in it (a nullable enum) flattened. */
export function branches(schema: JsonSchema): { items: JsonSchema[]; nullable: boolean } {
  const list = schema.anyOf ?? schema.oneOf;
  if (!list) {
    if (Array.isArray(schema.type) && schema.type.includes('null')) {
      return { items: [{ ...schema, type: schema.type.filter((t) => t !== 'null')[0] }], nullable: true };
    }
    return { items: [schema], nullable: false };
  }
  const items: JsonSchema[] = [];
  let nullable = false;
  for (const s of list) {
    if (isNull(s)) nullable = true;
    else if (s.anyOf ?? s.oneOf) {
      const inner = branches(s);
      items.push(...inner.items);
      nullable ||= inner.nullable;
    } else items.push(s);
  }
  return { items, nullable };
}

/** A file upload (multipart part): JSON Schema's binary string. */
const isBinary = (s: JsonSchema) => s.type === 'string' && s.format === 'binary';

/** The values a branch of an enum-like union stands for: its const(s), or true and false for a boolean. */
const choicesOf = (s: JsonSchema): Primitive[] | undefined =>
  constOf(s) ?? (s.type === 'boolean' ? [true, false] : undefined);

const hasProperties = (s: JsonSchema) => !!s.properties && Object.keys(s.properties).length > 0;

export const isRecord = (s: JsonSchema) =>
  s.type === 'object' &&
  !hasProperties(s) &&
  (!!s.patternProperties || (typeof s.additionalProperties === 'object' && s.additionalProperties !== null));

/** A record whose values may be anything (merge variables), not only strings, numbers or booleans. */
function freeRecord(s: JsonSchema): boolean {
  const values = s.patternProperties
    ? Object.values(s.patternProperties)[0]
    : typeof s.additionalProperties === 'object'
      ? s.additionalProperties
      : undefined;
  return !['string', 'number', 'integer', 'boolean'].includes(String(values?.type));
}

/** The resource whose ids a string field holds, from its pattern (`^adr_...`). */
function referencedResource(s: JsonSchema, resources: readonly PackResource[]): PackResource | undefined {
  if (typeof s.pattern !== 'string') return undefined;
  const m = /^\^([a-z]+)_/.exec(s.pattern);
  return m ? resources.find((r) => r.idPrefix === m[1]) : undefined;
}

function fieldKind(schema: JsonSchema, resources: readonly PackResource[]): FieldKind {
  const { items } = branches(schema);
  if (items.length > 1) {
    const consts = items.map(choicesOf);
    if (consts.every((c) => c !== undefined))
      return { kind: 'options', schema, values: consts.flatMap((c) => c ?? []) };
    const file = items.find(isBinary);
    const text = items.find((s) => s.type === 'string' && !isBinary(s) && s.const === undefined);
    if (file && items.length === 2 && text) return { kind: 'file', schema, text };
    const str = items.find((s) => s.type === 'string' && s.const === undefined);
    const obj = items.find((s) => s.type === 'object' && hasProperties(s));
    if (items.length === 2 && str && obj)
      return { kind: 'idOrObject', schema, id: str, ref: referencedResource(str, resources), object: obj };
    return { kind: 'json', schema };
  }
  const s = items[0] ?? {};
  const values = constOf(s);
  if (values) return { kind: 'options', schema: s, values };
  switch (s.type) {
    case 'string':
      if (isBinary(s)) return { kind: 'file', schema: s };
      return { kind: 'string', schema: s, ref: referencedResource(s, resources) };
    case 'integer':
    case 'number':
      return { kind: 'number', schema: s, integer: s.type === 'integer' };
    case 'boolean':
      return { kind: 'boolean', schema: s };
    case 'array': {
      const item = s.items ?? {};
      const inner = fieldKind(item, resources);
      if (inner.kind === 'options') return { kind: 'multiOptions', schema: s, values: inner.values };
      if (inner.kind === 'string' || inner.kind === 'number' || inner.kind === 'boolean')
        return { kind: 'list', schema: s, item: inner };
      if (inner.kind === 'object') return { kind: 'objectList', schema: s, item: inner.schema };
      return { kind: 'json', schema: s };
    }
    case 'object':
      if (isRecord(s)) return { kind: 'record', schema: s, free: freeRecord(s) };
      if (hasProperties(s)) return { kind: 'object', schema: s };
      return { kind: 'json', schema: s };
    default:
      return { kind: 'json', schema: s };
  }
}

/** The fields of an object schema, in declaration order. */
export function fieldsOf(schema: JsonSchema | undefined, resources: readonly PackResource[]): Field[] {
  if (!schema?.properties) return [];
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties).map(([name, s]) => {
    const { items, nullable } = branches(s);
    const inner = items.length === 1 ? items[0] : s;
    return {
      name,
      required: required.has(name),
      nullable,
      description: s.description ?? inner.description ?? '',
      example: s.examples?.[0] ?? inner.examples?.[0],
      default: s.default ?? inner.default,
      kind: fieldKind(s, resources),
    };
  });
}

/** The path parameters of an operation (`{id}`). */
export const pathParams = (op: PackOperation) => pathParameterNames(op.path);

/** The operation that lists a resource's objects (GET on the collection), if it has one: what pickers and dropdowns read. */
export const listOperation = (r: PackResource) =>
  r.operations.find((o) => o.response === 'list' && o.method === 'GET' && pathParams(o).length === 0);

/** Create-like: a POST that makes or does something (create, verify, custom verbs). */
export const isCreateLike = (op: PackOperation) => op.method === 'POST';

// ---- turning what a form produced back into what the schema says ----------------------------

/**
 * Key/value pairs (n8n fixedCollection, Zapier dict) or JSON into a plain object. A free record
 * (any values) comes as JSON or an object, never as pairs: its own `pairs` key is left alone.
 */
function toRecord(value: unknown, free = false): Record<string, unknown> | undefined {
  if (isBlank(value)) return undefined;
  if (typeof value === 'string') {
    try {
      return toRecord(JSON.parse(value), free);
    } catch {
      return undefined;
    }
  }
  if (free) return isPlainObject(value) ? value : undefined;
  const pairs: unknown = Array.isArray(value) ? value : isPlainObject(value) ? value.pairs : undefined;
  if (Array.isArray(pairs)) {
    const out: Record<string, unknown> = {};
    for (const p of pairs) if (isPlainObject(p) && !isBlank(p.key)) out[String(p.key)] = p.value ?? '';
    return out;
  }
  if (!isPlainObject(value)) return undefined;
  if ('pairs' in value) return {};
  return value;
}

/** Coerce a value from a form into the type its schema asks for. Unknown shapes pass through. */
export function coerce(value: unknown, schema: JsonSchema, resources: readonly PackResource[]): unknown {
  if (value === undefined) return undefined;
  const kind = fieldKind(schema, resources);
  switch (kind.kind) {
    case 'record': {
      // text that is not JSON goes as it is: the engine says what it expected, rather than the field vanishing
      const parsed = typeof value === 'string' && !isBlank(value) ? parseJson(value) : value;
      return typeof parsed === 'string' ? parsed : toRecord(parsed, kind.free);
    }
    case 'options': {
      // a form gives `true` or `3` as text; the schema's own value is sent
      const own = kind.values.find((v) => typeof v !== 'string' && String(v) === value);
      return own ?? value;
    }
    case 'number':
      if (typeof value === 'string' && value.trim() !== '' && !Number.isNaN(Number(value))) return Number(value);
      return value;
    case 'boolean':
      if (value === 'true' || value === 'yes') return true;
      if (value === 'false' || value === 'no') return false;
      return value;
    case 'object': {
      const obj = typeof value === 'object' && value !== null ? value : parseJson(value);
      return isPlainObject(obj) ? withConsts(coerceObject(obj, kind.schema, resources), kind.schema) : obj;
    }
    case 'idOrObject':
      if (isPlainObject(value)) return coerceObject(value, kind.object, resources);
      return value;
    case 'objectList': {
      const list = Array.isArray(value) ? value : isPlainObject(value) ? (value.items ?? []) : parseJson(value);
      return Array.isArray(list)
        ? list.map((v: unknown) => (isPlainObject(v) ? coerceObject(v, kind.item, resources) : v))
        : list;
    }
    case 'list':
    case 'multiOptions': {
      const list = Array.isArray(value)
        ? value
        : typeof value === 'string'
          ? value.trim().startsWith('[')
            ? parseJson(value)
            : value
                .split(',')
                .map((s) => s.trim())
                .filter(Boolean)
          : [value];
      return Array.isArray(list) && kind.kind === 'list'
        ? list.map((v) => coerce(v, kind.schema.items ?? {}, resources))
        : list;
    }
    case 'json':
      return parseJson(value);
    default:
      return value;
  }
}

/**
 * A given object's required properties that can hold one value only (`position: 'relative'`) are
 * filled in: forms show them as a choice of one, easy to leave out.
 */
function withConsts(obj: Record<string, unknown>, schema: JsonSchema): Record<string, unknown> {
  if (Object.keys(obj).length === 0) return obj;
  for (const name of schema.required ?? []) {
    const only = constOf(schema.properties?.[name] ?? {});
    if (obj[name] === undefined && only?.length === 1) obj[name] = only[0];
  }
  return obj;
}

function parseJson(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

/** Coerce every known property of an object; drop blanks the schema does not require. */
export function coerceObject(
  obj: Record<string, unknown>,
  schema: JsonSchema,
  resources: readonly PackResource[],
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const props = schema.properties ?? {};
  const required = new Set(schema.required ?? []);
  for (const [key, value] of Object.entries(obj)) {
    const s = props[key];
    if (!s) {
      out[key] = value;
      continue;
    }
    if (value === '' && !required.has(key)) continue;
    const v = coerce(value, s, resources);
    if (v !== undefined) out[key] = v;
  }
  return out;
}

// ---- names ------------------------------------------------------------------------------------

const WORDS: Record<string, string> = {
  id: 'ID',
  us: 'US',
  zip: 'ZIP',
  url: 'URL',
  intl: 'International',
  html: 'HTML',
  pdf: 'PDF',
  ach: 'ACH',
  qr: 'QR',
  usps: 'USPS',
  fsc: 'FSC',
};

/** `address_line1` -> `Address Line 1`, `us_zip_lookups` -> `US ZIP Lookups`; sizes stay whole (`4x6`). */
export function title(name: string): string {
  return name
    .replace(/([a-z]{2,})(\d)/g, '$1 $2')
    .split(/[_\s]+/)
    .filter(Boolean)
    .map((w) => WORDS[w.toLowerCase()] ?? w.charAt(0).toUpperCase() + w.slice(1))
    .join(' ');
}

/** How one value of an enum is shown in a list of choices. */
export const optionLabel = (v: Primitive) => (typeof v === 'string' ? title(v) : String(v));

/** A readable label for an object in a picker or dropdown, from whichever naming fields it has. */
export function objectLabel(o: Record<string, unknown>): string {
  const parts = ['description', 'name', 'company', 'recipient', 'address_line1', 'primary_line', 'bank_name']
    .map((k) => o[k])
    .filter((v): v is string => typeof v === 'string' && v !== '');
  const label = [...new Set(parts)].slice(0, 2).join(' - ');
  return label ? `${label} (${String(o.id)})` : String(o.id);
}

/** Which operation name means what, for display. */
export function operationLabel(op: PackOperation): string {
  switch (op.name) {
    case 'retrieve':
      return 'Get';
    case 'list':
      return 'Get Many';
    default:
      return title(op.name);
  }
}
