// The Zapier app's actions, generated from the catalog: a create per create-like operation, a search
// per retrievable resource (by id, or by its list's filters: ./searches.ts), search-or-create where both
// exist, and hidden list triggers that fill the id dropdowns. The app itself (with its authentication
// and instant triggers) is assembled in app.ts.
import type { Bundle, ZObject } from 'zapier-platform-core';
import { baseUrl } from '../../credentials/zapier-authentication';
import type { PackOperation, PackResource } from '../common/pack-catalog';
import { isCreateLike, objectLabel, pathParams, title } from '../common/schema';
import { buildBody, inputFields, listTriggerKey, outputFields, type InputField } from './fields';
import { fillPath, key, listOf, listable, lower, pathFields, retrieveOp, sentence } from './operations';
import { searchFor, searchKey } from './searches';
import { isPlainObject, isString, plainObjectOr } from '../common/guards';
import { givenUploads, multipartBody } from './uploads';

type Perform = (z: ZObject, bundle: Bundle) => Promise<unknown>;

/** An operation's example answer when it has one, else the resource's sample. */
const exampleOr = (example: unknown, sample: Record<string, unknown>) => (isPlainObject(example) ? example : sample);

const createKey = (r: PackResource, op: PackOperation) =>
  op.name === 'create' ? key(r.name, 'create') : key(r.name, op.name);

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
    const input = bundle.inputData ?? {};
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
          : exampleOr(op.responseSchema?.examples?.[0], r.sample),
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

function listTriggerFor(r: PackResource, resources: readonly PackResource[]) {
  const list = listOf(r)!;
  // Dropdown pages are numbered (bundle.meta.page); the API pages by cursor: walk next_url to page n.
  // (No z.cursor: it needs Zapier's RPC service, and dropdowns are seldom paged deep.) A list under a
  // parent reads the parent's id from the fields of the step that shows the dropdown.
  const perform: Perform = async (z, bundle) => {
    const target = Number(bundle.meta?.page ?? 0);
    const input = bundle.inputData ?? {};
    if (pathParams(list).some((p) => !input[p])) return [];
    let url: string | null = `${baseUrl(bundle)}${fillPath(list, input)}?limit=100`;
    let page: { data?: Record<string, unknown>[]; next_url?: string | null } = {};
    for (let i = 0; i <= target && url; i++) {
      const response = await z.request({ method: 'GET', url });
      const body: unknown = response.data;
      const { data, next_url } = plainObjectOr(body);
      page = {
        data: Array.isArray(data) ? data.filter(isPlainObject) : [],
        next_url: isString(next_url) ? next_url : null,
      };
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

/** The app's creates, searches, search-or-creates and (hidden) list triggers, by key. */
export function zapierActions(resources: readonly PackResource[]) {
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
  return { listTriggers: triggers, searches, creates, searchOrCreates };
}

/** Where a catalog operation lives in the app: `creates.<key>`, `searches.<key>`, `triggers.<key>`, or nowhere. */
export interface Coverage {
  resource: string;
  operation: string;
  zapier?: string;
}

/** Every catalog operation and where it lives in the app (the coverage test reads this). */
export function coverage(resources: readonly PackResource[]): Coverage[] {
  return resources.flatMap((r) =>
    r.operations.map((op) => {
      if (isAction(op)) return { resource: r.name, operation: op.name, zapier: `creates.${createKey(r, op)}` };
      if (op.method === 'GET' && op.response === 'object')
        return { resource: r.name, operation: op.name, zapier: `searches.${searchKey(r)}` };
      if (op.response === 'list')
        return { resource: r.name, operation: op.name, zapier: `triggers.${listTriggerKey(r)}` };
      return { resource: r.name, operation: op.name };
    }),
  );
}
