// The Zapier app, generated from the catalog: a create per create-like operation, a search per
// retrievable resource (by id, or by metadata where the list filters on it), search-or-create where
// both exist, and hidden list triggers that fill the id dropdowns.
import type { Bundle, ZObject } from 'zapier-platform-core';
import { addAuth, authentication, baseUrl, handleErrors } from '../../credentials/zapier-authentication';
import { packCatalog } from '../common/catalog-data';
import type { PackOperation, PackResource } from '../common/pack-catalog';
import { isCreateLike, listOperation, objectLabel, pathParams, title, fieldsOf } from '../common/schema';
import { buildBody, dropdown, inputFields, listTriggerKey, outputFields, type InputField } from './fields';
import { givenUploads, multipartBody } from './uploads';

// Replaced by the build with the pack's version.
declare const PACK_VERSION: string | undefined;
const version = typeof PACK_VERSION === 'string' ? PACK_VERSION : '0.1.0';

type Perform = (z: ZObject, bundle: Bundle) => Promise<unknown>;

const retrieveOp = (r: PackResource) =>
  r.operations.find((o) => o.method === 'GET' && o.response === 'object' && pathParams(o).includes('id'));
/** The resource's list, top-level or under a parent (`/v1/templates/{tmpl_id}/versions`). */
const listOf = (r: PackResource) =>
  listOperation(r) ?? r.operations.find((o) => o.response === 'list' && o.method === 'GET');
const listable = (r: PackResource) => !!listOf(r);

/** The resource a path parameter names: `{id}` the operation's own, `{tmpl_id}` the one with that prefix. */
const named = (param: string, r: PackResource, resources: readonly PackResource[]) =>
  param === 'id' ? r : (resources.find((x) => `${x.idPrefix}_id` === param) ?? r);

/** Input fields for an operation's path parameters, each with the dropdown of the resource it names. */
function pathFields(
  r: PackResource,
  op: PackOperation,
  resources: readonly PackResource[],
  verb: string,
): InputField[] {
  return pathParams(op).map((p) => {
    const target = named(p, r, resources);
    return {
      key: p,
      label: target.title,
      required: true,
      type: 'string' as const,
      helpText: `The ${target.title.toLowerCase()} ${p === 'id' ? `to ${verb}` : `it belongs to`}, by ID (\`${target.idPrefix}_...\`).`,
      ...(listable(target) && { dynamic: dropdown(target, listable) }),
    };
  });
}

const key = (...parts: string[]) => parts.join('_').replace(/[^a-zA-Z0-9_]/g, '_');
const createKey = (r: PackResource, op: PackOperation) =>
  op.name === 'create' ? key(r.name, 'create') : key(r.name, op.name);
const searchKey = (r: PackResource) => key(r.name, 'find');

const lower = (s: string) => s.charAt(0).toLowerCase() + s.slice(1);

const fillPath = (op: PackOperation, input: Record<string, unknown>) =>
  op.path.replace(/\{(\w+)\}/g, (_, p: string) => encodeURIComponent(String(input[p] ?? '')));

/** A description Zapier accepts: a sentence of at least some length. */
const sentence = (s: string) => (s.endsWith('.') ? s : `${s}.`);

