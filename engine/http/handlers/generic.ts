// Retrieve, list and delete behave the same for every stored resource; a new resource gets them by
// declaring the operations.
import { notFound } from '../../errors';
import { envelope, listParams } from '../list';
import type { Handler } from '../operation';

/** The object a nested path names besides `{id}` (`{tmpl_id}` for a template's versions). */
export const parentOf = (params: Record<string, string>): string | undefined =>
  Object.entries(params).find(([name]) => name !== 'id')?.[1];

export const retrieveObject: Handler = async ({ services, scope, resource, id, params }) => {
  const object = await services.objects.get(scope, resource.name, id!, { parent: parentOf(params) });
  if (!object) throw notFound(resource.title.toLowerCase());
  return object;
};

export const listObjects: Handler = async ({ services, scope, resource, operation, query, url, params }) => {
  const page = await services.objects.list(scope, resource.name, {
    ...listParams(query, operation),
    parent: parentOf(params),
  });
  return envelope(page, url, query);
};

export const deleteObject: Handler = async ({ services, scope, resource, id, params }) => {
  if (!(await services.objects.delete(scope, resource, id!, parentOf(params))))
    throw notFound(resource.title.toLowerCase());
  return { id: id!, deleted: true };
};
