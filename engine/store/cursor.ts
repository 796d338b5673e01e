// Cursors are opaque, unpadded base64url (no `=`: one official client splits next_url on it). They hold
// the sort column's value and the id of the row they follow; a cursor of another sort order is refused.
import { ApiError } from '../base/errors';
import { parseIsoDate } from '../base/time';
import { isPlainObject } from '../base/records';

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

/** The JSON inside a base64 token of either alphabet, padded or not; undefined for anything else. */
function tokenJson(token: string): unknown {
  // Node's decoder skips characters outside the alphabet: check the shape first.
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(token)) return undefined;
  try {
    return JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
}

/**
 * The vendor's cursor, `{"dateOffset": <date_created>, "idOffset": <id>}`: the same keyset as ours over
 * date_created, which its official clients may send (kept from the vendor, or built its way). Its date
 * is brought to the stored form, fixed-width UTC ISO compared as text.
 */
function vendorCursor(value: unknown): Cursor | undefined {
  if (!isPlainObject(value)) return undefined;
  const { dateOffset, idOffset } = value;
  const stamp = typeof dateOffset === 'string' ? parseIsoDate(dateOffset) : undefined;
  return stamp && isId(idOffset) ? { value: stamp, id: idOffset } : undefined;
}

export function decodeCursor(token: string, column = 'date_created'): Cursor {
  const value = tokenJson(token);
  if (Array.isArray(value) && isStamp(value[0]) && isId(value[1])) {
    const issuedFor = value.length === 2 ? 'date_created' : value[2];
    if ((value.length === 2 || value.length === 3) && issuedFor === column) return { value: value[0], id: value[1] };
    if (value.length === 3 && typeof issuedFor === 'string') {
      throw new ApiError('invalid', 'cursor belongs to another sort_by: keep sort_by the same while paging', 422);
    }
  }
  // Only a date_created walk can use a vendor cursor; under another sort_by it is refused like any other.
  const vendor = column === 'date_created' ? vendorCursor(value) : undefined;
  if (vendor) return vendor;
  throw new ApiError('invalid', 'cursor is invalid: use the value from next_url or previous_url', 422);
}
