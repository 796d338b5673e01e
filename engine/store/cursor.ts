// Cursors are opaque, unpadded base64url (no `=`: one official client splits next_url on it).
import { ApiError } from '../errors';

export interface Cursor {
  dateCreated: string;
  id: string;
}

export function encodeCursor(dateCreated: string, id: string): string {
  return Buffer.from(JSON.stringify([dateCreated, id])).toString('base64url');
}

export function decodeCursor(token: string): Cursor {
  try {
    const value: unknown = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
    if (Array.isArray(value) && value.length === 2 && typeof value[0] === 'string' && typeof value[1] === 'string') {
      return { dateCreated: value[0], id: value[1] };
    }
  } catch {
    // fall through to the error below
  }
  throw new ApiError('invalid', 'cursor is invalid: use the value from next_url or previous_url', 422);
}