function createFor(r: PackResource, op: PackOperation, resources: readonly PackResource[]) {
  const fields: InputField[] = pathFields(r, op, resources, op.name);
  fields.push(...inputFields(op.body, resources, listable, '', true, op.files));
  if (op.query) fields.push(...inputFields(op.query, resources, listable).map((f) => ({ ...f, required: false })));
  if (op.idempotent) {
    fields.push({
      key: 'idempotency_key',
      label: 'Idempotency Key',
      type: 'string',
      required: false,
      helpText:
        'A unique key: a repeated request with the same key returns the first response instead of creating a duplicate.',
    });
  }
  const perform: Perform = async (z, bundle) => {
    const input = (bundle.inputData ?? {}) as Record<string, unknown>;
    const body = op.body ? buildBody(input, op.body, resources) : undefined;
    const params = op.query ? buildBody(input, op.query, resources) : undefined;
    const headers: Record<string, string> = body ? { 'Content-Type': 'application/json' } : {};
    if (op.idempotent && input.idempotency_key) headers['Idempotency-Key'] = String(input.idempotency_key);
    // files given for upload fields: multipart, the files streamed from where Zapier keeps them
    const uploads = givenUploads(op.files, input);
    const multipart = body && uploads.length ? await multipartBody(z, body, uploads, input) : undefined;
    if (multipart) headers['Content-Type'] = multipart.contentType;
    const response = await z.request({
      method: op.method,
      url: `${baseUrl(bundle)}${fillPath(op, input)}`,
      headers,
      ...(body && { body: multipart?.stream ?? body }),
      ...(params && Object.keys(params).length > 0 && { params: params as Record<string, string> }),
    });
    return response.data;
  };
  return {
    key: createKey(r, op),
    noun: r.title,
    display: { label: op.summary, description: sentence(`${op.summary}: ${lower(r.description)}`) },
    operation: {
      inputFields: fields,
      perform,
      sample:
        op.response === 'deleted'
          ? { id: r.sample.id, deleted: true }
          : ((op.responseSchema?.examples?.[0] as Record<string, unknown> | undefined) ?? r.sample),
      outputFields:
        op.response === 'deleted'
          ? [
              { key: 'id', label: 'ID', type: 'string' as const },
              { key: 'deleted', label: 'Deleted', type: 'boolean' as const },
            ]
          : outputFields(op.responseSchema ?? r.schema, resources),
    },
  };
}

/** Zapier actions: every operation that is not a read (POST, DELETE, PATCH). */
const isAction = (op: PackOperation) => op.method !== 'GET';

function searchFor(r: PackResource, resources: readonly PackResource[]) {
  const retrieve = retrieveOp(r)!;
  const list = listOf(r);
  const byMetadata = !!list?.query?.properties?.metadata;
  const fields: InputField[] = [
    ...pathFields(r, retrieve, resources, 'find').filter((f) => f.key !== 'id'),
    {
      key: 'id',
      label: `${r.title} ID`,
      type: 'string',
      required: !byMetadata,
      helpText: `The ID of the ${r.title.toLowerCase()} (\`${r.idPrefix}_...\`).`,
    },
  ];
  if (byMetadata)
    fields.push({
      key: 'metadata',
      label: 'Metadata',
      dict: true,
      required: false,
      helpText: `Find the ${r.title.toLowerCase()} whose metadata has all these key/value pairs (used when no ID is given).`,
    });
  const perform: Perform = async (z, bundle) => {
    const input = (bundle.inputData ?? {}) as Record<string, unknown>;
    if (input.id) {
      const response = await z.request({
        method: 'GET',
        url: `${baseUrl(bundle)}${fillPath(retrieve, input)}`,
        skipThrowForStatus: true,
      });
      if (response.status === 404) return [];
      response.throwForStatus();
      return [response.data];
    }
    if (!list || !byMetadata) return [];
    const metadata = (input.metadata ?? {}) as Record<string, string>;
    const params: Record<string, string> = { limit: '100' };
    for (const [k, v] of Object.entries(metadata)) params[`metadata[${k}]`] = String(v);
    const response = await z.request({ method: 'GET', url: `${baseUrl(bundle)}${fillPath(list, input)}`, params });
    return ((response.data as { data?: unknown[] }).data ?? []) as unknown[];
  };
  return {
    key: searchKey(r),
    noun: r.title,
    display: {
      label: `Find ${r.title}`,
      description: sentence(`Finds a ${r.title.toLowerCase()} by ID${byMetadata ? ' or by metadata' : ''}`),
    },
    operation: { inputFields: fields, perform, sample: r.sample, outputFields: outputFields(r.schema, resources) },
  };
}

