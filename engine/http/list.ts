// The list envelope and the common list parameters (limit, cursors, include, date and metadata filters).
import qs from 'qs';
import { ApiError } from '../base/errors';
import { parseIsoDate } from '../base/time';
import type { ColumnFilter, DateRange, ListPage, ListParams } from '../store/objects';
import type { Operation } from '../catalog/types';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { listQueryView, type SortColumn } from '../catalog/list-filters';
import { dateFilter } from '../catalog/fields';

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

const VIEW = TypeCompiler.Compile(listQueryView);
const RANGE = TypeCompiler.Compile(dateFilter('a date'));
const RANGE_OPS = ['gt', 'gte', 'lt', 'lte'] as const;
const SORT_COLUMNS: readonly SortColumn[] = ['date_created', 'send_date'];

/** Reads the validated query into store parameters. */
export function listParams(query: Record<string, unknown>, operation: Operation): ListParams {
  if (!VIEW.Check(query)) throw new Error(`a query ${operation.path} took fails the common list view`);
  if (query.before !== undefined && query.after !== undefined)
    throw new ApiError('invalid', 'only one of before or after may be given', 422);
  const sortBy = query.sort_by ?? {};
  const column = SORT_COLUMNS.find((c) => sortBy[c] !== undefined);
  return {
    filters: columnFilters(operation, query),
    sort: column ? { column, direction: sortBy[column] ?? 'desc' } : undefined,
    limit: query.limit ?? 10,
    after: query.after,
    before: query.before,
    // total_count is the one include this engine knows; any other value is ignored, as the vendor does.
    includeTotal: query.include?.includes('total_count') ?? false,
    dateCreated: dateRange(query.date_created, 'date_created'),
    metadata: query.metadata,
  };
}

/** Validates and normalizes a `{gt, gte, lt, lte}` filter to stored ISO strings. */
function dateRange(value: unknown, field: string): DateRange | undefined {
  if (value === undefined) return undefined;
  if (!RANGE.Check(value)) throw new Error(`${field}: a validated date filter fails its own schema`);
  const range: DateRange = {};
  for (const op of RANGE_OPS) {
    const raw = value[op];
    if (raw === undefined) continue;
    const iso = parseIsoDate(raw);
    if (!iso) throw new ApiError('invalid', `${field}.${op} must be an ISO 8601 date or date-time`, 422);
    range[op] = iso;
  }
  return range;
}

/** Builds the envelope; page links keep the caller's other query parameters. */
export function envelope(page: ListPage<unknown>, baseUrl: string, query: Record<string, unknown>): ListEnvelope {
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
