/**
 * The one rule for a day a trace gives (header.recordedAt, which prices are read as of), the day a
 * command is asked to price as of (`--prices-as-of`) and the days a price table is given (resolve's
 * `recordedAt`, loadPriceTable's `asOf`: recordedDayFault): a day of the years 1970–9999, as the importers read
 * theirs (mini-swe-agent's unix times). Year 0000 is written as ISO 8601 allows but was no day of any
 * recording: read, it priced a run as of 0000-01-01. Pure: no node:*.
 */

import { z } from 'zod';

/** The first year a recording's day may be in. */
export const FIRST_RECORDED_YEAR = 1970;

/** The years a day may be in, in words. */
export const RECORDED_YEARS = 'the years 1970–9999';

/** `text` (ISO 8601, starting with its 4-digit year) names a day before 1970. */
export function beforeFirstYear(text: string): boolean {
  return Number(text.slice(0, 4)) < FIRST_RECORDED_YEAR;
}

/**
 * What is wrong with `text` as a calendar day written YYYY-MM-DD (undefined: nothing): not so written, a
 * day that does not exist (2026-02-30), or one outside the years 1970–9999.
 */
export function calendarDayProblem(text: string): string | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (m === null) return 'is not a day written YYYY-MM-DD (e.g. 2025-05-01)';
  const date = new Date(0);
  date.setUTCFullYear(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  if (date.toISOString().slice(0, 10) !== text) return 'is no day of the calendar (e.g. 2025-05-01)';
  if (beforeFirstYear(text)) return `is before 1970: give a day of ${RECORDED_YEARS}`;
  return undefined;
}

const ISO_DAY = z.union([z.iso.date(), z.iso.datetime({ offset: true })]);

/**
 * What keeps `at` from being a day prices may be read as of (undefined: nothing), the rule a table's
 * resolve (`recordedAt`) and loadPriceTable (`asOf`) hold as the trace reader and --prices-as-of do:
 * 'no-day' — text that is no ISO 8601 day, or time with its offset, of the calendar (2025-02-30, yesterday),
 * or a Date that is invalid or past 9999; 'before-first-year' — a day before 1970 (0000-01-01, 1969-12-31).
 */
export function recordedDayFault(at: string | Date): 'no-day' | 'before-first-year' | undefined {
  const text = typeof at === 'string' ? at : Number.isFinite(at.getTime()) ? at.toISOString() : '';
  if (!ISO_DAY.safeParse(text).success) return 'no-day';
  return beforeFirstYear(text) ? 'before-first-year' : undefined;
}
