// Dependency-free, so rules in the catalog and the engine read dates alike: the ISO 8601 forms the API
// takes (a date alone is midnight UTC; a time without zone is UTC; offsets with or without a colon).

const ISO = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/i;

/** The instant an ISO 8601 date or date-time names, in ms, or undefined when it names none. */
export function isoInstant(value: string): number | undefined {
  const text = value.trim();
  if (!ISO.test(text)) return undefined;
  const zoned = /^\d{4}-\d{2}-\d{2}$/.test(text)
    ? `${text}T00:00:00Z`
    : /(Z|[+-]\d{2}:?\d{2})$/i.test(text)
      ? text
      : `${text}Z`;
  const ms = Date.parse(zoned.replace(' ', 'T').replace(/([+-]\d{2})(\d{2})$/, '$1:$2'));
  return Number.isNaN(ms) ? undefined : ms;
}
