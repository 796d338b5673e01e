// Cursors are opaque, unpadded base64url (no `=`: one official client splits next_url on it).
import { ApiError } from '../errors';

export interface Cursor {
  dateCreated: string;
  id: string;
}

export function encodeCursor(dateCreated: string, id: string): string {
  return Buffer.from(JSON.stringify([dateCreated, id])).toString('base64url');
}

const isStamp = (v: unknown): v is string => typeof v === 'string' && /^\d{4}-\d\d-\d\dT[\d:.]+Z$/.test(v);
const isId = (v: unknown): v is string => typeof v === 'string' && /^[A-Za-z0-9_]{1,64}$/.test(v);

export function decodeCursor(token: string): Cursor {
  try {
    const value: unknown = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
    // A cursor is bound into SQL: only what we could have issued passes (no NUL, which PostgreSQL refuses).
    if (Array.isArray(value) && value.length === 2 && isStamp(value[0]) && isId(value[1])) {
      return { dateCreated: value[0], id: value[1] };
    }
  } catch {
    // fall through to the error below
  }
  throw new ApiError('invalid', 'cursor is invalid: use the value from next_url or previous_url', 422);
}
