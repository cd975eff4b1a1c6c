import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { mergeTallies, nearestRank, newTally, populationMetrics, tallyMetrics, type RunFigures, type RunPair } from '../../src/metrics/population.js';
import { picoToUsd } from '../../src/money.js';
import { addToTally } from '../helpers.js';
import type { StopReason } from '../../src/brakes/stopReasons.js';

const USD = 1e12;

function figures(stopReason: StopReason, steps: number, costUsd: number, extra: Partial<RunFigures> = {}): RunFigures {
  return { stopReason, steps, costPico: Math.round(costUsd * USD), inputTokens: 100 * steps, cachedInputTokens: 10 * steps, outputTokens: steps, overshootPico: 0, ...extra };
}

function pair(run: RunFigures, baseline: [StopReason, number, number]): RunPair {
  return { run, baseline: { stopReason: baseline[0], steps: baseline[1], costPico: Math.round(baseline[2] * USD) } };
}

describe('population metrics', () => {
  const pairs: RunPair[] = [
    // completes as without brakes
    pair(figures('completed', 5, 0.1), ['completed', 5, 0.1]),
    // a false stop: completes without brakes, stopped by the step cap
    pair(figures('max_steps', 12, 0.3), ['completed', 20, 0.5]),
    // caught early: would loop to the hard cap, stopped by repeat at step 7
    pair(figures('repeat', 7, 0.2, { overshootPico: 0 }), ['max_steps', 100, 2.0]),
    // ends as recorded without completing: not a brake, neither false stop nor caught
    pair(figures('trace_end', 9, 0.4), ['trace_end', 9, 0.4]),
    // budget overshoot
    pair(figures('budget', 30, 1.0, { overshootPico: 0.05 * USD }), ['completed', 40, 1.5]),
  ];
  const m = populationMetrics(pairs);

  it('counts completions, false stops and caught runs against the no-brakes baseline', () => {
    expect(m.runs).toBe(5);
    expect(m.completed).toBe(1);
    expect(m.completionRate).toBe(0.2);
    expect(m.falseStops).toBe(2);
    // three runs complete without brakes
    expect(m.falseStopRate).toBeCloseTo(2 / 3, 12);
    expect(m.caughtEarly).toBe(1);
    expect(m.savedUsd).toBe(1.8);
    expect(m.stopReasons).toEqual({ completed: 1, max_steps: 1, budget: 1, repeat: 1, trace_end: 1 });
    expect(Object.keys(m.stopReasons)).toEqual(['completed', 'max_steps', 'budget', 'repeat', 'trace_end']);
  });

  it('sums money exactly and takes nearest-rank quantiles of cost per run', () => {
    expect(m.costUsd).toBe(2);
    expect(m.costPerRunUsd).toEqual({ mean: 0.4, p50: 0.3, p95: 1, max: 1 });
    expect(m.costPerCompletedUsd).toBe(2);
    expect(m.wastedUsd).toBe(1.9);
    expect(m.wastedShare).toBe(0.95);
    expect(m.overshootUsd).toBe(0.05);
    expect(m.tokens).toEqual({ input: 6300, cached: 630, output: 63 });
  });

  it('has no cost per completed task and no false-stop rate when nothing completes', () => {
    const none = populationMetrics([pair(figures('repeat', 3, 0.01), ['max_steps', 50, 1])]);
    expect(none.costPerCompletedUsd).toBeNull();
    expect(none.falseStopRate).toBeNull();
    expect(populationMetrics([]).costPerRunUsd).toEqual({ mean: 0, p50: 0, p95: 0, max: 0 });
  });

  it('nearest rank is the value at rank ceil(p·n)', () => {
    const values = Array.from({ length: 20 }, (_, i) => i + 1);
    expect(nearestRank(values, 0.95)).toBe(19);
    expect(nearestRank(values, 0.5)).toBe(10);
    expect(nearestRank(values, 1)).toBe(20);
    expect(nearestRank([7], 0.01)).toBe(7);
    expect(nearestRank([], 0.5)).toBeUndefined();
  });

  it('a mean of picodollars is rounded half up, not accumulated in floats', () => {
    const thirds = populationMetrics([0.1, 0.1, 0.1].map((usd) => pair(figures('completed', 1, usd), ['completed', 1, usd])));
    expect(thirds.costUsd).toBe(0.3);
    expect(thirds.costPerRunUsd.mean).toBe(0.1);
    const odd = populationMetrics([1e-12, 0].map((usd) => pair(figures('completed', 1, usd), ['completed', 1, usd])));
    expect(odd.costPerRunUsd.mean).toBe(1e-12);
  });
});

describe('cost quantiles by selection', () => {
  it('= nearest rank over the sorted costs, with many equal costs and merged tallies (fixed seed)', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.integer({ min: 0, max: 5 }), fc.integer({ min: 0, max: 4_000_000_000_000_000 })), { minLength: 1, maxLength: 300 }), fc.nat(), (costs, cut) => {
        const pairs = costs.map((costPico) => ({ run: { ...figures('max_steps', 1, 0), costPico }, baseline: { stopReason: 'completed' as const, steps: 1, costPico: 0 } }));
        const sorted = [...costs].sort((a, b) => a - b);
        const expected = { p50: picoToUsd(nearestRank(sorted, 0.5)!), p95: picoToUsd(nearestRank(sorted, 0.95)!), max: picoToUsd(sorted.at(-1)!) };
        const { mean: _mean, ...quantiles } = populationMetrics(pairs).costPerRunUsd;
        expect(quantiles).toEqual(expected);
        // Two tallies merged (their costs joined as the command joins the threads').
        const at = cut % (pairs.length + 1);
        const [a, b] = [newTally(), newTally()];
        pairs.slice(0, at).forEach((p) => addToTally(a, p.run, p.baseline));
        pairs.slice(at).forEach((p) => addToTally(b, p.run, p.baseline));
        mergeTallies(a, b);
        const { mean: _m, ...merged } = tallyMetrics(a).costPerRunUsd;
        expect(merged).toEqual(expected);
      }),
      { numRuns: 400, seed: 7715 },
    );
  });
});
