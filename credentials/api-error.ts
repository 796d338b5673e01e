// The engine's error envelope (`{ error: { message, code, status_code } }`), as both packs read it from
// a failed response.

/** `value[name]` when `value` is an object, else undefined. */
const field = (value: unknown, name: string): unknown =>
  typeof value === 'object' && value !== null && name in value ? Reflect.get(value, name) : undefined;

/** The message and code of an error response; a body without the envelope falls back to the status. */
export function apiError(status: number, body: unknown): { message: string; code: string } {
  const error = field(body, 'error');
  const message = field(error, 'message');
  const code = field(error, 'code');
  return {
    message: typeof message === 'string' ? message : `HTTP ${status}`,
    code: typeof code === 'string' ? code : 'error',
  };
}
