// Templates and versions: creates compile the HTML; reads assemble a template from its versions.
import { templateSchemas, versionSchemas } from '../../catalog/templates';
import {
  assembleTemplates,
  assertTemplate,
  createTemplate,
  createVersion,
  deleteVersion,
  retrieveTemplate,
  updateTemplate,
  updateVersion,
} from '../../mail/templates';
import { envelope, listParams } from '../list';
import { typed, type Handler } from '../operation';
import { listObjects } from './generic';

export const templateHandlers: Record<string, Handler> = {
  create: typed(templateSchemas.create, ({ services, scope, body }) =>
    createTemplate(services.objects, services.db.knex, scope, body),
  ),
  retrieve: async ({ services, scope, id }) => retrieveTemplate(services.objects, scope, id!),
  list: async ({ services, scope, resource, operation, query, url }) => {
    const page = await services.objects.list(scope, resource.name, listParams(query, operation));
    return envelope({ ...page, data: await assembleTemplates(services.objects, scope, page.data) }, url, query);
  },
  update: typed(templateSchemas.update, ({ services, scope, id, body }) =>
    updateTemplate(services.objects, scope, id!, body),
  ),
};

export const templateVersionHandlers: Record<string, Handler> = {
  create: typed(versionSchemas.create, ({ services, scope, params, body }) =>
    createVersion(services.objects, scope, params.tmpl_id, body),
  ),
  list: async (request) => {
    await assertTemplate(request.services.objects, request.scope, request.params.tmpl_id);
    return listObjects(request);
  },
  update: typed(versionSchemas.update, ({ services, scope, params, id, body }) =>
    updateVersion(services.objects, scope, params.tmpl_id, id!, body),
  ),
  delete: async ({ services, scope, params, id }) => deleteVersion(services.objects, scope, params.tmpl_id, id!),
};
