// The `objects` row of an API object: its scope, stamps, body, and the filter columns filled from the
// object's fields of the same name (catalog/list-filters.ts), so lists filter on indexed columns.
import { FILTER_COLUMNS } from '../catalog/list-filters';
import type { Scope } from './scope';

export type ApiObject = Record<string, unknown> & { id: string; date_created: string; date_modified: string };

export type ObjectRow = Record<string, unknown> & { id: string; body: string };

/** The columns of `objects` a read by column names (not every filter column is listed). */
export interface ObjectColumns {
  id: string;
  parent_id: string | null;
  account_id: string;
  mode: Scope['mode'];
  kind: string;
  date_created: string;
  date_modified: string;
  deleted: boolean;
  status: string | null;
  body: string;
}

function columnValue(value: unknown): unknown {
  if (value === undefined || value === null) return null;
  if (typeof value === 'boolean' || typeof value === 'number') return value;
  return String(value);
}

/** The filter columns of an object (null for fields it does not have). */
export function filterColumns(object: ApiObject): Record<string, unknown> {
  return Object.fromEntries(FILTER_COLUMNS.map((column) => [column, columnValue(object[column])]));
}

export function objectRow(scope: Scope, kind: string, object: ApiObject, parent?: string): ObjectRow {
  return {
    id: object.id,
    parent_id: parent ?? null,
    account_id: scope.accountId,
    mode: scope.mode,
    kind,
    date_created: object.date_created,
    date_modified: object.date_modified,
    deleted: object.deleted === true,
    ...filterColumns(object),
    body: JSON.stringify(object),
  };
}
