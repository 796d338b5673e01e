// List filters and sort orders, declared per list operation. Each filter names the `objects` column it
// reads: a real, indexed column that the store fills from the object's field of the same name, so no
// filter ever searches the JSON body.
import { Type, type TObject, type TSchema } from '@sinclair/typebox';
import { listQuery } from './fields';
import type { HttpMethod, Operation } from './types';
import type { FilterColumn, FilterMatch, ListFilter, SortColumn } from './list-types';

export { FILTER_COLUMNS, type FilterColumn, type FilterMatch, type ListFilter, type SortColumn } from './list-types';

export const filter = (name: string, column: FilterColumn, match: FilterMatch, schema: TSchema): ListFilter => ({
  name,
  column,
  match,
  schema,
});

function sortSchema(columns: readonly SortColumn[]) {
  const direction = Type.Union([Type.Literal('asc'), Type.Literal('desc')]);
  return Type.Object(Object.fromEntries(columns.map((c) => [c, Type.Optional(direction)])), {
    additionalProperties: false,
    maxProperties: 1,
    description: `Order of the list: one of ${columns.join(', ')}, asc or desc (default date_created desc).`,
    examples: [{ [columns[columns.length - 1]]: 'asc' }],
  });
}

/**
 * The common list parameters as every list query has them (filters aside): what reading a list
 * (engine/http/list.ts) checks a validated query against once, which types them without a cast.
 */
export const listQueryView = Type.Object(
  { ...listQuery().properties, sort_by: Type.Optional(sortSchema(['date_created', 'send_date'])) },
  { additionalProperties: true },
);

/** The list operation of a collection, its query built from the common parameters, filters and sorts. */
export function listOperation<const P extends string>(
  path: P,
  summary: string,
  options: { filters?: ListFilter[]; sorts?: SortColumn[] } = {},
): Operation<P, undefined, TObject> {
  const filters = options.filters ?? [];
  const sorts = options.sorts ?? [];
  const common = listQuery();
  const query = Type.Object({
    ...common.properties,
    ...Object.fromEntries(filters.map((f) => [f.name, Type.Optional(f.schema)])),
    ...(sorts.length ? { sort_by: Type.Optional(sortSchema(sorts)) } : {}),
  });
  const method: HttpMethod = 'GET';
  return { name: 'list', method, path, summary, query, response: 'list', filters, sorts };
}
