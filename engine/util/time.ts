let last = 0;

/**
 * Now as the API shows dates: UTC ISO 8601 with milliseconds, fixed width so strings sort as times.
 * Strictly increasing within the process, so objects created in one millisecond still list newest first.
 */
export function nowIso(): string {
  last = Math.max(Date.now(), last + 1);
  return new Date(last).toISOString();
}

/**
 * Parses a filter value (ISO date or date-time; no zone means UTC) into the stored form.
 * Returns undefined for anything that is not a real date.
 */
export function parseIsoDate(value: string): string | undefined {
  const text = value.trim();
  if (!/^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/i.test(text)) return undefined;
  const withZone = /^\d{4}-\d{2}-\d{2}$/.test(text)
    ? `${text}T00:00:00Z`
    : /(Z|[+-]\d{2}:?\d{2})$/i.test(text)
      ? text
      : `${text}Z`;
  const ms = Date.parse(withZone.replace(' ', 'T'));
  return Number.isNaN(ms) ? undefined : new Date(ms).toISOString();
}
