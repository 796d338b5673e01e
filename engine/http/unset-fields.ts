// Fields with no value are answered as the response schema declares them: null where the schema admits
// null (the vendor marks those nullable), left out where it does not (the vendor types them as a plain
// string, and schema-checking clients refuse a null there). Read from the catalog's response schemas,
// so a field changes by changing its declaration; stored objects keep their nulls.
import type { TSchema } from '@sinclair/typebox';
import type { Resource } from '../catalog/types';
import { isPlainObject } from './values';

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

function shape(value: unknown, schema: Schema): unknown {
  if (Array.isArray(value)) {
    const items = schema.type === 'array' ? schema.items : branches(schema).find((b) => b.type === 'array')?.items;
    return items ? value.map((item) => shape(item, items)) : value;
  }
  const object = isPlainObject(value) ? objectSchemaOf(schema) : undefined;
  if (!object?.properties || !isPlainObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) {
    const declared = object.properties[key];
    if (!declared) out[key] = field;
    else if (field === null) {
      if (admitsNull(declared)) out[key] = null;
    } else out[key] = shape(field, declared);
  }
  return out;
}

/** The answer (an object of the resource, or a list of them) without the nulls its schema refuses. */
export function withoutUnsetFields(resource: Resource, answer: unknown): unknown {
  if (!isPlainObject(answer)) return answer;
  const schema = resource.schema as Schema;
  const ofResource = (o: unknown) => (isPlainObject(o) && o.object === resource.object ? shape(o, schema) : o);
  if (answer.object === 'list' && Array.isArray(answer.data)) return { ...answer, data: answer.data.map(ofResource) };
  return ofResource(answer);
}
