// US business days: weekdays that are not federal holidays (5 U.S.C. 6103), with a holiday on a
// Saturday observed the Friday before and one on a Sunday the Monday after.

const DAY_MS = 86_400_000;

/** The date (UTC midnight, ms) of the nth `weekday` (0 Sunday) of a month; n = -1 is the last. */
function nthWeekday(year: number, month: number, weekday: number, n: number): number {
  if (n > 0) {
    const first = new Date(Date.UTC(year, month, 1)).getUTCDay();
    return Date.UTC(year, month, 1 + ((weekday - first + 7) % 7) + (n - 1) * 7);
  }
  const lastDay = new Date(Date.UTC(year, month + 1, 0));
  return lastDay.getTime() - ((lastDay.getUTCDay() - weekday + 7) % 7) * DAY_MS;
}

function observed(ms: number): number {
  const day = new Date(ms).getUTCDay();
  return day === 6 ? ms - DAY_MS : day === 0 ? ms + DAY_MS : ms;
}

const cache = new Map<number, Set<number>>();

/** The observed federal holidays of a year, as UTC-midnight milliseconds. */
export function federalHolidays(year: number): Set<number> {
  let days = cache.get(year);
  if (days) return days;
  days = new Set([
    observed(Date.UTC(year, 0, 1)), // New Year's Day
    nthWeekday(year, 0, 1, 3), // Birthday of Martin Luther King, Jr.
    nthWeekday(year, 1, 1, 3), // Washington's Birthday
    nthWeekday(year, 4, 1, -1), // Memorial Day
    observed(Date.UTC(year, 5, 19)), // Juneteenth
    observed(Date.UTC(year, 6, 4)), // Independence Day
    nthWeekday(year, 8, 1, 1), // Labor Day
    nthWeekday(year, 9, 1, 2), // Columbus Day
    observed(Date.UTC(year, 10, 11)), // Veterans Day
    nthWeekday(year, 10, 4, 4), // Thanksgiving Day
    observed(Date.UTC(year, 11, 25)), // Christmas Day
  ]);
  // New Year's Day of the next year observed on this year's December 31
  const nextNewYear = observed(Date.UTC(year + 1, 0, 1));
  if (new Date(nextNewYear).getUTCFullYear() === year) days.add(nextNewYear);
  cache.set(year, days);
  return days;
}

export function isBusinessDay(ms: number): boolean {
  const date = new Date(ms);
  const day = date.getUTCDay();
  return day !== 0 && day !== 6 && !federalHolidays(date.getUTCFullYear()).has(ms);
}

/** `YYYY-MM-DD`, `days` business days after the UTC date of `from`. */
export function addBusinessDays(from: Date, days: number): string {
  let ms = Date.UTC(from.getUTCFullYear(), from.getUTCMonth(), from.getUTCDate());
  for (let left = days; left > 0;) {
    ms += DAY_MS;
    if (isBusinessDay(ms)) left--;
  }
  return new Date(ms).toISOString().slice(0, 10);
}
