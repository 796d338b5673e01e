// Conversion of OpenAPI 3.0.x schema objects into JSON Schema (draft-07) that ajv understands.
// Schema-aware on purpose: `properties.example` is a property *name*, not the `example` keyword.

export type JsonValue = null | boolean | number | string | JsonValue[] | JsonObject;
export interface JsonObject {
  [key: string]: JsonValue;
}

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Keywords that carry one sub-schema. */
const SCHEMA_ONE = new Set([
  'items',
  'additionalProperties',
  'not',
  'additionalItems',
  'contains',
  'propertyNames',
  'if',
  'then',
  'else',
]);
/** Keywords that carry an array of sub-schemas. */
const SCHEMA_LIST = new Set(['allOf', 'anyOf', 'oneOf']);
/** Keywords that carry a name -> sub-schema map. */
const SCHEMA_MAP = new Set(['properties', 'patternProperties', 'definitions']);
/**
 * OpenAPI-only annotations that ajv must not see. `discriminator` is dropped: the oneOf/anyOf
 * it decorates still validates the body, it only loses the "pick a branch by property" shortcut.
 */
const DROPPED = new Set(['example', 'examples', 'discriminator', 'xml', 'externalDocs', 'nullable', 'deprecated']);

/** Produces the replacement for a `{ $ref }` node: e.g. a rewritten `$ref`, or the inlined target. */
export type RefHandler = (ref: string) => JsonValue;

/** Keeps `$ref`s, rewritten by `rewrite` (identity by default). */
export function keepRefs(rewrite: (ref: string) => string = (r) => r): RefHandler {
  return (ref) => ({ $ref: rewrite(ref) });
}

/** Converts one OpenAPI 3.0 schema object (recursively); every `$ref` node goes through `onRef`. */
export function convertSchema(schema: JsonValue, onRef: RefHandler): JsonValue {
  if (!isObject(schema)) return schema;
  const nullable = schema.nullable === true || nullableBranch(schema);
  if (typeof schema.$ref === 'string') {
    // OpenAPI 3.0: siblings of $ref are ignored -- except that `nullable` next to a $ref is a
    // common (if technically invalid) way to say "this reference or null"; honour it.
    const ref = onRef(schema.$ref);
    return nullable ? { anyOf: [{ type: 'null' }, ref] } : ref;
  }
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(schema)) {
    if (DROPPED.has(key) || key.startsWith('x-')) continue;
    if (SCHEMA_LIST.has(key) && Array.isArray(value)) {
      out[key] = value.map((sub) => convertSchema(sub, onRef));
    } else if (SCHEMA_MAP.has(key) && isObject(value)) {
      const mapped: JsonObject = {};
      for (const [name, sub] of Object.entries(value)) mapped[name] = convertSchema(sub, onRef);
      out[key] = mapped;
    } else if (key === 'items' && Array.isArray(value)) {
      out[key] = value.map((sub) => convertSchema(sub, onRef));
    } else if (SCHEMA_ONE.has(key) && isObject(value)) {
      out[key] = convertSchema(value, onRef);
    } else {
      out[key] = value;
    }
  }
  convertExclusiveBounds(out);
  return nullable ? makeNullable(out) : out;
}

/**
 * The vendor writes "this reference or null" as `allOf: [{$ref}, {nullable: true}]` (or a branch
 * `{type: string, nullable: true}`), and its SDK generator reads it so (`X | null`). Read strictly, the
 * $ref branch would still refuse null; a nullable branch makes the whole allOf nullable.
 */
function nullableBranch(schema: JsonObject): boolean {
  return Array.isArray(schema.allOf) && schema.allOf.some((branch) => isObject(branch) && branch.nullable === true);
}

/** Draft-4 style boolean exclusiveMinimum/exclusiveMaximum (allowed by OpenAPI 3.0) -> numeric. */
function convertExclusiveBounds(schema: JsonObject): void {
  for (const [flag, bound] of [
    ['exclusiveMinimum', 'minimum'],
    ['exclusiveMaximum', 'maximum'],
  ] as const) {
    if (typeof schema[flag] !== 'boolean') continue;
    const limit = schema[bound];
    if (schema[flag] === true && typeof limit === 'number') {
      schema[flag] = limit;
      delete schema[bound];
    } else {
      delete schema[flag];
    }
  }
}

function makeNullable(schema: JsonObject): JsonValue {
  const composite = ['allOf', 'anyOf', 'oneOf', 'not'].some((k) => k in schema);
  if (composite || schema.type === undefined) {
    // Sub-schemas would still reject null, so allow null beside the whole schema.
    return { anyOf: [{ type: 'null' }, schema] };
  }
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  if (!types.includes('null')) schema.type = [...types, 'null'];
  if (Array.isArray(schema.enum) && !schema.enum.includes(null)) schema.enum = [...schema.enum, null];
  return schema;
}

/**
 * Converts `schema`, inlining every local `$ref` so that ajv's error `schemaPath`s are complete.
 * Each inlined node carries `$comment: "<schema name>"`; cycles fall back to `$ref: <cyclePrefix><ref>`.
 */
export function convertInlined(
  doc: JsonValue,
  schema: JsonValue,
  cyclePrefix: string,
  stack: string[] = [],
): JsonValue {
  return convertSchema(schema, (ref): JsonValue => {
    const target = resolvePointer(doc, ref);
    if (stack.includes(ref) || target === undefined) return { $ref: `${cyclePrefix}${ref}` };
    const inlined = convertInlined(doc, target, cyclePrefix, [...stack, ref]);
    const name = ref.slice(ref.lastIndexOf('/') + 1);
    if (!isObject(inlined)) return { $comment: name, allOf: [inlined] };
    const inner = typeof inlined.$comment === 'string' ? ` > ${inlined.$comment}` : '';
    return { ...inlined, $comment: `${name}${inner}` };
  });
}

/** All `$ref` strings found anywhere inside `value` (used to compute a schema's closure). */
export function collectRefs(value: JsonValue, into: Set<string> = new Set()): Set<string> {
  if (Array.isArray(value)) {
    for (const item of value) collectRefs(item, into);
  } else if (isObject(value)) {
    for (const [key, sub] of Object.entries(value)) {
      if (key === '$ref' && typeof sub === 'string') into.add(sub);
      else collectRefs(sub, into);
    }
  }
  return into;
}

/** Resolves a local JSON pointer such as `#/components/schemas/address`. */
export function resolvePointer(doc: JsonValue, ref: string): JsonValue | undefined {
  if (!ref.startsWith('#')) return undefined;
  let node: JsonValue | undefined = doc;
  for (const raw of ref.slice(1).split('/').slice(1)) {
    const part = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(node)) node = node[Number(part)];
    else if (isObject(node)) node = node[part];
    else return undefined;
  }
  return node;
}

/** Follows `$ref` chains on non-schema OpenAPI objects (responses, media types, request bodies). */
export function deref(doc: JsonValue, value: JsonValue | undefined): JsonValue | undefined {
  let node = value;
  for (let hops = 0; hops < 32 && isObject(node) && typeof node.$ref === 'string'; hops++) {
    node = resolvePointer(doc, node.$ref);
  }
  return node;
}
