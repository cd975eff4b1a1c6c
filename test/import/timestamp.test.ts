/**
 * The one reading of a log's times (src/import/common/timestamp.ts): a time with no offset is UTC,
 * whatever the process's time zone, and what is not a time (or names a day that does not exist) is none.
 */
import { describe, expect, it } from 'vitest';
import { LogClock, readLogTime, ZONELESS_TIMES_NOTE } from '../../src/import/common/timestamp.js';

const JUNE_10_0200_UTC = Date.UTC(2025, 5, 10, 2, 0, 0);

describe('readLogTime', () => {
  it('reads an ISO 8601 time with no offset as UTC (not local time), and says it had none', () => {
    // Date.parse reads these in the process's zone: under TZ=Asia/Kolkata, 5.5 hours earlier.
    for (const text of ['2025-06-10T02:00:00.000', '2025-06-10T02:00:00', '2025-06-10T02:00', '2025-06-10 02:00:00', '2025-06-10t02:00:00']) {
      expect(readLogTime(text), text).toEqual({ ms: JUNE_10_0200_UTC, zoneless: true });
    }
    expect(readLogTime('2025-06-10')).toEqual({ ms: Date.UTC(2025, 5, 10), zoneless: true });
    expect(readLogTime('2025-06-10T02:00:00.123456')).toEqual({ ms: JUNE_10_0200_UTC + 123, zoneless: true });
    expect(readLogTime('2025-06-10T02:00:00,5')).toEqual({ ms: JUNE_10_0200_UTC + 500, zoneless: true });
  });

  it('reads a time with an offset at that offset', () => {
    for (const text of ['2025-06-10T02:00:00Z', '2025-06-10T02:00:00.000z', '2025-06-10T07:30:00+05:30', '2025-06-10T07:30:00+0530', '2025-06-09T21:00:00-05', '2025-06-10T02:00:00+00:00']) {
      expect(readLogTime(text), text).toEqual({ ms: JUNE_10_0200_UTC, zoneless: false });
    }
    expect(readLogTime('2025-06-09T24:00:00Z')).toEqual({ ms: Date.UTC(2025, 5, 10), zoneless: false });
  });

  it('reads the HTTP-date forms (a cassette `date` header); asctime has no zone and is read as UTC', () => {
    expect(readLogTime('Tue, 10 Jun 2025 02:00:00 GMT')).toEqual({ ms: JUNE_10_0200_UTC, zoneless: false });
    expect(readLogTime('Tuesday, 10-Jun-25 02:00:00 GMT')).toEqual({ ms: JUNE_10_0200_UTC, zoneless: false });
    expect(readLogTime('Tue, 10 Jun 2025 07:30:00 +0530')).toEqual({ ms: JUNE_10_0200_UTC, zoneless: false });
    expect(readLogTime('Tue, 10 Jun 2025 02:00:00')).toEqual({ ms: JUNE_10_0200_UTC, zoneless: true });
    expect(readLogTime('Tue Jun 10 02:00:00 2025')).toEqual({ ms: JUNE_10_0200_UTC, zoneless: true });
    expect(readLogTime('Sun, 06 Nov 94 08:49:37 GMT')?.ms).toBe(Date.UTC(1994, 10, 6, 8, 49, 37));
  });

  it('reads years before 100 as written (not 19xx)', () => {
    expect(readLogTime('0050-01-01T00:00:00Z')?.ms).toBe(Date.parse('0050-01-01T00:00:00Z'));
  });

  it('refuses what is not a time or names a day or time that does not exist', () => {
    for (const text of ['', 'yesterday', '1749520800', 'June 10, 2025', '2025-02-30T00:00:00Z', '2025-13-01T00:00:00Z', '2025-06-10T24:00:01Z', '2025-06-10T02:00:60Z', '2025-06-10T02:00:00+24:00', '2025-06-10T02:00:00.Z', 'Tue, 10 Foo 2025 02:00:00 GMT']) {
      expect(readLogTime(text), text).toBeUndefined();
    }
    expect(readLogTime('2024-02-29T00:00:00Z')?.ms).toBe(Date.UTC(2024, 1, 29));
    expect(readLogTime('2100-02-29T00:00:00Z')).toBeUndefined();
  });
});

describe('LogClock', () => {
  it("notes once that a file's times without a zone were read as UTC; none when every time had one", () => {
    const clock = new LogClock();
    expect(clock.read('2025-06-10T02:00:00Z')).toBe(JUNE_10_0200_UTC);
    expect(clock.notes()).toEqual([]);
    expect(clock.read('2025-06-10T02:00:00')).toBe(JUNE_10_0200_UTC);
    expect(clock.read('2025-06-10T03:00:00')).toBe(JUNE_10_0200_UTC + 3_600_000);
    expect(clock.read('not a time')).toBeUndefined();
    expect(clock.notes()).toEqual([ZONELESS_TIMES_NOTE]);
  });
});
