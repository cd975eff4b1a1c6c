/**
 * The one reading of a time written in a log (a Codex rollout line, a Claude Code transcript line, a
 * cassette's `date` header), the same on every machine: a time with no time-zone offset is read as UTC
 * (the tools that write these logs write UTC), never in the reading process's zone, so `TZ` cannot move
 * the day a run is priced at. No wall clock: the time is the text's alone.
 *
 * Read: ISO 8601 / RFC 3339 date-times (`2025-06-10T02:00:00.123Z`, `T` or a space between date and
 * time, seconds and fraction optional, offset `Z`, `±HH`, `±HHMM` or `±HH:MM`) and dates (`2025-06-10`),
 * and the three HTTP-date forms of RFC 9110 (`Tue, 10 Jun 2025 02:00:00 GMT`, `Tuesday, 10-Jun-25
 * 02:00:00 GMT`, `Tue Jun 10 02:00:00 2025`) with `GMT`, `UTC`, `UT`, `Z` or `±HHMM`. Anything else, or a
 * day or time that does not exist (February 30, 25:00), is not a time.
 */

/** A time read from a log: ms since the Unix epoch, and whether its text gave no offset (read as UTC). */
export interface LogTime {
  ms: number;
  zoneless: boolean;
}

/** The import note of a file that held a time with no offset (once per file). */
export const ZONELESS_TIMES_NOTE = 'timestamps without a time zone read as UTC';

interface Fields {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  millisecond: number;
  /** Minutes east of UTC; undefined when the text gave no offset. */
  offsetMinutes: number | undefined;
}

const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?\s*([Zz]|[+-]\d{2}(?::?\d{2})?)?)?$/;
/** IMF-fixdate and RFC 850 (and RFC 2822's numeric offsets): `[weekday,] DD Mon YYYY|YY HH:MM[:SS] [zone]`. */
const HTTP_DATE = /^(?:[A-Za-z]+,\s*)?(\d{1,2})[ -]([A-Za-z]{3})[ -](\d{4}|\d{2})\s+(\d{2}):(\d{2})(?::(\d{2}))?(?:\s+(GMT|UTC|UT|Z|[+-]\d{4}))?$/i;
/** C's asctime: `Tue Jun 10 02:00:00 2025` (no zone). */
const ASCTIME = /^[A-Za-z]{3}\s+([A-Za-z]{3})\s+(\d{1,2})\s+(\d{2}):(\d{2}):(\d{2})\s+(\d{4})$/;
const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const MS_PER_MINUTE = 60_000;
/** 400 Gregorian years are 146,097 days. */
const MS_PER_400_YEARS = 146_097 * 86_400_000;

/** Minutes east of UTC of `Z`, `GMT`, `±HH`, `±HHMM` or `±HH:MM`; NaN for an offset past ±23:59. */
function offsetMinutesOf(zone: string): number {
  if (!/^[+-]/.test(zone)) return 0;
  const digits = zone.slice(1).replace(':', '');
  const hours = Number(digits.slice(0, 2));
  const minutes = digits.length > 2 ? Number(digits.slice(2)) : 0;
  if (hours > 23 || minutes > 59) return Number.NaN;
  return (zone.startsWith('-') ? -1 : 1) * (hours * 60 + minutes);
}

function monthOf(name: string): number {
  return MONTHS.indexOf(name.toLowerCase()) + 1;
}

/** A two-digit year (RFC 850) as the century JavaScript engines pick: 00–49 → 20xx, 50–99 → 19xx. */
function fullYear(text: string): number {
  const year = Number(text);
  return text.length > 2 ? year : year < 50 ? 2000 + year : 1900 + year;
}

function isoFields(text: string): Fields | undefined {
  const m = ISO.exec(text);
  if (!m) return undefined;
  const [, year, month, day, hour, minute, second, fraction, zone] = m;
  return {
    year: Number(year),
    month: Number(month),
    day: Number(day),
    hour: Number(hour ?? 0),
    minute: Number(minute ?? 0),
    second: Number(second ?? 0),
    millisecond: fraction === undefined ? 0 : Number(fraction.slice(0, 3).padEnd(3, '0')),
    offsetMinutes: zone === undefined ? undefined : offsetMinutesOf(zone),
  };
}

