/**
 * `--runs-per-day` is read by the one numeric-flag rule (cli/numberFlags.ts positiveInt with its limit), not
 * by a hand-written copy of the 2^53 − 1 check: past the limit it says "is too large: at most …" as every
 * count flag does, quoting the text as written (`1e400` too), with the flag's own reason.
 */
import { describe, expect, it } from 'vitest';
import { runsPerDayFlag } from '../../src/cli/actions/projectRange.js';
import { userErrorOf } from '../helpers.js';

const WHY = 'at most 9007199254740991 (2^53 − 1), the most runs a day a projection takes (the largest count held exactly)';

describe('--runs-per-day', () => {
  it('past 2^53 − 1: too large, in the words every count flag uses', () => {
    for (const written of ['1e16', '9007199254740992', '1e400']) {
      const issue = userErrorOf(() => runsPerDayFlag(written)).issues[0]!;
      expect(issue).toMatchObject({ file: '<command line>', field: '--runs-per-day', code: 'too_large', message: `'${written}' is too large: ${WHY}`, hint: 'give at most 9007199254740991' });
    }
  });

  it('a count up to the limit is taken; 0, a fraction or no number is not a whole number greater than 0', () => {
    expect(runsPerDayFlag('100')).toBe(100);
    expect(runsPerDayFlag('9007199254740991')).toBe(9007199254740991);
    for (const written of ['0', '2.5', 'abc']) expect(userErrorOf(() => runsPerDayFlag(written)).issues[0]!.message).toBe(`'${written}' is not a whole number greater than 0`);
  });
});
