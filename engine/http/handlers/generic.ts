// Retrieve, list and delete behave the same for every stored resource; a new resource gets them by
// declaring the operations.
import { notFound } from '../../errors';
import { envelope, listParams } from '../list';
import type { Handler } from '../operation';

export const retrieveObject: Handler = async ({ services, scope, resource, id }) => {
  const object = await services.objects.get(scope, resource.name, id!);
  if (!object) throw notFound(resource.title.toLowerCase());
  return object;
};

export const listObjects: Handler = async ({ services, scope, resource, operation, query, url }) => {
  const page = await services.objects.list(scope, resource.name, listParams(query, operation));
  return envelope(page, url, query);
};

export const deleteObject: Handler = async ({ services, scope, resource, id }) => {
  if (!(await services.objects.delete(scope, resource, id!))) throw notFound(resource.title.toLowerCase());
  return { id: id!, deleted: true };
};
