/**
 * Non-regression: what the generators produce for a fixed seed. A change here changes every synthetic
 * figure loopcost reports; update the snapshot (vitest -u) only on purpose, and say so in the commit.
 */
import { describe, expect, it } from 'vitest';
import { generateTraces } from '../../src/scenario/generate.js';
import { drawCount, type DistributionSpec } from '../../src/synthetic/distributions.js';
import { Rng, STREAM } from '../../src/synthetic/random.js';
import { writeNativeTraces } from '../../src/trace/writeNative.js';
import { BEHAVIOURS } from '../../src/synthetic/agent.js';
import { entry, PRICES, scenarioOf } from './helpers.js';

const PARAMS: Record<string, Record<string, unknown>> = {
  healthy: { steps: { kind: 'uniform', min: 3, max: 6 }, repeatShare: 0.3, errorShare: 0.2 },
  perfectionist: { repeatQuery: 0.5 },
  repeater: { cycle: [{ by: 'type' }, { by: 'date' }] },
  retrier: { givesUpAfter: 5 },
  forgetful: { steps: 5, observationTokens: 2000 },
  asker: { workSteps: 2, phrasings: 2 },
  backtracker: { steps: 5, backtrackShare: 0.4 },
  sloppy: { steps: 5, unparseableShare: 0.3 },
};

describe('generator snapshot (seed 5)', () => {
  it('raw streams and every distribution', () => {
    const rng = Rng.stream(5, 0, STREAM.plan);
    const specs: DistributionSpec[] = [
      { kind: 'uniform', min: 1, max: 100 },
      { kind: 'normal', mean: 500, sd: 100 },
      { kind: 'lognormal', median: 400, p95: 2000 },
      { kind: 'empirical', quantiles: [3, 8, 20, 160] },
    ];
    expect({
      uniform01: Array.from({ length: 4 }, () => rng.next()),
      draws: specs.map((spec) => Array.from({ length: 6 }, () => drawCount(spec, rng))),
    }).toMatchSnapshot();
  });

  it('two runs of every behaviour, as native traces', () => {
    const traces = BEHAVIOURS.flatMap((behaviour) => {
      const scenario = scenarioOf({
        hardCapSteps: 12,
        latency: { call: 1000, 'output-token': 2, tool: 300 },
        context: { context: 'window:3', cache: 'on' },
        cacheHitShare: 0.9,
        goalTokens: { kind: 'lognormal', median: 100, p95: 300 },
        population: [entry(behaviour, { ...PARAMS[behaviour], outputTokens: { kind: 'lognormal', median: 100, p95: 300 }, toolResultTokens: { kind: 'uniform', min: 50, max: 500 } })],
      });
      return [...generateTraces(scenario, { prices: PRICES, overrides: { runs: 2, seed: 5 } })];
    });
    expect(traces.map((t) => t.header.synthetic!.behaviour)).toEqual(BEHAVIOURS.flatMap((b) => [b, b]));
    expect(writeNativeTraces(traces)).toMatchSnapshot();
  });
});
