// Type guards for what the packs receive untyped (form input, response bodies, stored data), so the
// code narrows a value by looking at it rather than asserting its type.

/** A plain object (not null, not an array). */
export const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** `value` when it is a plain object, else an empty one. */
export const plainObjectOr = (value: unknown): Record<string, unknown> => (isPlainObject(value) ? value : {});

export const isString = (value: unknown): value is string => typeof value === 'string';

/** The strings of `value` when it is an array (other entries dropped), else none. */
export const stringsOf = (value: unknown): string[] => (Array.isArray(value) ? value.filter(isString) : []);
