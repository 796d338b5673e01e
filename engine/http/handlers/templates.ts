// Templates and versions: creates compile the HTML; reads assemble a template from its versions.
import { templateOperations, versionOperations } from '../../catalog/templates';
import {
  assembleTemplates,
  assertTemplate,
  createTemplate,
  createVersion,
  deleteVersion,
  retrieveTemplate,
  updateTemplate,
  updateVersion,
} from '../../domain/templates/templates';
import { envelope, listParams } from '../list';
import { serve, type Served } from '../operation';
import { listObjects } from './generic';

export const templateHandlers: Served[] = [
  serve(templateOperations.create, ({ services, scope, body }) => createTemplate(services.objects, scope, body)),
  serve(templateOperations.retrieve, ({ services, scope, params }) =>
    retrieveTemplate(services.objects, scope, params.id),
  ),
  serve(templateOperations.list, async ({ services, scope, resource, operation, query, url }) => {
    const page = await services.objects.list(scope, resource.name, listParams(query, operation));
    return envelope({ ...page, data: await assembleTemplates(services.objects, scope, page.data) }, url, query);
  }),
  serve(templateOperations.update, ({ services, scope, params, body }) =>
    updateTemplate(services.objects, scope, params.id, body),
  ),
];

export const templateVersionHandlers: Served[] = [
  serve(versionOperations.create, ({ services, scope, params, body }) =>
    createVersion(services.objects, scope, params.tmpl_id, body),
  ),
  serve(versionOperations.list, async (request) => {
    await assertTemplate(request.services.objects, request.scope, request.params.tmpl_id);
    return listObjects(request);
  }),
  serve(versionOperations.update, ({ services, scope, params, body }) =>
    updateVersion(services.objects, scope, params.tmpl_id, params.id, body),
  ),
  serve(versionOperations.delete, ({ services, scope, params }) =>
    deleteVersion(services.objects, scope, params.tmpl_id, params.id),
  ),
];
