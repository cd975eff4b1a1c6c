/**
 * A constant-step loop's spec given to the library (curveRun, growthCurve, compareCurves,
 * constantStepsTrace) is checked once, before any step is made, by the rules of the `curve` flags
 * (flags/numberFlags.ts): a string that would concatenate, a negative or fractional count, 0 steps, more
 * steps than a curve draws — each a UserError naming `<entry arguments>` field `spec.<name>`.
 */
import { describe, expect, it } from 'vitest';
import { FULL_HISTORY, parseContextSpec } from '../../src/context/strategy.js';
import { loadPriceTable } from '../../src/pricing/index.js';
import { compareCurves, curveRun, growthCurve } from '../../src/replay/curve.js';
import { constantStepsTrace, type ConstantStepsSpec } from '../../src/synthetic/constantSteps.js';
import { userErrorOf } from '../helpers.js';

const prices = loadPriceTable();
const SPEC: ConstantStepsSpec = { model: 'gpt-4o', systemTokens: 500, goalTokens: 0, outputTokens: 150, toolTokens: 2050, steps: 5 };

const ENTRIES: [string, (spec: ConstantStepsSpec) => unknown][] = [
  ['curveRun', (spec) => curveRun(spec, FULL_HISTORY, prices)],
  ['growthCurve', (spec) => growthCurve(spec, FULL_HISTORY, prices)],
  ['compareCurves', (spec) => compareCurves(spec, [{ spec: 'full', strategy: FULL_HISTORY }, { spec: 'window:2', strategy: parseContextSpec('window:2') }], prices)],
  ['constantStepsTrace', (spec) => constantStepsTrace(spec)],
];

/** A spec field given a wrong value, and what is said of it. */
const BAD: [string, unknown, RegExp][] = [
  ['systemTokens', '500', /^"500" is not a whole number, 0 or more$/],
  ['systemTokens', -500, /^-500 is not a whole number, 0 or more$/],
  ['goalTokens', -400, /^-400 is not a whole number, 0 or more$/],
  ['outputTokens', Number.NaN, /^NaN is not a whole number, 0 or more$/],
  ['toolTokens', 1.5, /^1.5 is not a whole number, 0 or more$/],
  ['steps', '5', /^"5" is not a whole number greater than 0$/],
  ['steps', 0, /^0 is not a whole number greater than 0$/],
  ['steps', -1, /^-1 is not a whole number greater than 0$/],
  // As `curve --steps 1e12` is refused (it ran out of memory after 90 s).
  ['steps', 1e12, /^1000000000000 is too large: at most 100,000, the most steps a curve draws/],
  ['steps', undefined, /^is missing: give a whole number greater than 0$/],
  ['model', '', /is not a model name/],
  ['latencyMs', -1, /^-1 is not a number of milliseconds, 0 or more$/],
];

describe("a curve's spec, checked by its flags' rules before any step", () => {
  for (const [entry, run] of ENTRIES) {
    for (const [field, value, said] of BAD) {
      it(`${entry}: spec.${field} = ${String(value)}`, () => {
        const issue = userErrorOf(() => run({ ...SPEC, [field]: value })).issues[0]!;
        expect([issue.file, issue.field]).toEqual([`<${entry} arguments>`, `spec.${field}`]);
        expect(issue.message).toMatch(said);
      });
    }
    it(`${entry}: a misspelt field and a spec that is no object`, () => {
      expect(userErrorOf(() => run({ ...SPEC, toolToken: 5 } as unknown as ConstantStepsSpec)).issues[0]).toMatchObject({ field: 'spec.toolToken', code: 'unrecognized_keys', hint: 'did you mean toolTokens?' });
      expect(userErrorOf(() => run(null as unknown as ConstantStepsSpec)).issues[0]).toMatchObject({ file: `<${entry} arguments>`, field: 'spec', message: 'null is not an object' });
    });
  }

  it('a valid spec gives the figures it gave', () => {
    const last = curveRun(SPEC, FULL_HISTORY, prices).rows.at(-1)!;
    expect(last).toMatchObject({ step: 5, inputTokens: 9300, cumulativeInputTokens: 24500, cumulativeCostUsd: 0.06875 });
    expect(growthCurve({ ...SPEC, goalTokens: undefined }, FULL_HISTORY, prices).at(-1)).toEqual(last);
    expect(constantStepsTrace(SPEC).calls).toHaveLength(5);
  });
});
