// A parsed value read as an object whose fields are looked up by name.

/** An object that is not null nor an array: a JSON object, its fields readable by name. */
export const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
