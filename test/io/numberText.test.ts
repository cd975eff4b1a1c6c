/**
 * One rule for a number written as text (io/numberText.ts decimalNumber): every flag, `--runs-per-day` and
 * `check --tolerance` read `.5e17`, `1e3`, `.05` alike, and refuse hex, Infinity and '' alike; a share
 * (`--tolerance`, `project --suggest-cap`, `sweep --target-completion`) is such a number or a percentage of one.
 */
import { describe, expect, it } from 'vitest';
import { parseTolerance } from '../../src/check/baselineFile.js';
import { runsPerDayFlag } from '../../src/cli/actions/projectRange.js';
import { nonNegativeNumber } from '../../src/flags/settingsFlags.js';
import { positiveInt } from '../../src/flags/numberFlags.js';
import { decimalNumber, readsAsZeroOnly, shareFlagValue, shareNumber } from '../../src/io/numberText.js';
import { userErrorOf } from '../helpers.js';

describe('a number written as text: one rule', () => {
  it('decimal numbers with an exponent if wanted; nothing else', () => {
    expect(['1000', ' 1e3 ', '.5', '0.5', '5.', '1E-6', '.5e17'].map(decimalNumber)).toEqual([1000, 1000, 0.5, 0.5, 5, 1e-6, 5e16]);
    for (const bad of ['', ' ', '0x10', 'Infinity', '-1', '+1', '1e', '.', 'e3', '1_000']) expect(decimalNumber(bad)).toBeNaN();
  });

  it('--runs-per-day .5e17 is past the largest count, as 5e16 is (not "no whole number")', () => {
    for (const value of ['.5e17', '5e16']) {
      const issue = userErrorOf(() => runsPerDayFlag(value)).issues[0]!;
      expect([issue.code, issue.message]).toEqual(['too_large', `'${value}' is too large: at most 9007199254740991 (2^53 − 1), the most runs a day a projection takes (the largest count held exactly)`]);
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

  it('shareFlagValue: what every share flag says of a sign, a share that reads as 0, and one out of its range', () => {
    const rule = { flag: '--f', accepts: (share: number) => share >= 0 && share <= 1, notA: 'is not an f', hint: 'write 0.5' };
    expect(['0', '.5', '5e-1', '50 %', ' 5e1% ', '1e-300'].map((text) => shareFlagValue(text, rule))).toEqual([0, 0.5, 0.5, 0.5, 0.5, 1e-300]);
    const said = (text: string, r = rule) => {
      const issue = userErrorOf(() => shareFlagValue(text, r)).issues[0]!;
      return [issue.field, issue.message, issue.hint];
    };
    expect(said('-0')).toEqual(['--f', "'-0' has a sign, which a share is written without", 'write 0']);
    expect(said('+5%')).toEqual(['--f', "'+5%' has a sign, which a share is written without", 'write 5%']);
    expect(said('-5%')).toEqual(['--f', "'-5%' is not an f", 'write 0.5']);
    expect(said('-1e-400')).toEqual(['--f', "'-1e-400' is not an f", 'write 0.5']);
    for (const tiny of ['1e-400', '1e-323%', '0.5e-330']) expect(said(tiny)).toEqual(['--f', `'${tiny}' is too small a share to tell from 0 (it reads as 0 in double precision)`, 'write 0 if 0 is meant']);
    const above0 = { ...rule, accepts: (share: number) => share > 0 && share < 1, smallHint: 'write at least 1e-16' };
    expect(said('1e-400', above0)).toEqual(['--f', "'1e-400' is too small a share to tell from 0 (it reads as 0 in double precision)", 'write at least 1e-16']);
    expect(said('-0', above0)).toEqual(['--f', "'-0' is not an f", 'write 0.5']);
    expect(said('0e-400', above0)).toEqual(['--f', "'0e-400' is not an f", 'write 0.5']);
    for (const bad of ['', '%', '1e400', '101%', '0x1', '--0']) expect(said(bad)[1]).toBe(`'${bad}' is not an f`);
  });

  it('shareFlagValue: 0 where the flag takes none says what 0 is not and the smallest useful value (sweep --target-completion 0 was taken)', () => {
    const rule = { flag: '--f', accepts: (share: number) => share > 0 && share <= 1, notA: 'is not an f', hint: 'write 0.5', zeroNot: 'asks for no f', smallHint: 'write at least 0.01' };
    const said = (text: string) => {
      const issue = userErrorOf(() => shareFlagValue(text, rule)).issues[0]!;
      return [issue.field, issue.message, issue.hint];
    };
    for (const zero of ['0', '0%', ' 0.0 ', '0e5', '0e-400']) expect(said(zero)).toEqual(['--f', `'${zero}' asks for no f`, 'write at least 0.01']);
    expect(said('1e-400')).toEqual(['--f', "'1e-400' is too small a share to tell from 0 (it reads as 0 in double precision)", 'write at least 0.01']);
    expect(said('-0')).toEqual(['--f', "'-0' asks for no f", 'write at least 0.01']);
    expect(said('-0.5')).toEqual(['--f', "'-0.5' is not an f", 'write 0.5']);
    expect(['1e-300', '1', '100%'].map((text) => shareFlagValue(text, rule))).toEqual([1e-300, 1, 1]);
  });

  it('readsAsZeroOnly: written nonzero, read as 0', () => {
    expect(['1e-400', '1e-323%', ' 9e-999 '].map(readsAsZeroOnly)).toEqual([true, true, true]);
    expect(['0', '0e-400', '0.000', '5e-324', '1e-300%', 'x', ''].map(readsAsZeroOnly)).toEqual([false, false, false, false, false, false, false]);
  });
});