function listTriggerFor(r: PackResource, resources: readonly PackResource[]) {
  const list = listOf(r)!;
  // Dropdown pages are numbered (bundle.meta.page); the API pages by cursor: walk next_url to page n.
  // (No z.cursor: it needs Zapier's RPC service, and dropdowns are seldom paged deep.) A list under a
  // parent reads the parent's id from the fields of the step that shows the dropdown.
  const perform: Perform = async (z, bundle) => {
    const target = Number(bundle.meta?.page ?? 0);
    const input = (bundle.inputData ?? {}) as Record<string, unknown>;
    if (pathParams(list).some((p) => !input[p])) return [];
    let url: string | null = `${baseUrl(bundle)}${fillPath(list, input)}?limit=100`;
    let page: { data?: Record<string, unknown>[]; next_url?: string | null } = {};
    for (let i = 0; i <= target && url; i++) {
      const response = await z.request({ method: 'GET', url });
      page = response.data as typeof page;
      if (i < target && !page.next_url) return [];
      url = page.next_url || null;
    }
    return (page.data ?? []).map((o) => ({ ...o, label: objectLabel(o) }));
  };
  return {
    key: listTriggerKey(r),
    noun: r.title,
    display: {
      label: `List ${title(r.name)}`,
      description: sentence(`Lists ${title(r.name).toLowerCase()}, for dropdowns`),
      hidden: true,
    },
    operation: {
      type: 'polling' as const,
      canPaginate: true,
      perform,
      sample: { ...r.sample, label: objectLabel(r.sample) },
      outputFields: outputFields(r.schema, resources),
    },
  };
}

export function buildApp(resources: readonly PackResource[], platformVersion: string) {
  const creates: Record<string, ReturnType<typeof createFor>> = {};
  const searches: Record<string, ReturnType<typeof searchFor>> = {};
  const triggers: Record<string, ReturnType<typeof listTriggerFor>> = {};
  const searchOrCreates: Record<
    string,
    { key: string; display: { label: string; description: string }; search: string; create: string }
  > = {};
  for (const r of resources) {
    if (listable(r)) triggers[listTriggerKey(r)] = listTriggerFor(r, resources);
    for (const op of r.operations.filter(isAction)) {
      const c = createFor(r, op, resources);
      creates[c.key] = c;
    }
    if (retrieveOp(r)) {
      const s = searchFor(r, resources);
      searches[s.key] = s;
      const create = r.operations.find((o) => o.name === 'create' && isCreateLike(o));
      if (create) {
        searchOrCreates[s.key] = {
          key: s.key,
          display: {
            label: `Find or Create ${r.title}`,
            description: sentence(`Finds a ${r.title.toLowerCase()}, or creates one if none matches`),
          },
          search: s.key,
          create: createKey(r, create),
        };
      }
    }
  }
  return {
    version,
    platformVersion,
    authentication,
    beforeRequest: [addAuth],
    afterResponse: [handleErrors],
    triggers,
    searches,
    creates,
    searchOrCreates,
    resources: {},
  };
}

/** Every catalog operation and where it lives in the app (the coverage test reads this). */
export function coverage(resources: readonly PackResource[]) {
  return resources.flatMap((r) =>
    r.operations.map((op) => {
      if (isAction(op)) return { resource: r.name, operation: op.name, zapier: `creates.${createKey(r, op)}` };
      if (op.method === 'GET' && op.response === 'object')
        return { resource: r.name, operation: op.name, zapier: `searches.${searchKey(r)}` };
      if (op.response === 'list')
        return { resource: r.name, operation: op.name, zapier: `triggers.${listTriggerKey(r)}` };
      return { resource: r.name, operation: op.name, zapier: undefined as string | undefined };
    }),
  );
}

// eslint-disable-next-line @typescript-eslint/no-require-imports
export const app = buildApp(packCatalog, (require('zapier-platform-core') as { version: string }).version);
export { fieldsOf };