function httpFields(text: string): Fields | undefined {
  const m = HTTP_DATE.exec(text);
  if (m) {
    const [, day, month, year, hour, minute, second, zone] = m;
    return {
      year: fullYear(year!),
      month: monthOf(month!),
      day: Number(day),
      hour: Number(hour),
      minute: Number(minute),
      second: Number(second ?? 0),
      millisecond: 0,
      offsetMinutes: zone === undefined ? undefined : offsetMinutesOf(zone),
    };
  }
  const a = ASCTIME.exec(text);
  if (!a) return undefined;
  const [, month, day, hour, minute, second, year] = a;
  return { year: Number(year), month: monthOf(month!), day: Number(day), hour: Number(hour), minute: Number(minute), second: Number(second), millisecond: 0, offsetMinutes: undefined };
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function daysInMonth(year: number, month: number): number {
  return month === 2 && isLeapYear(year) ? 29 : DAYS_IN_MONTH[month - 1]!;
}

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

/** Whether the fields name a day and time that exist (24:00:00.000 is the end of the day, as ISO 8601 allows). */
function exists(f: Fields): boolean {
  if (f.month < 1 || f.month > 12 || f.day < 1 || f.day > daysInMonth(f.year, f.month)) return false;
  if (f.hour === 24) return f.minute === 0 && f.second === 0 && f.millisecond === 0;
  return f.hour <= 23 && f.minute <= 59 && f.second <= 59 && !Number.isNaN(f.offsetMinutes ?? 0);
}

/** Ms since the epoch of the fields, the offset taken off (none: UTC). */
function epochMs(f: Fields): number {
  // Date.UTC reads years 0–99 as 19xx: count such a year 400 years on (the calendar repeats) and back.
  const shifted = f.year < 100 ? 1 : 0;
  const ms = Date.UTC(f.year + 400 * shifted, f.month - 1, f.day, f.hour, f.minute, f.second, f.millisecond) - shifted * MS_PER_400_YEARS;
  return ms - (f.offsetMinutes ?? 0) * MS_PER_MINUTE;
}

/** A log's time as ms since the Unix epoch (no offset: UTC); undefined when the text is not a time. */
export function readLogTime(text: string): LogTime | undefined {
  const trimmed = text.trim();
  const fields = isoFields(trimmed) ?? httpFields(trimmed);
  if (fields === undefined || !exists(fields)) return undefined;
  const ms = epochMs(fields);
  return Number.isFinite(ms) ? { ms, zoneless: fields.offsetMinutes === undefined } : undefined;
}

/**
 * Reads the times of one file, remembering whether any gave no offset, so that the file's import says
 * once that they were read as UTC (`notes`).
 */
export class LogClock {
  private zoneless = false;

  /** The ms of `text` (see `readLogTime`); undefined when it is not a time. */
  read(text: string): number | undefined {
    const time = readLogTime(text);
    if (time?.zoneless) this.zoneless = true;
    return time?.ms;
  }

  /** The file's note on its times: `ZONELESS_TIMES_NOTE` when one gave no offset, else none. */
  notes(): string[] {
    return this.zoneless ? [ZONELESS_TIMES_NOTE] : [];
  }
}

/** The unix time (seconds) of the year 10000: a native header's `recordedAt` holds years 1970–9999, before it. */
export const YEAR_10000_UNIX_SECONDS = 253_402_300_800;

/** `ms` since the epoch as an importer writes `header.recordedAt`: an ISO 8601 instant in UTC, its milliseconds only when there are any (`2025-06-10T02:00:00Z`). */
export function isoInstant(ms: number): string {
  return new Date(ms).toISOString().replace(/\.000Z$/, 'Z');
}

/**
 * `header.recordedAt` of a run whose times are unix nanoseconds (OpenTelemetry spans): the earliest time
 * given, 0 being OTLP's "not set"; undefined when none is set, or the earliest is past the year 9999.
 */
export function recordedAtOfNanos(times: readonly bigint[]): string | undefined {
  const set = times.filter((ns) => ns > 0n);
  if (set.length === 0) return undefined;
  const ms = set.reduce((min, ns) => (ns < min ? ns : min)) / 1_000_000n;
  return ms < BigInt(YEAR_10000_UNIX_SECONDS) * 1000n ? isoInstant(Number(ms)) : undefined;
}
