// Templates and their versions (spec: Templates; docs/compat-notes.md: templates, template versions). A template's
// HTML lives in its versions; the published one is what a mailpiece naming the template renders.
import { Type, type Static } from '@sinclair/typebox';
import { description, id, markup, metadata, nullable, stamps, objectName } from './fields';
import { listOperation } from './list-filters';
import { defineResource } from './resource';
import { operation } from './operation';

const html = () =>
  markup(
    Type.String({
      minLength: 1,
      maxLength: 100_000,
      description: 'The HTML, with Handlebars merge variables ({{name}}); under 100,000 characters.',
      examples: ['<html><body><h1>Hello {{name}}</h1></body></html>'],
    }),
  );

const engine = () =>
  Type.Union([Type.Literal('legacy'), Type.Literal('handlebars')], {
    default: 'legacy',
    description: 'The merge engine: handlebars, or legacy (plain {{variable}} substitution).',
    examples: ['handlebars'],
  });

const requiredVars = () =>
  Type.Array(Type.String({ minLength: 1, maxLength: 100 }), {
    maxItems: 100,
    description: 'Merge variables every mailpiece using this template must supply.',
    examples: [['name']],
  });

/** What a version is made of: the template create takes the same, plus metadata. */
const versionInput = () => ({
  description: Type.Optional(description()),
  html: html(),
  engine: Type.Optional(engine()),
  required_vars: Type.Optional(requiredVars()),
});

/** The version object as returned. */
const versionFields = () => ({
  description: nullable(Type.String({ maxLength: 255 })),
  html: Type.String({ maxLength: 100_000 }),
  engine: engine(),
  required_vars: Type.Array(Type.String()),
  suggest_json_editor: Type.Boolean({ description: 'Whether the merge variables are best edited as JSON.' }),
});

const versionObject = () =>
  Type.Object({ id: id('vrsn', 'version'), ...versionFields(), ...stamps(), object: objectName('version') });

export type VersionObject = Static<ReturnType<typeof versionObject>>;

const SAMPLE_VERSION: VersionObject = {
  id: 'vrsn_362184d96d9b0c9',
  description: 'Spring campaign',
  html: '<html><body><h1>Hello {{name}}</h1></body></html>',
  engine: 'handlebars',
  required_vars: ['name'],
  suggest_json_editor: false,
  date_created: '2026-11-20T18:39:45.123Z',
  date_modified: '2026-11-20T18:39:45.123Z',
  object: 'version',
};

export const templateOperations = {
  create: operation({
    name: 'create',
    method: 'POST',
    path: '/v1/templates',
    summary: 'Create a template',
    body: Type.Object({ ...versionInput(), metadata: Type.Optional(metadata()) }),
    response: 'object',
  }),
  retrieve: operation({
    name: 'retrieve',
    method: 'GET',
    path: '/v1/templates/{id}',
    summary: 'Retrieve a template',
    response: 'object',
  }),
  list: listOperation('/v1/templates', 'List templates'),
  update: operation({
    name: 'update',
    method: 'POST',
    path: '/v1/templates/{id}',
    summary: 'Update a template',
    body: Type.Object({
      description: Type.Optional(description()),
      published_version: Type.Optional(id('vrsn', 'version to publish')),
    }),
    response: 'object',
  }),
  delete: operation({
    name: 'delete',
    method: 'DELETE',
    path: '/v1/templates/{id}',
    summary: 'Delete a template and its versions',
    response: 'deleted',
  }),
};

export const versionOperations = {
  create: operation({
    name: 'create',
    method: 'POST',
    path: '/v1/templates/{tmpl_id}/versions',
    summary: 'Create a template version',
    body: Type.Object(versionInput()),
    response: 'object',
  }),
  list: listOperation('/v1/templates/{tmpl_id}/versions', 'List template versions'),
  retrieve: operation({
    name: 'retrieve',
    method: 'GET',
    path: '/v1/templates/{tmpl_id}/versions/{id}',
    summary: 'Retrieve a template version',
    response: 'object',
  }),
  update: operation({
    name: 'update',
    method: 'POST',
    path: '/v1/templates/{tmpl_id}/versions/{id}',
    summary: 'Update a template version',
    body: Type.Object({
      description: Type.Optional(description()),
      engine: Type.Optional(engine()),
      required_vars: Type.Optional(requiredVars()),
    }),
    response: 'object',
  }),
  delete: operation({
    name: 'delete',
    method: 'DELETE',
    path: '/v1/templates/{tmpl_id}/versions/{id}',
    summary: 'Delete a template version',
    response: 'deleted',
  }),
};

export const templates = defineResource({
  name: 'templates',
  title: 'Template',
  object: 'template',
  idPrefix: 'tmpl',
  description: 'Reusable HTML for mailpieces, kept as versions; the published version is the one used.',
  fields: {
    description: nullable(Type.String({ maxLength: 255 })),
    versions: Type.Array(versionObject(), { description: 'Every version that is not deleted, oldest first.' }),
    published_version: versionObject(),
    metadata: metadata(),
  },
  operations: Object.values(templateOperations),
  events: [],
  sample: {
    id: 'tmpl_c94e83ca2cd5121',
    description: 'Spring campaign',
    versions: [SAMPLE_VERSION],
    published_version: SAMPLE_VERSION,
    metadata: {},
    date_created: '2026-11-20T18:39:45.123Z',
    date_modified: '2026-11-20T18:39:45.123Z',
    object: 'template',
  },
});

export const templateVersions = defineResource({
  name: 'template_versions',
  title: 'Template version',
  object: 'version',
  idPrefix: 'vrsn',
  description: "A template's HTML at one point; create a new version to change it, then publish it.",
  schema: versionObject(),
  operations: Object.values(versionOperations),
  events: [],
  sample: SAMPLE_VERSION,
});
