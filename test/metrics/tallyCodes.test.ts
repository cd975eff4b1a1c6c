/**
 * TallyBuilder counts stop reasons by code (addCoded: what a sweep reads off its columns) and add goes
 * through the same path: both held equal to a reference tally written here run by run over the reasons'
 * names (the definitions of docs: false stop, caught early, saved, wasted), on seeded random runs.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isBrakeStop, STOP_REASONS, type StopReason } from '../../src/brakes/stopReasons.js';
import { stopCodeOf } from '../../src/kernel/stopCodes.js';
import { TallyBuilder, type PopulationTally, type RunPair } from '../../src/metrics/population.js';

const pico = fc.integer({ min: 0, max: 4_000_000_000_000_000 });
const pairArb: fc.Arbitrary<RunPair> = fc.record({
  run: fc.record({ stopReason: fc.constantFrom(...STOP_REASONS), steps: fc.integer({ min: 0, max: 300 }), costPico: pico, inputTokens: fc.nat(), cachedInputTokens: fc.nat(), outputTokens: fc.nat(), overshootPico: fc.oneof(fc.constant(0), pico), byPredictiveBound: fc.boolean() }),
  baseline: fc.record({ stopReason: fc.constantFrom(...STOP_REASONS), steps: fc.integer({ min: 0, max: 300 }), costPico: pico }),
});

/** The tally by its definitions, in BigInt, reasons by name. */
function reference(pairs: readonly RunPair[]): Omit<PopulationTally, 'costs'> & { costs: number[] } {
  const stopReasons: Partial<Record<StopReason, number>> = {};
  const t = { runs: 0, totalPico: 0n, wastedPico: 0n, savedPico: 0n, overshootPico: 0n, baselinePico: 0n, completed: 0, baselineCompleted: 0, falseStops: 0, caughtEarly: 0, predictiveStops: 0, tokens: { input: 0, cached: 0, output: 0 }, stopReasons, costs: [] as number[] };
  for (const { run, baseline } of pairs) {
    t.runs += 1;
    t.costs.push(run.costPico);
    t.totalPico += BigInt(run.costPico);
    t.overshootPico += BigInt(run.overshootPico);
    t.baselinePico += BigInt(baseline.costPico);
    t.tokens.input += run.inputTokens;
    t.tokens.cached += run.cachedInputTokens;
    t.tokens.output += run.outputTokens;
    stopReasons[run.stopReason] = (stopReasons[run.stopReason] ?? 0) + 1;
    if (run.byPredictiveBound === true) t.predictiveStops += 1;
    if (run.stopReason === 'completed') t.completed += 1;
    else t.wastedPico += BigInt(run.costPico);
    if (baseline.stopReason === 'completed') {
      t.baselineCompleted += 1;
      if (isBrakeStop(run.stopReason)) t.falseStops += 1;
    } else if (isBrakeStop(run.stopReason) && run.steps < baseline.steps) {
      t.caughtEarly += 1;
      if (baseline.costPico > run.costPico) t.savedPico += BigInt(baseline.costPico - run.costPico);
    }
  }
  return t;
}

const flat = (t: PopulationTally) => ({ ...t, costs: t.costs.flatMap((costs) => [...costs]) });

describe('TallyBuilder by stop code', () => {
  it('add and addCoded = the reference tally, and go on after finish (seeded)', () => {
    fc.assert(
      fc.property(fc.array(pairArb, { maxLength: 80 }), fc.nat(), (pairs, cut) => {
        const named = new TallyBuilder();
        const coded = new TallyBuilder();
        const at = pairs.length === 0 ? 0 : cut % (pairs.length + 1);
        const addBoth = (from: number, to: number) => {
          for (const { run, baseline } of pairs.slice(from, to)) {
            named.add(run, baseline);
            coded.addCoded({ ...run, stop: stopCodeOf(run.stopReason) }, { stop: stopCodeOf(baseline.stopReason), steps: baseline.steps, costPico: baseline.costPico });
          }
        };
        addBoth(0, at);
        expect(flat(named.finish())).toEqual(reference(pairs.slice(0, at)));
        expect(flat(coded.finish())).toEqual(reference(pairs.slice(0, at)));
        // After finish: the counts and sums go on from there, the costs start again.
        addBoth(at, pairs.length);
        const whole = reference(pairs);
        const rest = reference(pairs.slice(at));
        for (const tally of [named.finish(), coded.finish()]) expect(flat(tally)).toEqual({ ...whole, costs: rest.costs });
      }),
      { numRuns: 300, seed: 7741 },
    );
  });

  it('rollback to a mark forgets the runs added since, whatever arrays they filled (seeded)', () => {
    fc.assert(
      fc.property(fc.array(pairArb, { maxLength: 60 }), fc.array(pairArb, { minLength: 1, maxLength: 60 }), fc.array(pairArb, { maxLength: 60 }), fc.nat(20), (before, dropped, after, room) => {
        const builder = new TallyBuilder();
        builder.reserve(room);
        for (const { run, baseline } of before) builder.add(run, baseline);
        const mark = builder.mark();
        builder.reserve(room);
        for (const { run, baseline } of dropped) builder.add(run, baseline);
        builder.rollback(mark);
        for (const { run, baseline } of after) builder.add(run, baseline);
        expect(flat(builder.finish())).toEqual(reference([...before, ...after]));
      }),
      { numRuns: 300, seed: 7743 },
    );
  });
});
