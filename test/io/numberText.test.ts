/**
 * One rule for a number written as text (io/numberText.ts decimalNumber): every flag, `--runs-per-day` and
 * `check --tolerance` read `.5e17`, `1e3`, `.05` alike, and refuse hex, Infinity and '' alike.
 */
import { describe, expect, it } from 'vitest';
import { parseTolerance } from '../../src/check/baselineFile.js';
import { runsPerDayFlag } from '../../src/cli/actions/projectRange.js';
import { nonNegativeNumber, positiveInt } from '../../src/cli/parseFlags.js';
import { decimalNumber } from '../../src/io/numberText.js';
import { userErrorOf } from '../helpers.js';

describe('a number written as text: one rule', () => {
  it('decimal numbers with an exponent if wanted; nothing else', () => {
    expect(['1000', ' 1e3 ', '.5', '0.5', '5.', '1E-6', '.5e17'].map(decimalNumber)).toEqual([1000, 1000, 0.5, 0.5, 5, 1e-6, 5e16]);
    for (const bad of ['', ' ', '0x10', 'Infinity', '-1', '+1', '1e', '.', 'e3', '1_000']) expect(decimalNumber(bad)).toBeNaN();
  });

  it('--runs-per-day .5e17 is past the largest count, as 5e16 is (not "no whole number")', () => {
    for (const value of ['.5e17', '5e16']) {
      const issue = userErrorOf(() => runsPerDayFlag(value)).issues[0]!;
      expect([issue.code, issue.message]).toEqual(['too_large', `'${value}' is past 9007199254740991 (2^53 − 1), the most runs a day a projection takes (the largest count held exactly)`]);
    }
    expect(runsPerDayFlag('.5e3')).toBe(500);
    expect(userErrorOf(() => runsPerDayFlag('0x10')).issues[0]!.code).toBe('bad_value');
  });

  it('flags and --tolerance read the same numbers', () => {
    expect(positiveInt('--runs', '.5e3')).toBe(500);
    expect(nonNegativeNumber('--max-cost', ' .05 ')).toBe(0.05);
    expect(['5%', ' 5 % ', '.05', '1e-3', '100%', '.5e1%'].map(parseTolerance)).toEqual([0.05, 0.05, 0.05, 0.001, 1, 0.05]);
    for (const bad of ['', '%', '0x1', '5%%', '%5', 'Infinity', '101%']) expect(userErrorOf(() => parseTolerance(bad)).issues[0]!.field).toBe('--tolerance');
  });
});
