// The shapes of list filters and sorts, apart from the helpers that build them (list-filters.ts), so
// the catalog's types can name them without importing those helpers.
import type { TSchema } from '@sinclair/typebox';

/** The columns filters may read (migrations/003 creates and indexes each). */
export const FILTER_COLUMNS = [
  'status',
  'size',
  'send_date',
  'mail_type',
  'campaign_id',
  'color',
  'billing_group_id',
] as const;
export type FilterColumn = (typeof FILTER_COLUMNS)[number];

/**
 * equals: the column equals the value; any: one of the values (`size[]`); range: `{gt, gte, lt, lte}`
 * dates; scheduled: true selects rows whose column lies after their creation, false the others.
 */
export type FilterMatch = 'equals' | 'any' | 'range' | 'scheduled';

export interface ListFilter {
  /** the query parameter */
  name: string;
  column: FilterColumn;
  match: FilterMatch;
  schema: TSchema;
}

/** Columns a list may be ordered by (`sort_by[<column>]=asc|desc`); date_created is the default. */
export type SortColumn = 'date_created' | 'send_date';
