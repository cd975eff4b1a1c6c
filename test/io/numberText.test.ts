/**
 * One rule for a number written as text (io/numberText.ts decimalNumber): every flag, `--runs-per-day` and
 * `check --tolerance` read `.5e17`, `1e3`, `.05` alike, and refuse hex, Infinity and '' alike; a share
 * (`--tolerance`, `project --suggest-cap`, `sweep --target-completion`) is such a number or a percentage of one.
 */
import { describe, expect, it } from 'vitest';
import { parseTolerance } from '../../src/check/baselineFile.js';
import { runsPerDayFlag } from '../../src/cli/actions/projectRange.js';
import { nonNegativeNumber, positiveInt } from '../../src/cli/parseFlags.js';
import { decimalNumber, plainShareText, shareNumber } from '../../src/io/numberText.js';
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

describe('a share written as text: the number rule, or a percentage', () => {
  it('shareNumber reads what --tolerance reads, exponents included', () => {
    const texts = ['5%', ' 5 % ', '.05', '1e-3', '100%', '.5e1%', '5e-2'];
    expect(texts.map(shareNumber)).toEqual(texts.map(parseTolerance));
    for (const bad of ['', '%', '0x1', '5%%', '%5', 'Infinity', '-1e-1']) expect(shareNumber(bad)).toBeNaN();
  });

  it('plainShareText: a share written with an exponent as plain decimals that read back as the same number; other text as given', () => {
    expect(['1e-1', '9e1%', '9E-1', ' 2.5e-1 ', '1e0', '1.5e-7', '1e-400', '3e-3%'].map(plainShareText)).toEqual(['0.1', '0.9', '0.9', '0.25', '1', '0.00000015', '0', '0.00003']);
    for (const text of ['1e-1', '9e1%', '1.5e-7', '3e-300%', '7.000000000000001e-5']) expect(Number(plainShareText(text))).toBe(shareNumber(text));
    // Nothing to rewrite, or not a share: the flag's own reader refuses it quoting the text as written.
    for (const text of ['0.9', '90%', '2e0', '1e5%', '1e400', '1e-1x', 'e-1', '']) expect(plainShareText(text)).toBe(text);
  });
});
