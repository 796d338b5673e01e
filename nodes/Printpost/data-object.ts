// n8n's shapes for untyped data, reached by guards: an IDataObject is a plain object of JSON values,
// which every object read from a response body, the node's static data or its parameters is.
import type { IDataObject, JsonObject } from 'n8n-workflow';

/** A plain object (not null, not an array) as n8n types one. */
export const isDataObject = (value: unknown): value is IDataObject & JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** `value` when it is a plain object, else an empty one. */
export const dataObjectOr = (value: unknown): IDataObject => (isDataObject(value) ? value : {});
