// Lists: filtered on indexed columns, ordered by a declared column, keyset-paginated on (that column, id)
// so a deep page costs what the first does.
import type { Knex } from 'knex';
import type { FilterMatch, SortColumn } from '../catalog/list-filters';
import { decodeCursor, encodeCursor } from './cursor';
import type { ApiObject } from './columns';
import type { Reader, Slot } from './reader';
import type { Scope } from './scope';
import { parseStored, type StoredObject } from './stored';

export interface DateRange {
  gt?: string;
  gte?: string;
  lt?: string;
  lte?: string;
}

export interface ColumnFilter {
  column: string;
  match: FilterMatch;
  /** equals: the value; any: the values; range: a DateRange; scheduled: a boolean */
  value: unknown;
}

export interface ListParams {
  limit: number;
  after?: string;
  before?: string;
  dateCreated?: DateRange;
  metadata?: Record<string, string>;
  filters?: ColumnFilter[];
  /** only objects living under this one */
  parent?: string;
  sort?: { column: SortColumn; direction: 'asc' | 'desc' };
  includeTotal?: boolean;
}

/** A page of a list: its objects (or, read unparsed, their stored texts) and the cursors around it. */
export interface ListPage<T = ApiObject> {
  data: T[];
  /** cursor for the next page, if there is one */
  next?: string;
  /** cursor for the previous page, if there is one */
  previous?: string;
  totalCount?: number;
}

const RANGE_OPS = { gt: '>', gte: '>=', lt: '<', lte: '<=' } as const;

function applyRange(query: Knex.QueryBuilder, column: string, range: DateRange): void {
  for (const op of ['gt', 'gte', 'lt', 'lte'] as const) {
    const value = range[op];
    if (value !== undefined) query.where(column, RANGE_OPS[op], value);
  }
}

function applyFilter(query: Knex.QueryBuilder, { column, match, value }: ColumnFilter): void {
  if (match === 'equals') query.where(column, value as string | boolean);
  else if (match === 'any') query.whereIn(column, value as string[]);
  else if (match === 'range') applyRange(query, column, value as DateRange);
  // scheduled: pieces sent later than created carry a send_date after date_created (stored alike, ISO)
  else if (value === true) query.whereRaw('?? > ??', [column, 'date_created']);
  else query.where((q) => q.whereNull(column).orWhereRaw('?? <= ??', [column, 'date_created']));
}

/** The scoped, filtered query every list page and count starts from. */
function filteredQuery(knex: Knex, scope: Scope, kind: string, params: ListParams): Knex.QueryBuilder {
  const query = knex('objects').where({ account_id: scope.accountId, mode: scope.mode, kind, deleted: false });
  if (params.parent) query.where('parent_id', params.parent);
  if (params.dateCreated) applyRange(query, 'date_created', params.dateCreated);
  for (const filter of params.filters ?? []) applyFilter(query, filter);
  for (const [key, value] of Object.entries(params.metadata ?? {})) {
    query.whereIn(
      'id',
      knex('object_metadata')
        .select('object_id')
        .where({ account_id: scope.accountId, mode: scope.mode, kind, key, value }),
    );
  }
  return query;
}

/** What decides a page query's SQL, and the values it binds (in slot order). */
interface PageShape {
  sort: { column: SortColumn; direction: 'asc' | 'desc' };
  descending: boolean;
  cursor: boolean;
  limit: number;
}

/**
 * The page query of a list without filters (the common one: every page of a plain list walk), with its
 * values in slots; `slotOf(i)` gives the i-th of [account, mode, kind, cursor value, cursor id].
 */
function plainPageQuery(knex: Knex, shape: PageShape, slotOf: Slot): Knex.QueryBuilder {
  const query = knex('objects').where({ account_id: slotOf(0), mode: slotOf(1), kind: slotOf(2), deleted: false });
  return pageOf(query, shape, [slotOf(3), slotOf(4)]);
}

