import { isoInstant } from '../catalog/dates';

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
  const ms = isoInstant(value);
  return ms === undefined ? undefined : new Date(ms).toISOString();
}
