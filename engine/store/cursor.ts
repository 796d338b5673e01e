// Cursors are opaque, unpadded base64url (no `=`: one official client splits next_url on it). They hold
// the sort column's value and the id of the row they follow; a cursor of another sort order is refused.
import { ApiError } from '../errors';

export interface Cursor {
  value: string;
  id: string;
}

export function encodeCursor(value: string, id: string, column = 'date_created'): string {
  const parts = column === 'date_created' ? [value, id] : [value, id, column];
  return Buffer.from(JSON.stringify(parts)).toString('base64url');
}

// A cursor is bound into SQL: only what we could have issued passes (no NUL, which PostgreSQL refuses).
const isStamp = (v: unknown): v is string => typeof v === 'string' && /^\d{4}-\d\d-\d\dT[\d:.]+Z$/.test(v);
const isId = (v: unknown): v is string => typeof v === 'string' && /^[A-Za-z0-9_]{1,64}$/.test(v);

export function decodeCursor(token: string, column = 'date_created'): Cursor {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
  } catch {
    value = undefined;
  }
  if (Array.isArray(value) && isStamp(value[0]) && isId(value[1])) {
    const issuedFor = value.length === 2 ? 'date_created' : value[2];
    if ((value.length === 2 || value.length === 3) && issuedFor === column) return { value: value[0], id: value[1] };
    if (value.length === 3 && typeof issuedFor === 'string') {
      throw new ApiError('invalid', 'cursor belongs to another sort_by: keep sort_by the same while paging', 422);
    }
  }
  throw new ApiError('invalid', 'cursor is invalid: use the value from next_url or previous_url', 422);
}
