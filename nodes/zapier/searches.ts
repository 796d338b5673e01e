// The Zapier app's searches: one a retrievable resource, finding it by ID, or else by its list's
// filters as the catalog declares them (status, size, send_date, mail_type, campaign_id, metadata...
// whatever the list takes besides paging), the way the n8n node's Filters offer them.
import type { Bundle, ZObject } from 'zapier-platform-core';
import { baseUrl } from '../../credentials/zapier-authentication';
import { formPairs } from '../common/multipart';
import { plainObjectOr } from '../common/guards';
import type { JsonSchema, PackOperation, PackResource } from '../common/pack-catalog';
import { buildBody, inputFields, outputFields, type InputField } from './fields';
import { fillPath, key, listOf, listable, pathFields, retrieveOp, sentence } from './operations';

/** A list's query fields that page or count rather than filter. */
const LIST_CONTROL = new Set(['limit', 'before', 'after', 'include']);

/** The list's filters as one object schema, or undefined when it has none. */
function filterSchema(list: PackOperation | undefined): JsonSchema | undefined {
  const filters = Object.entries(list?.query?.properties ?? {}).filter(([name]) => !LIST_CONTROL.has(name));
  return filters.length ? { type: 'object', properties: Object.fromEntries(filters) } : undefined;
}

export const searchKey = (r: PackResource) => key(r.name, 'find');

export function searchFor(r: PackResource, resources: readonly PackResource[]) {
  const retrieve = retrieveOp(r)!;
  const list = listOf(r);
  const filters = filterSchema(list);
  const filterNames = Object.keys(filters?.properties ?? {});
  const fields: InputField[] = [
    ...pathFields(r, retrieve, resources, 'find').filter((f) => f.key !== 'id'),
    {
      key: 'id',
      label: `${r.title} ID`,
      type: 'string',
      required: !filters,
      helpText: `The ID of the ${r.title.toLowerCase()} (\`${r.idPrefix}_...\`)${filters ? '; without one, the filters below find it' : ''}.`,
    },
  ];
  if (filters)
    fields.push(
      ...inputFields(filters, resources, listable).map((f): InputField =>
        f.key === 'metadata'
          ? {
              ...f,
              required: false,
              helpText: `Find the ${r.title.toLowerCase()} whose metadata has all these key/value pairs (used when no ID is given).`,
            }
          : { ...f, required: false },
      ),
    );
  const perform = async (z: ZObject, bundle: Bundle): Promise<unknown[]> => {
    const input = bundle.inputData ?? {};
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
    if (!list || !filters) return [];
    // a search given nothing to search by finds nothing, rather than whatever the list starts with
    const query = buildBody(input, filters, resources);
    if (!Object.keys(query).length) return [];
    const params = new URLSearchParams([['limit', '100'], ...formPairs(query)]);
    const response = await z.request({ method: 'GET', url: `${baseUrl(bundle)}${fillPath(list, input)}?${params}` });
    const body: unknown = response.data;
    const found: unknown = plainObjectOr(body).data;
    return Array.isArray(found) ? found : [];
  };
  const by = filterNames.length ? ` or by ${filterNames.filter((n) => n !== 'sort_by').join(', ')}` : '';
  return {
    key: searchKey(r),
    noun: r.title,
    display: { label: `Find ${r.title}`, description: sentence(`Finds a ${r.title.toLowerCase()} by ID${by}`) },
    operation: { inputFields: fields, perform, sample: r.sample, outputFields: outputFields(r.schema, resources) },
  };
}
