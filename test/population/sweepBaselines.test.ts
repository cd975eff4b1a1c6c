/**
 * A sweep's baselines (each run with no brakes under the configuration's context and cache) are cells of
 * the sweep itself: over random runs and random configurations — several contexts and cache modes in one
 * sweep, each with its own baseline — the sweep's population figures (false stops, runs caught early,
 * spend saved) equal those of every run replayed alone under its configuration and with no brakes.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NO_BRAKES } from '../../src/brakes/config.js';
import type { ContextStrategy } from '../../src/context/strategy.js';
import { runFigures, type PopulationConfig } from '../../src/population/run.js';
import { strategyTotals, SweepPopulation, sweepMetrics } from '../../src/population/sweep.js';
import { replayTrace } from '../../src/replay/replay.js';
import { brakesArb, callArb, pricings, strategyArb } from '../core/arbitraries.js';
import { handTable, trace } from '../helpers.js';
import { sweptRowOf } from './sweptRow.js';

const configArb: fc.Arbitrary<PopulationConfig> = fc
  .record({ brakes: brakesArb, strategy: strategyArb, cache: fc.constantFrom(undefined, 'on' as const, 'off' as const) })
  .map(({ brakes, strategy, cache }) => ({ brakes, strategy: { ...strategy, ...(cache === undefined ? {} : { cache }) } as ContextStrategy }));

describe('sweep baselines are cells of the sweep', () => {
  it('= each run replayed alone under its configuration and with no brakes (fixed seed)', () => {
    let baselines = 0;
    fc.assert(
      fc.property(
        fc.array(fc.record({ calls: fc.array(callArb, { maxLength: 25 }), origin: fc.constantFrom('recorded' as const, 'synthetic' as const), outcome: fc.constantFrom('completed' as const, 'unknown' as const) }), { minLength: 1, maxLength: 4 }),
        fc.array(configArb, { minLength: 1, maxLength: 5 }),
        fc.nat({ max: pricings.length - 1 }),
        (specs, configs, p) => {
          const pricing = pricings[p]!;
          const prices = handTable(pricing);
          const runs = specs.map((s) => trace(s.calls, { origin: s.origin, outcome: s.outcome, model: pricing.model }));
          const swept = sweepMetrics(new SweepPopulation(runs, []), configs, prices);
          configs.forEach((config, i) => {
            const alone = runs.map((run) => replayTrace(run, { brakes: config.brakes, strategy: config.strategy, prices }));
            const pairs = runs.map((run, t) => ({ run: runFigures(alone[t]!), baseline: runFigures(replayTrace(run, { brakes: NO_BRAKES, strategy: config.strategy, prices })) }));
            expect(swept[i]).toEqual({ ...sweptRowOf(pairs), ...strategyTotals(alone) });
          });
          baselines += new Set(configs.map((c) => JSON.stringify(c.strategy))).size;
        },
      ),
      { numRuns: 200, seed: 7714 },
    );
    // Several baselines a sweep, on average.
    expect(baselines).toBeGreaterThan(400);
  });

  it('configurations that differ only by latency model are swept each under its own (fixed seed)', () => {
    const slow = { perCallMs: 900, perInputTokenMs: 0.5, perOutputTokenMs: 20, perToolCallMs: 300 };
    const fast = { perCallMs: 100, perInputTokenMs: 0, perOutputTokenMs: 1, perToolCallMs: 10 };
    let differ = 0;
    fc.assert(
      fc.property(fc.array(fc.array(callArb, { minLength: 1, maxLength: 25 }), { minLength: 1, maxLength: 4 }), fc.integer({ min: 1_000, max: 60_000 }), (specs, timeoutMs) => {
        const pricing = pricings[0]!;
        const prices = handTable(pricing);
        const runs = specs.map((calls) => trace(calls, { model: pricing.model }));
        const configs: PopulationConfig[] = [slow, fast].map((latency) => ({ brakes: { ...NO_BRAKES, timeoutMs }, strategy: { kind: 'full' } as ContextStrategy, latency }));
        const swept = sweepMetrics(new SweepPopulation(runs, []), configs, prices);
        const alone = configs.map((config) => runs.map((run) => replayTrace(run, { brakes: config.brakes, strategy: config.strategy, prices, latency: config.latency! })));
        configs.forEach((config, i) => {
          const pairs = runs.map((run, t) => ({ run: runFigures(alone[i]![t]!), baseline: runFigures(replayTrace(run, { brakes: NO_BRAKES, strategy: config.strategy, prices, latency: config.latency! })) }));
          expect(swept[i]).toEqual({ ...sweptRowOf(pairs), ...strategyTotals(alone[i]!) });
        });
        if (JSON.stringify(swept[0]) !== JSON.stringify(swept[1])) differ++;
      }),
      { numRuns: 100, seed: 9120 },
    );
    expect(differ).toBeGreaterThan(10); // the timeout falls differently under the two latency models
  });
});
