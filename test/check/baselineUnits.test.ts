/**
 * Which unit a baseline's run-cost range (`expectations.runs.costUsd`) is read in is decided by the file's
 * format (`baseline`), never by how large its numbers are: formats 1 and 2 held whole picodollars, so a
 * hand-written format 2 file whose runs cost 3 to 5 picodollars reads as $0.000000000003–$0.000000000005,
 * not $3–$5; format 3 holds USD, so the same numbers there are $3–$5. The `figures` are USD in every format.
 */
import { describe, expect, it } from 'vitest';
import { parseBaseline } from '../../src/check/baseline.js';
import { UserError } from '../../src/errors.js';

/** A hand-written baseline of one scenario whose runs cost `range` (in the format's unit) and whose figures are tiny amounts in USD. */
function baseline(format: 1 | 2 | 3, range: { min: number; max: number }): string {
  const figures = { runs: 2, completionRate: 1, falseStopRate: 0, wastedShare: 0, costUsd: 8e-12, costPerRunUsd: { mean: 4e-12, p50: 3e-12, p95: 5e-12, max: 5e-12 }, costPerCompletedUsd: 4e-12 };
  return JSON.stringify({
    baseline: `loopcost.check-baseline/${format}`,
    loopcost: '0.1.0',
    prices: { name: 'test', version: '1', hash: 'abc' },
    ...(format === 1 ? {} : { models: [] }),
    scenarios: [{ source: 'tiny.yaml', name: 'tiny', settings: {}, figures, expectations: { 'runs.costUsd': range, 'runs.steps': { min: 1, max: 1 }, 'population.costPerRunUsd.max': 5e-12 } }],
  });
}

describe("a baseline's run-cost range is read in its format's unit", () => {
  it('small whole picodollars in format 1 or 2 are picodollars: read as their USD, not as dollars', () => {
    for (const format of [1, 2] as const) {
      const read = parseBaseline(baseline(format, { min: 3, max: 5 }), 'b.json');
      expect(read.scenarios[0]!.expectations['runs.costUsd']).toEqual({ min: 3e-12, max: 5e-12 });
      expect(read.scenarios[0]!.figures.costPerRunUsd.max).toBe(5e-12);
    }
  });

  it('the same numbers in format 3 are USD, as written; its tiny USD amounts stay as written too', () => {
    // $3 to $5, more than the most a run cost ($5e-12): refused as figures no runs make (baselineSanity.ts).
    expect(() => parseBaseline(baseline(3, { min: 3, max: 5 }), 'b.json')).toThrow('is 5, more than the most a run cost (figures.costPerRunUsd.max 5e-12)');
    expect(parseBaseline(baseline(3, { min: 3e-12, max: 5e-12 }), 'b.json').scenarios[0]!.expectations['runs.costUsd']).toEqual({ min: 3e-12, max: 5e-12 });
  });

  it('a fraction in format 2 is not taken for USD: it is refused as not whole picodollars', () => {
    let error: unknown;
    try {
      parseBaseline(baseline(2, { min: 3e-12, max: 5e-12 }), 'b.json');
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(UserError);
    expect((error as UserError).issues[0]).toMatchObject({ field: 'scenarios[0].expectations.runs.costUsd.min', message: expect.stringMatching(/^is [\d.e-]+: must be a whole number of picodollars/) });
  });
});
