// A list answer spliced from its objects' stored JSON texts. A row's body is what JSON.stringify made of
// the object when it was written, so where the answer changes nothing in it (no field the Service-Version
// hides, no null its schema refuses) the text is the answer as it would be serialized: parsing it and
// serializing it again only cost a page read about a fifth of its CPU (`npm run profile -- pages`).
import type { Resource } from '../catalog/types';
import { StoredBody } from '../store/objects';
import { hidesFields } from './versioned-fields';
import { mayHoldUnsetFields } from './unset-fields';
import { isPlainObject } from '../domain/validation/values';

/**
 * `answer` as JSON text when it is a list of stored texts that need no shaping; otherwise the answer
 * with any stored texts parsed, for the usual shaping and serializing.
 */
export function spliceStoredList(
  resource: Resource,
  answer: unknown,
  version: string,
): { text: string } | { answer: unknown } {
  if (!isPlainObject(answer) || answer.object !== 'list' || !Array.isArray(answer.data)) return { answer };
  const data: unknown[] = answer.data;
  if (!data.some((item) => item instanceof StoredBody)) return { answer };
  const texts = data.map((item) => (item instanceof StoredBody ? item.text : undefined));
  const asStored =
    !hidesFields(resource, version) && texts.every((text) => text !== undefined && !mayHoldUnsetFields(resource, text));
  if (!asStored)
    return {
      answer: { ...answer, data: data.map((item) => (item instanceof StoredBody ? JSON.parse(item.text) : item)) },
    };
  // the envelope's own fields serialized as always; a function replacement, so no `$` in a text is read
  return {
    text: JSON.stringify({ ...answer, data: [] }).replace('"data":[]', () => `"data":[${texts.join(',')}]`),
  };
}
