// A new stored object made from a checked create body: every field of the resource's schema from the
// body, or its initial value (its default, else an empty record or list, else null), and the stamps.
import { Kind, type TSchema } from '@sinclair/typebox';
import type { Resource } from '../../catalog/types';
import type { ApiObject } from '../../store/objects';
import { newId } from '../../base/ids';
import { nowIso } from '../../base/time';

function initial(schema: TSchema): unknown {
  if (schema.default !== undefined) return schema.default;
  if (schema[Kind] === 'Record') return {};
  if (schema[Kind] === 'Array') return [];
  return null;
}

const STAMPED = new Set(['id', 'date_created', 'date_modified', 'deleted', 'object']);

/** Whether a field is one of the stamps every object gets, never taken from a body. */
export const isStamped = (field: string): boolean => STAMPED.has(field);

export function newObjectFrom(resource: Resource, body: Record<string, unknown>, now = nowIso()): ApiObject {
  const fields = Object.entries(resource.schema.properties).filter(([key]) => !STAMPED.has(key));
  return {
    id: newId(resource.idPrefix),
    ...Object.fromEntries(fields.map(([key, schema]) => [key, body[key] ?? initial(schema)])),
    date_created: now,
    date_modified: now,
    object: resource.object,
  };
}
