// The list envelope and the common list parameters (limit, cursors, include, date and metadata filters).
import qs from 'qs';
import { ApiError } from '../errors';
import { parseIsoDate } from '../util/time';
import type { ColumnFilter, DateRange, ListPage, ListParams } from '../store/objects';
import type { Operation } from '../catalog/types';
import type { SortColumn } from '../catalog/list-filters';

export interface ListEnvelope {
  object: 'list';
  data: unknown[];
  count: number;
  next_url: string | null;
  previous_url: string | null;
  total_count?: number;
}

/** The declared filters of the operation present in the query, as column filters. */
function columnFilters(operation: Operation, query: Record<string, unknown>): ColumnFilter[] {
  return (operation.filters ?? [])
    .filter((f) => query[f.name] !== undefined)
    .map((f) => ({
      column: f.column,
      match: f.match,
      value: f.match === 'range' ? dateRange(query[f.name], f.name) : query[f.name],
    }));
}

function sortOrder(query: Record<string, unknown>): ListParams['sort'] {
  const [entry] = Object.entries((query.sort_by ?? {}) as Record<string, 'asc' | 'desc'>);
  return entry ? { column: entry[0] as SortColumn, direction: entry[1] } : undefined;
}

/** Reads the validated query into store parameters. */
export function listParams(query: Record<string, unknown>, operation: Operation): ListParams {
  if (query.before !== undefined && query.after !== undefined)
    throw new ApiError('invalid', 'only one of before or after may be given', 422);
  return {
    filters: columnFilters(operation, query),
    sort: sortOrder(query),
    limit: query.limit as number,
    after: query.after as string | undefined,
    before: query.before as string | undefined,
    // total_count is the one include this engine knows; any other value is ignored, as the vendor does.
    includeTotal: Array.isArray(query.include) && query.include.includes('total_count'),
    dateCreated: dateRange(query.date_created, 'date_created'),
    metadata: query.metadata as Record<string, string> | undefined,
  };
}

/** Validates and normalizes a `{gt, gte, lt, lte}` filter to stored ISO strings. */
function dateRange(value: unknown, field: string): DateRange | undefined {
  if (value === undefined) return undefined;
  const range: DateRange = {};
  for (const [op, raw] of Object.entries(value as Record<string, string>)) {
    const iso = parseIsoDate(String(raw));
    if (!iso) throw new ApiError('invalid', `${field}.${op} must be an ISO 8601 date or date-time`, 422);
    range[op as keyof DateRange] = iso;
  }
  return range;
}

/** Builds the envelope; page links keep the caller's other query parameters. */
export function envelope(page: ListPage, baseUrl: string, query: Record<string, unknown>): ListEnvelope {
  const link = (cursor: string | undefined, name: 'after' | 'before') => {
    if (!cursor) return null;
    const rest = { ...query };
    delete rest.after;
    delete rest.before;
    return `${baseUrl}?${qs.stringify({ ...rest, [name]: cursor }, { encodeValuesOnly: true, arrayFormat: 'brackets' })}`;
  };
  const body: ListEnvelope = {
    object: 'list',
    data: page.data,
    count: page.data.length,
    next_url: link(page.next, 'after'),
    previous_url: link(page.previous, 'before'),
  };
  if (page.totalCount !== undefined) body.total_count = page.totalCount;
  return body;
}
