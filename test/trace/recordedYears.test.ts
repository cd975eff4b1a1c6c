/**
 * One rule for a day a trace gives and the day prices are asked for: the years 1970–9999, as the
 * importers read theirs (before: a native header.recordedAt of 0000-01-01 priced the run "as of the day
 * recorded (0000-01-01)", while --prices-as-of 0000-01-01 was refused as "not a day written YYYY-MM-DD").
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { calendarDayProblem } from '../../src/trace/traceDates.js';
import { cli, tempDir } from '../cli/run.js';

function run(recordedAt: string): string {
  const path = join(tempDir(), 'year.jsonl');
  const header = `{"type":"header","schema":"loopcost.trace/1","model":"claude-sonnet-4-20250514","systemTokens":100,"goalTokens":10,"origin":"recorded","recordedAt":"${recordedAt}"}`;
  writeFileSync(path, `${header}\n{"type":"call","inputTokens":1200,"outputTokens":50,"final":true}\n{"type":"end","outcome":"completed"}\n`);
  return path;
}

describe('the years a day may be in', () => {
  it.each(['0000-01-01T00:00:00Z', '1969-12-31T23:59:59Z'])('header.recordedAt %s is refused naming file, line and field', async (at) => {
    const r = await cli('replay', run(at));
    expect([r.code, r.stdout]).toEqual([2, '']);
    expect(r.stderr).toContain("year.jsonl:line 1 field 'recordedAt'");
    expect(r.stderr).toContain('before 1970');
  });

  it('1970-01-01 is read', async () => {
    expect((await cli('replay', run('1970-01-01T00:00:00Z'))).code).toBe(0);
  });

  it('--prices-as-of: a day before 1970 says so; one off the calendar says that; one not so written says that', async () => {
    const r = await cli('replay', run('2025-06-01T00:00:00Z'), '--prices-as-of', '0000-01-01');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("field '--prices-as-of': '0000-01-01' is before 1970: give a day of the years 1970–9999");
    expect(calendarDayProblem('2025-02-30')).toBe('is no day of the calendar (e.g. 2025-05-01)');
    expect(calendarDayProblem('2025-2-3')).toBe('is not a day written YYYY-MM-DD (e.g. 2025-05-01)');
    expect(calendarDayProblem('0099-01-01')).toMatch(/before 1970/); // (Date.UTC reads 0–99 as 1900–1999)
    expect(calendarDayProblem('9999-12-31')).toBeUndefined();
  });
});
