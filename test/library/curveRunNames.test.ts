/**
 * curveRun (and growthCurve, compareCurves) name their own arguments, as the README promises. Before, a
 * strategy given as a string (`'full'`) was refused as `<replayTrace options> field 'strategy'` and missing
 * prices as `<resolveTracePricing arguments> field 'options.prices'` — functions the caller never called —
 * and a misspelt option (`brake:`) was ignored. Now each is refused at the curve's own argument, before its run.
 */
import { describe, expect, it } from 'vitest';
import { NO_BRAKES } from '../../src/brakes/config.js';
import { FULL_HISTORY } from '../../src/context/strategy.js';
import { compareCurves, curveRun, growthCurve } from '../../src/replay/curve.js';
import type { ConstantStepsSpec } from '../../src/synthetic/constantSteps.js';
import { MINI_TABLE, userErrorOf } from '../helpers.js';

const SPEC: ConstantStepsSpec = { model: 'mini', systemTokens: 500, outputTokens: 150, toolTokens: 2050, steps: 5 };
const places = (fn: () => unknown) => userErrorOf(fn).issues.map((issue) => `${issue.file} ${issue.field}`);
// The arguments as a JavaScript caller (or a cast) gives them, against their types.
const given = <T>(value: unknown) => value as T;

describe('curveRun names its own arguments', () => {
  it.each<[string, () => unknown, string[]]>([
    ["a strategy given as a string ('full')", () => curveRun(SPEC, given('full'), MINI_TABLE), ['<curveRun arguments> strategy']],
    ['no strategy', () => curveRun(SPEC, given(undefined), MINI_TABLE), ['<curveRun arguments> strategy']],
    ['no prices', () => curveRun(SPEC, FULL_HISTORY, given(undefined)), ['<curveRun arguments> prices']],
    ['prices that are no price table', () => curveRun(SPEC, FULL_HISTORY, given('gpt-4o')), ['<curveRun arguments> prices']],
    ['a strategy and prices both wrong, named together', () => curveRun(SPEC, given('full'), given(undefined)), ['<curveRun arguments> strategy', '<curveRun arguments> prices']],
    ['a misspelt option', () => curveRun(SPEC, FULL_HISTORY, MINI_TABLE, given({ brake: { maxSteps: 3 } })), ['<curveRun arguments> options.brake']],
    ['a misspelt brake', () => curveRun(SPEC, FULL_HISTORY, MINI_TABLE, given({ brakes: { maxStep: 3 } })), ['<curveRun arguments> options.brakes.maxStep']],
    ['a budget of 0 (as --max-cost 0)', () => curveRun(SPEC, FULL_HISTORY, MINI_TABLE, { brakes: { ...NO_BRAKES, maxCostPico: 0 } }), ['<curveRun arguments> options.brakes.maxCostPico']],
    ['growthCurve: a strategy given as a string', () => growthCurve(SPEC, given('full'), MINI_TABLE), ['<growthCurve arguments> strategy']],
    ['growthCurve: no prices', () => growthCurve(SPEC, FULL_HISTORY, given(undefined)), ['<growthCurve arguments> prices']],
    ['compareCurves: a strategy given as a string', () => compareCurves(SPEC, [{ spec: 'full', strategy: given('full') }], MINI_TABLE), ['<compareCurves arguments> strategies[0].strategy']],
    ['compareCurves: a misspelt option', () => compareCurves(SPEC, [{ spec: 'full', strategy: FULL_HISTORY }], MINI_TABLE, given({ latncy: {} })), ['<compareCurves arguments> options.latncy']],
  ])('%s', (_label, call, expected) => {
    const named = places(call);
    expect(named).toEqual(expected);
    expect(named.join(' ')).not.toMatch(/replayTrace|resolveTracePricing/);
  });

  it('arguments it takes still draw the curve', () => {
    const run = curveRun(SPEC, FULL_HISTORY, MINI_TABLE, { brakes: { ...NO_BRAKES, maxSteps: 3 } });
    expect([run.rows.length, run.stopReason]).toEqual([3, 'max_steps']);
    expect(growthCurve(SPEC, FULL_HISTORY, MINI_TABLE)).toHaveLength(5);
  });
});
