// Reading the event log: one event by id, or a keyset page of an account's events in one mode, newest
// first, by type and creation date. Events are stored already serialized in the event object's shape.
import type { Knex } from 'knex';
import { decodeCursor, encodeCursor } from './cursor';
import type { DateRange, ListPage } from './object-list';
import type { Scope } from './scope';
import { parseStored, type StoredObjects } from './stored';

type Event = StoredObjects['events'];

/** The columns of `events` a read looks at. */
interface EventRow {
  id: string;
  account_id: string;
  mode: Scope['mode'];
  event_type: string;
  reference_id: string | null;
  date_created: string;
  body: string;
}

export interface EventListParams {
  limit: number;
  after?: string;
  before?: string;
  /** any of these types */
  eventTypes?: readonly string[];
  referenceId?: string;
  dateCreated?: DateRange;
  includeTotal?: boolean;
}

const RANGE_OPS = { gt: '>', gte: '>=', lt: '<', lte: '<=' } as const;

function scoped(knex: Knex, scope: Scope, params: EventListParams) {
  const query = knex<EventRow>('events').where({ account_id: scope.accountId, mode: scope.mode });
  if (params.eventTypes?.length === 1) query.where('event_type', params.eventTypes[0]);
  else if (params.eventTypes?.length) query.whereIn('event_type', params.eventTypes);
  if (params.referenceId) query.where('reference_id', params.referenceId);
  for (const op of ['gt', 'gte', 'lt', 'lte'] as const) {
    const value = params.dateCreated?.[op];
    if (value !== undefined) query.where('date_created', RANGE_OPS[op], value);
  }
  return query;
}

export async function getEvent(knex: Knex, scope: Scope, id: string): Promise<Event | undefined> {
  const row = await knex<EventRow>('events')
    .select('body')
    .where({ account_id: scope.accountId, mode: scope.mode, id })
    .first();
  return row ? parseStored('events', row.body) : undefined;
}

export async function listEvents(knex: Knex, scope: Scope, params: EventListParams): Promise<ListPage<Event>> {
  const base = scoped(knex, scope, params);
  const backwards = Boolean(params.before);
  const token = params.after ?? params.before;
  const cursor = token ? decodeCursor(token) : undefined;
  const descending = !backwards;
  const query = base
    .clone()
    .select('id', 'date_created', 'body')
    .limit(params.limit + 1)
    .orderBy([
      { column: 'date_created', order: descending ? 'desc' : 'asc' },
      { column: 'id', order: descending ? 'desc' : 'asc' },
    ]);
  if (cursor) query.whereRaw(`(date_created, id) ${descending ? '<' : '>'} (?, ?)`, [cursor.value, cursor.id]);
  const rows = await query;
  const more = rows.length > params.limit;
  const pageRows = rows.slice(0, params.limit);
  if (backwards) pageRows.reverse();
  const first = pageRows[0];
  const last = pageRows[pageRows.length - 1];
  const page: ListPage<Event> = {
    data: pageRows.map((row) => parseStored('events', row.body)),
    next: (backwards || more) && last ? encodeCursor(last.date_created, last.id) : undefined,
    previous:
      (backwards ? more : Boolean(params.after)) && first ? encodeCursor(first.date_created, first.id) : undefined,
  };
  if (params.includeTotal) {
    const row = await base.clone().count({ n: '*' }).first();
    page.totalCount = Number(row?.n ?? 0);
  }
  return page;
}