/** A list query's page: the keyset condition, the order both ways, one row more than the page. */
function pageOf(base: Knex.QueryBuilder, shape: PageShape, cursor: readonly Knex.Value[]): Knex.QueryBuilder {
  const { sort, descending } = shape;
  // Rows without a value in the sort column cannot be placed on a keyset: they are not listed in that order.
  if (sort.column !== 'date_created') base.whereNotNull(sort.column);
  const query = base.select('id', 'body', { sort_value: sort.column }).limit(shape.limit + 1);
  if (shape.cursor) query.whereRaw(`(??, id) ${descending ? '<' : '>'} (?, ?)`, [sort.column, ...cursor]);
  const order = descending ? 'desc' : 'asc';
  return query.orderBy([
    { column: sort.column, order },
    { column: 'id', order },
  ]);
}

interface PageRow {
  id: string;
  body: string;
  /** the sort column's value */
  sort_value: string;
}

type PreparedPage = (values: unknown[]) => Promise<PageRow[]>;
/** Plain page queries built and prepared once per shape (a handful: sort, direction, cursor, limit). */
const plainPages = new WeakMap<Reader, Map<string, PreparedPage>>();

function preparedPlainPage(knex: Knex, reader: Reader, shape: PageShape): PreparedPage {
  let byShape = plainPages.get(reader);
  if (!byShape) plainPages.set(reader, (byShape = new Map()));
  const key = JSON.stringify(shape);
  let prepared = byShape.get(key);
  if (!prepared) {
    if (byShape.size > 200) byShape.clear();
    prepared = reader.prepare((slot) => plainPageQuery(knex, shape, slot));
    byShape.set(key, prepared);
  }
  return prepared;
}

const isPlain = (params: ListParams) =>
  !params.parent && !params.dateCreated && !params.filters?.length && Object.keys(params.metadata ?? {}).length === 0;

/** A stored object's JSON text as its row holds it: what `JSON.stringify` made of it when it was written. */
export class StoredBody {
  constructor(readonly text: string) {}
}

export async function listPage<K extends string>(
  knex: Knex,
  reader: Reader,
  scope: Scope,
  kind: K,
  params: ListParams,
): Promise<ListPage<StoredObject<K>>> {
  const page = await listPageText(knex, reader, scope, kind, params);
  return { ...page, data: page.data.map((body) => parseStored(kind, body.text)) };
}

/** A page as its rows' JSON texts, unparsed: an answer that needs no change to them splices them in. */
export async function listPageText(
  knex: Knex,
  reader: Reader,
  scope: Scope,
  kind: string,
  params: ListParams,
): Promise<ListPage<StoredBody>> {
  const sort = params.sort ?? { column: 'date_created', direction: 'desc' };
  const backwards = Boolean(params.before);
  const token = params.after ?? params.before;
  const cursor = token ? decodeCursor(token, sort.column) : undefined;
  // Walking forward follows the requested direction; walking back runs against it, then reverses.
  const descending = (sort.direction === 'desc') !== backwards;
  const shape: PageShape = { sort, descending, cursor: Boolean(cursor), limit: params.limit };
  const values = [scope.accountId, scope.mode, kind, cursor?.value, cursor?.id];
  const rows = isPlain(params)
    ? await preparedPlainPage(knex, reader, shape)(values)
    : await reader.all<PageRow>(
        pageOf(filteredQuery(knex, scope, kind, params), shape, [cursor?.value ?? null, cursor?.id ?? null]),
      );
  const more = rows.length > params.limit;
  const pageRows = rows.slice(0, params.limit);
  if (backwards) pageRows.reverse();

  const first = pageRows[0];
  const last = pageRows[pageRows.length - 1];
  // the sort column's value as the row's column holds it: the object's own field, as written with it
  const at = (row: PageRow) => encodeCursor(String(row.sort_value), row.id, sort.column);
  const page: ListPage<StoredBody> = {
    data: pageRows.map((row) => new StoredBody(row.body)),
    next: (backwards || more) && last ? at(last) : undefined,
    previous: (backwards ? more : Boolean(params.after)) && first ? at(first) : undefined,
  };
  if (params.includeTotal) {
    const base = filteredQuery(knex, scope, kind, params);
    if (sort.column !== 'date_created') base.whereNotNull(sort.column);
    const row = await reader.first<{ n: number | string }>(base.count({ n: '*' }));
    page.totalCount = Number(row?.n ?? 0);
  }
  return page;
}
