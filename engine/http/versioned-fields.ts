// Fields that exist only from a Service-Version on (catalog: `fieldsSince`; letters' `size` since
// 2024-01-01): an older version may not send them and does not see them.
import { ApiError } from '../base/errors';
import type { Resource } from '../catalog/types';
import { isPlainObject } from '../domain/validation/values';

const newer = (resource: Resource, version: string): string[] =>
  Object.entries(resource.fieldsSince ?? {})
    .filter(([, since]) => version < since)
    .map(([field]) => field);

/** Whether an answer in `version` leaves out any of the resource's fields. */
export const hidesFields = (resource: Resource, version: string): boolean => newer(resource, version).length > 0;

/** Refuses a body that sends a field its Service-Version does not have yet (checked before defaults fill it). */
export function refuseNewerFields(resource: Resource, body: Record<string, unknown>, version: string): void {
  for (const field of newer(resource, version)) {
    if (body[field] !== undefined) {
      const since = resource.fieldsSince![field];
      throw new ApiError(
        'invalid',
        `${field} needs Service-Version ${since} or later (this request uses ${version})`,
        422,
      );
    }
  }
}

/** The answer without the fields its Service-Version does not have (an object, or a list's data). */
export function hideNewerFields(resource: Resource, answer: unknown, version: string): unknown {
  const hidden = newer(resource, version);
  if (hidden.length === 0 || !isPlainObject(answer)) return answer;
  const strip = (object: unknown) => {
    if (!isPlainObject(object) || object.object !== resource.object) return object;
    const copy = { ...object };
    for (const field of hidden) delete copy[field];
    return copy;
  };
  if (answer.object === 'list' && Array.isArray(answer.data)) return { ...answer, data: answer.data.map(strip) };
  return strip(answer);
}
