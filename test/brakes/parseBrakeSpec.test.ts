/**
 * parseBrakeSpec (the library's): brakes as a report writes them (report/settings.ts brakeSpec, a sweep row's
 * `brakes`) read back as the same BrakeConfig — every preset, named or spelt out, and any brakes the flags
 * make (seeded) — by the parser `--try` uses; a bad spec is a UserError at `<parseBrakeSpec arguments>` whose
 * field is the part of the spec at fault, as the command line names its flag.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NO_BRAKES, parseBrakeSpec, PRESETS, usdToPico, UserError, type BrakeConfig } from '../../src/index.js';
import { MODE_BRAKES } from '../../src/flags/modeBrakes.js';
import { brakeSpec } from '../../src/report/settings.js';
import { brakesArb } from '../core/arbitraries.js';
import { userErrorOf } from '../helpers.js';

/** Brakes as the flags make them: limits of at least a picodollar and a millisecond, a mode other than its default only beside its brake. */
const flagBrakesArb: fc.Arbitrary<BrakeConfig> = brakesArb.map((arb) => {
  const brakes: BrakeConfig = { ...NO_BRAKES, ...arb };
  if (brakes.maxCostPico === 0) brakes.maxCostPico = 1;
  if (brakes.timeoutMs === 0) brakes.timeoutMs = 1;
  const modes = brakes as unknown as Record<string, unknown>;
  for (const { mode, brake, unset } of MODE_BRAKES) if (brakes[brake] === undefined && modes[mode] !== undefined) modes[mode] = unset;
  return brakes;
});

describe('parseBrakeSpec', () => {
  it("reads back every preset's spec as the preset, and `preset=NAME` as it too", () => {
    expect(Object.keys(PRESETS).length).toBeGreaterThan(2);
    for (const [name, preset] of Object.entries(PRESETS)) {
      expect(parseBrakeSpec(brakeSpec(preset)), brakeSpec(preset)).toEqual(preset);
      expect(parseBrakeSpec(`preset=${name}`), name).toEqual(preset);
    }
    expect(brakeSpec(PRESETS.reference!)).toBe('max-steps=12,max-cost=0.5,budget-mode=check,timeout=120,max-repeat=3,repeat-mode=total');
    expect(parseBrakeSpec(brakeSpec(PRESETS.reference!))).toMatchObject({ maxCostPico: usdToPico(0.5), timeoutMs: 120_000 });
  });

  it('reads back any brakes the flags make as the same brakes (seeded)', () => {
    fc.assert(
      fc.property(flagBrakesArb, (brakes) => void expect(parseBrakeSpec(brakeSpec(brakes))).toEqual(brakes)),
      { numRuns: 400, seed: 2026 },
    );
    const skip: BrakeConfig = { ...NO_BRAKES, maxRepeat: 2, repeatMode: 'cycle', repeatAction: 'skip', maxSkips: 3, skipWarningTokens: 25, contextWindow: 'model', maxOutputTokens: 900 };
    expect(brakeSpec(skip)).toBe('max-repeat=2,repeat-mode=cycle,repeat-action=skip,max-skips=3,warning=25,context-window=model,max-output-tokens=900');
    expect(parseBrakeSpec(brakeSpec(skip))).toEqual(skip);
    expect(parseBrakeSpec(' none ')).toEqual(NO_BRAKES);
  });

  const refused: [string, unknown, string, RegExp][] = [
    ['a negative budget', 'max-steps=12,max-cost=-1', 'spec.max-cost', /'-1' is not a number greater than 0/],
    ['a fractional step cap', 'max-steps=1.5', 'spec.max-steps', /'1\.5' is not a whole number greater than 0/],
    ['a timeout of words', 'timeout=abc', 'spec.timeout', /'abc' is not a number of seconds/],
    ['a mode not offered', 'max-repeat=2,repeat-mode=loop', 'spec.repeat-mode', /'loop' is not one of total, consecutive, cycle/],
    ['a misspelt name', 'max-stepz=3', 'spec', /'max-stepz=3' is not a brake setting: did you mean max-steps\?/],
    ['a name given twice', 'max-steps=3,max-steps=4', 'spec', /gives max-steps twice/],
    ['a mode without its brake', 'max-steps=5,repeat-mode=cycle', 'spec.repeat-mode', /repeat-mode=cycle has no effect without max-repeat/],
    ['a budget mode without a budget', 'budget-mode=predict', 'spec.budget-mode', /budget-mode=predict has no effect without max-cost/],
    ['each run’s own limits', 'preset=recorded', 'spec.preset', /'recorded'/],
    ['the words for several brakes', "each scenario file's own, listed below", 'spec', /is not a brake setting/],
    ['not a string', null, 'spec', /is null, not a brake spec \(a string\)/],
  ];
  for (const [what, spec, field, message] of refused) {
    it(`refuses ${what}, naming the part: ${field}`, () => {
      const error = userErrorOf(() => parseBrakeSpec(spec as string));
      expect(error).toBeInstanceOf(UserError);
      expect(error.issues).toHaveLength(1);
      expect(error.issues[0]).toMatchObject({ file: '<parseBrakeSpec arguments>', field });
      expect(error.issues[0]!.message).toMatch(message);
    });
  }
  // The one parser --try uses, its hints in the library's words: what to pass to parseBrakeSpec, where runAgentLoop takes the rest.
  const libraryHints: [string, string, string][] = [
    ['a name given twice', 'max-steps=5,max-steps=6', 'give each name once: a spec is one set of brakes; for another value of max-steps, call parseBrakeSpec again'],
    ['the model', 'model=x', "parseBrakeSpec reads brakes only: the model is runAgentLoop's own option, its model and pricing (loadPriceTable().resolve('MODEL'))"],
    ['a context strategy', 'max-steps=5,context=window:3', "parseBrakeSpec reads brakes only: the context is runAgentLoop's own option, context.strategy (parseContextSpec('window:8'))"],
    ['the cache', 'cache=on', "parseBrakeSpec reads brakes only: the cache is runAgentLoop's own option, context.strategy.cache"],
    ['a tool-result cap', 'tool-result-cap=5', "parseBrakeSpec reads brakes only: the tool-result-cap is runAgentLoop's own option, context.strategy.toolResultCap"],
    ['each run’s own limits', 'preset=recorded', "pass the brakes themselves; recordedBrakes(trace) gives a recorded run's"],
    ['a skip limit alone', 'max-repeat=3,max-skips=2', "max-skips and skip-warning are limits of repeat-action=skip: parseBrakeSpec('max-repeat=3,repeat-action=skip,max-skips=2')"],
  ];
  for (const [what, spec, hint] of libraryHints) {
    it(`refuses ${what} with the library's hint, not --try's`, () => {
      const error = userErrorOf(() => parseBrakeSpec(spec));
      expect(error.issues).toHaveLength(1);
      expect(error.issues[0]!.hint).toBe(hint);
      expect(error.message).not.toMatch(/--try|--model|--context|--cache|loopcost /);
    });
  }
});
