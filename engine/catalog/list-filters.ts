// List filters and sort orders, declared per list operation. Each filter names the `objects` column it
// reads: a real, indexed column that the store fills from the object's field of the same name, so no
// filter ever searches the JSON body.
import { Type, type TSchema } from '@sinclair/typebox';
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

/** The list operation of a collection, its query built from the common parameters, filters and sorts. */
export function listOperation(
  path: string,
  summary: string,
  options: { filters?: ListFilter[]; sorts?: SortColumn[] } = {},
): Operation {
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
