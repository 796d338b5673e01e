// What a caught value says, whatever was thrown: an Error, a system or database error with a code, or
// anything else.

/** The thrown value's message, or the value itself as text when it has none. */
export function messageOf(thrown: unknown): string {
  if (typeof thrown === 'object' && thrown !== null && 'message' in thrown && typeof thrown.message === 'string')
    return thrown.message;
  return String(thrown);
}

/** The thrown value's `code` (a system error's `ENOENT`, PostgreSQL's `23505`, SQLite's `SQLITE_BUSY`), if it has one. */
export function codeOf(thrown: unknown): string | undefined {
  if (typeof thrown !== 'object' || thrown === null || !('code' in thrown)) return undefined;
  return typeof thrown.code === 'string' ? thrown.code : undefined;
}

/** The thrown value's stack, or its text when it has none. */
export function stackOf(thrown: unknown): string {
  if (typeof thrown === 'object' && thrown !== null && 'stack' in thrown && typeof thrown.stack === 'string')
    return thrown.stack;
  return String(thrown);
}
