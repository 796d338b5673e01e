// Fields with no value are answered as the response schema declares them: null where the schema admits
// null (the vendor marks those nullable), left out where it does not (the vendor types them as a plain
// string, and schema-checking clients refuse a null there). Read from the catalog's response schemas,
// so a field changes by changing its declaration; stored objects keep their nulls.
import type { TSchema } from '@sinclair/typebox';
import type { Resource } from '../catalog/types';
import { isPlainObject } from '../domain/validation/values';

type Schema = TSchema & {
  type?: string | string[];
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  properties?: Record<string, Schema>;
  items?: Schema;
};

const branches = (schema: Schema): Schema[] => [...(schema.anyOf ?? []), ...(schema.oneOf ?? [])];

/** Whether `schema` accepts null: a null type, a union with a branch that does, or no constraint. */
function admitsNull(schema: Schema): boolean {
  if (schema.type !== undefined)
    return schema.type === 'null' || (Array.isArray(schema.type) && schema.type.includes('null'));
  if (schema.anyOf || schema.oneOf) return branches(schema).some(admitsNull);
  if (schema.allOf) return schema.allOf.every(admitsNull);
  return schema.const === undefined && schema.enum === undefined;
}

/** The object schema (with properties) `schema` is, or the one of its union branches that is. */
function objectSchemaOf(schema: Schema): Schema | undefined {
  if (schema.properties) return schema;
  return branches(schema).find((branch) => branch.properties !== undefined);
}

/** `value` without the nulls its schema refuses; the same value (not a copy) when it has none. */
function shape(value: unknown, schema: Schema): unknown {
  if (Array.isArray(value)) {
    const items = schema.type === 'array' ? schema.items : branches(schema).find((b) => b.type === 'array')?.items;
    if (!items) return value;
    let out: unknown[] | undefined;
    value.forEach((item, i) => {
      const shaped = shape(item, items);
      if (shaped !== item) (out ??= value.slice())[i] = shaped;
    });
    return out ?? value;
  }
  const object = isPlainObject(value) ? objectSchemaOf(schema) : undefined;
  if (!object?.properties || !isPlainObject(value)) return value;
  let out: Record<string, unknown> | undefined;
  for (const key in value) {
    // own properties only: a key named like a prototype member (`__proto__`, `constructor`) is not declared
    if (!Object.hasOwn(object.properties, key)) continue;
    const declared = object.properties[key];
    const field = value[key];
    if (field === null) {
      if (!admitsNull(declared)) {
        out ??= { ...value };
        delete out[key];
      }
    } else if (typeof field === 'object') {
      const shaped = shape(field, declared);
      if (shaped !== field) (out ??= { ...value })[key] = shaped;
    }
  }
  return out ?? value;
}

/** Names of the fields, at any depth of `schema`, that refuse null. */
function refusingNull(schema: Schema, names: Set<string>, seen: Set<Schema>): Set<string> {
  if (seen.has(schema)) return names;
  seen.add(schema);
  for (const [key, declared] of Object.entries(schema.properties ?? {})) {
    if (!admitsNull(declared)) names.add(key);
    refusingNull(declared, names, seen);
  }
  for (const branch of [...branches(schema), ...(schema.allOf ?? [])]) refusingNull(branch, names, seen);
  if (schema.items) refusingNull(schema.items, names, seen);
  return names;
}

const nullPatterns = new WeakMap<Resource, RegExp>();

/**
 * Whether an object's JSON text (as JSON.stringify writes it) may hold a null that withoutUnsetFields
 * would take out: a `"name":null` of any field refusing null, wherever it sits (so some texts are
 * shaped that need not be, never the other way round).
 */
export function mayHoldUnsetFields(resource: Resource, text: string): boolean {
  let pattern = nullPatterns.get(resource);
  if (!pattern) {
    const names = [...refusingNull(resource.schema as Schema, new Set(), new Set())];
    const escaped = names.map((name) => JSON.stringify(name).replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
    pattern = names.length ? new RegExp(`(?:${escaped.join('|')}):null`) : /(?!)/;
    nullPatterns.set(resource, pattern);
  }
  return pattern.test(text);
}

/** The answer (an object of the resource, or a list of them) without the nulls its schema refuses. */
export function withoutUnsetFields(resource: Resource, answer: unknown): unknown {
  if (!isPlainObject(answer)) return answer;
  const schema = resource.schema as Schema;
  const ofResource = (o: unknown) => (isPlainObject(o) && o.object === resource.object ? shape(o, schema) : o);
  if (answer.object === 'list' && Array.isArray(answer.data)) return { ...answer, data: answer.data.map(ofResource) };
  return ofResource(answer);
}
