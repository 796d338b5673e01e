// Create, retrieve, list, update and delete behave the same for every plain stored resource; a new
// resource gets them by declaring the operations (and writes its own handler only for what is its own).
import { notFound } from '../../base/errors';
import { eventOf } from '../../catalog';
import type { ApiObject } from '../../store/objects';
import { isStamped, newObjectFrom } from '../../domain/validation/new-object';
import { envelope, listParams, type ListEnvelope } from '../list';
import type { Handler, OperationRequest } from '../operation';

/** The object a nested path names besides `{id}` (`{tmpl_id}` for a template's versions). */
export const parentOf = (params: Record<string, string>): string | undefined =>
  Object.entries(params).find(([name]) => name !== 'id')?.[1];

export const retrieveObject = async ({ services, scope, resource, params }: OperationRequest): Promise<ApiObject> => {
  const object = await services.objects.get(scope, resource.name, params.id, { parent: parentOf(params) });
  if (!object) throw notFound(resource.title.toLowerCase());
  return object;
};

/** The store's list parameters of a list request: its query's, under the parent its path names. */
const pageParamsOf = ({ query, operation, params }: OperationRequest) => ({
  ...listParams(query, operation),
  parent: parentOf(params),
});

export const listObjects = async (request: OperationRequest): Promise<ListEnvelope> => {
  const page = await request.services.objects.list(request.scope, request.resource.name, pageParamsOf(request));
  return envelope(page, request.url, request.query);
};

/**
 * The same list with its objects left as their stored JSON texts (StoredBody): the answer splices them
 * in where no shaping would change them (http/stored-list.ts). For lists answered as the store keeps
 * them; a handler that changes the objects it lists (webhooks hide secrets) uses listObjects.
 */
export const listStoredObjects = async (request: OperationRequest): Promise<ListEnvelope> => {
  const page = await request.services.objects.listText(request.scope, request.resource.name, pageParamsOf(request));
  return envelope(page, request.url, request.query);
};

export const deleteObject: Handler = async ({ services, scope, resource, params }) => {
  if (!(await services.objects.delete(scope, resource, params.id, parentOf(params))))
    throw notFound(resource.title.toLowerCase());
  return { id: params.id, deleted: true };
};

/**
 * Create for a resource whose object is its body plus the stamps (billing groups): every field of the
 * object's schema from the body, or its initial value. Records `<object>.created` when declared.
 */
export const createObject = async ({
  services,
  scope,
  resource,
  body,
  idempotency,
}: OperationRequest): Promise<ApiObject> => {
  const object = newObjectFrom(resource, body);
  const created = `${resource.object}.created`;
  await services.objects.insert(scope, resource.name, object, {
    claim: idempotency,
    events: resource.events.includes(created) ? [eventOf(resource, 'created')] : undefined,
  });
  return object;
};

/** Update: the body's fields (those the object has) replace the stored ones, compare-and-set. */
export const updateObject = async ({
  services,
  scope,
  resource,
  params,
  body,
}: OperationRequest): Promise<ApiObject> => {
  const known = Object.entries(body).filter(
    ([key]) => Object.hasOwn(resource.schema.properties, key) && !isStamped(key),
  );
  const updated = await services.objects.transition(scope, resource.name, params.id, {
    change: (current) => ({ ...current, ...Object.fromEntries(known) }),
  });
  if (!updated) throw notFound(resource.title.toLowerCase());
  return updated;
};
