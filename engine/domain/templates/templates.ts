// Templates and versions. A template's row keeps its own fields and the id of its published version;
// versions are rows of their own under the template. Reads assemble the template object (its live
// versions and the published one). Every change that touches both goes through a transition of the
// template, so publishing a version and deleting it can never both succeed.
import { ApiError, notFound } from '../../base/errors';
import { templates, templateVersions, type VersionObject } from '../../catalog/templates';
import type { templateOperations, versionOperations } from '../../catalog/templates';
import type { BodyOf } from '../../catalog/types';
import type { ApiObject, ObjectStore, Scope } from '../../store/objects';
import { assertTemplateCompiles } from '../../print/handlebars';
import { newId } from '../../base/ids';
import { nowIso } from '../../base/time';

type TemplateCreate = BodyOf<typeof templateOperations.create>;
type TemplateUpdate = BodyOf<typeof templateOperations.update>;
type VersionCreate = BodyOf<typeof versionOperations.create>;
type VersionUpdate = BodyOf<typeof versionOperations.update>;

const TEMPLATE = templates.name;
const VERSION = templateVersions.name;
const templateNotFound = () => notFound('template');

function newVersion(input: VersionCreate): VersionObject {
  assertTemplateCompiles(input.html);
  const now = nowIso();
  return {
    id: newId('vrsn'),
    description: input.description ?? null,
    html: input.html,
    engine: input.engine ?? 'legacy',
    required_vars: input.required_vars ?? [],
    suggest_json_editor: false,
    date_created: now,
    date_modified: now,
    object: 'version',
  };
}

/** The template as the API shows it, from its row and its live versions. */
function assemble(row: ApiObject, versions: ApiObject[]): ApiObject {
  const published = versions.find((v) => v.id === row.published_version);
  return { ...row, versions, published_version: published ?? null };
}

export async function createTemplate(objects: ObjectStore, scope: Scope, input: TemplateCreate): Promise<ApiObject> {
  const version = newVersion(input);
  const now = version.date_created;
  const template = {
    id: newId('tmpl'),
    description: input.description ?? null,
    metadata: input.metadata ?? {},
    published_version: version.id,
    date_created: now,
    date_modified: now,
    object: 'template',
  };
  await objects.insert(scope, TEMPLATE, template, {
    objects: [{ kind: VERSION, object: version, parent: template.id }],
  });
  return assemble(template, [version]);
}

export async function retrieveTemplate(objects: ObjectStore, scope: Scope, id: string): Promise<ApiObject> {
  const row = await objects.get(scope, TEMPLATE, id);
  if (!row) throw templateNotFound();
  const versions = await objects.children(scope, VERSION, [id]);
  return assemble(row, versions.get(id) ?? []);
}

/** A page of template rows, assembled with one query for all their versions. */
export async function assembleTemplates(objects: ObjectStore, scope: Scope, rows: ApiObject[]): Promise<ApiObject[]> {
  const versions = await objects.children(
    scope,
    VERSION,
    rows.map((r) => r.id),
  );
  return rows.map((row) => assemble(row, versions.get(row.id) ?? []));
}

export async function updateTemplate(
  objects: ObjectStore,
  scope: Scope,
  id: string,
  input: TemplateUpdate,
): Promise<ApiObject> {
  const publish = input.published_version;
  const updated = await objects.transition(scope, TEMPLATE, id, {
    change: (current) => ({
      ...current,
      ...(input.description !== undefined ? { description: input.description } : {}),
      ...(publish ? { published_version: publish } : {}),
    }),
    // read in the transition's transaction: a version deleted meanwhile is never published
    requires: publish
      ? [
          {
            kind: VERSION,
            id: publish,
            parent: id,
            refusal: () =>
              new ApiError('invalid', `published_version ${publish} is not a version of this template`, 422),
          },
        ]
      : undefined,
  });
  if (!updated) throw templateNotFound();
  return retrieveTemplate(objects, scope, id);
}

export async function createVersion(
  objects: ObjectStore,
  scope: Scope,
  templateId: string,
  input: VersionCreate,
): Promise<VersionObject> {
  const version = newVersion(input);
  const touched = await objects.transition(scope, TEMPLATE, templateId, {
    change: (current) => current,
    objects: [{ kind: VERSION, object: version, parent: templateId }],
  });
  if (!touched) throw templateNotFound();
  return version;
}

export async function updateVersion(
  objects: ObjectStore,
  scope: Scope,
  templateId: string,
  id: string,
  input: VersionUpdate,
): Promise<ApiObject> {
  const updated = await objects.transition(scope, VERSION, id, {
    parent: templateId,
    change: (current) => ({
      ...current,
      ...(input.description !== undefined ? { description: input.description } : {}),
      ...(input.engine !== undefined ? { engine: input.engine } : {}),
      ...(input.required_vars !== undefined ? { required_vars: input.required_vars } : {}),
    }),
  });
  if (!updated) throw notFound('template version');
  return updated;
}

/** Deletes a version through its template: the published one is refused (not_deletable). */
export async function deleteVersion(
  objects: ObjectStore,
  scope: Scope,
  templateId: string,
  id: string,
): Promise<{ id: string; deleted: true }> {
  const touched = await objects.transition(scope, TEMPLATE, templateId, {
    refuse: (template) =>
      template.published_version === id
        ? new ApiError('not_deletable', 'The published version cannot be deleted: publish another version first.', 422)
        : undefined,
    change: (current) => current,
    deletes: [{ kind: VERSION, id, parent: templateId, refusal: () => notFound('template version') }],
  });
  if (!touched) throw templateNotFound();
  return { id, deleted: true };
}

/** 404 unless the template exists (listing the versions of a missing template is not an empty list). */
export async function assertTemplate(objects: ObjectStore, scope: Scope, id: string): Promise<void> {
  if (!(await objects.get(scope, TEMPLATE, id))) throw templateNotFound();
}
