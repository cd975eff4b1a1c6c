/**
 * Synthetic runs swept by recording (src/population/syntheticSweep.ts): under brakes that only stop it, a
 * closed-loop agent makes the calls of its unbraked run up to the stop, so replaying that run's recording
 * under the brakes gives the closed loop's figures; and a sweep's figures (runs recorded once per context,
 * cache, model, latency and max_tokens sent, swept compiled) equal those of each configuration run closed
 * loop, for grids that mix configurations swept by recording with those run closed loop (skip, mask, a
 * partial cache hit share); the reference, built here from the scenario runner, is the population
 * runner's own (each run's figures, ground truth and baseline). Seeded property tests over every bundled
 * scenario file.
 */
import fc from 'fast-check';
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { NO_BRAKES, type BrakeConfig } from '../../src/brakes/config.js';
import { STOP_REASONS } from '../../src/brakes/stopReasons.js';
import type { ContextStrategy } from '../../src/context/strategy.js';
import type { LatencyModel } from '../../src/loop/latency.js';
import { populationRuns, runFigures, type PopulationConfig, type PopulationRun, type ScenarioPopulation } from '../../src/population/run.js';
import { strategyTotals, SweepPopulation, sweepMetrics } from '../../src/population/sweep.js';
import { largestStepCap, recordedSyntheticRuns, sweptByRecording } from '../../src/population/syntheticRecording.js';
import { callsThroughStep } from '../../src/scenario/generate.js';
import { loadPriceTable } from '../../src/pricing/index.js';
import { replayTrace } from '../../src/replay/replay.js';
import { loadScenarioFile, type Scenario } from '../../src/scenario/load.js';
import { runScenario, scenarioRuns, type SyntheticRun } from '../../src/scenario/run.js';
import { brakesArb, strategyArb } from '../core/arbitraries.js';
import { call } from '../helpers.js';
import { sweptRowOf } from './sweptRow.js';

const prices = loadPriceTable();
const scenarios: Scenario[] = readdirSync('scenarios')
  .filter((name) => name.endsWith('.yaml') && !name.endsWith('.check.yaml')) // *.check.yaml: recorded traces for check, no population
  .map((name) => loadScenarioFile(`scenarios/${name}`))
  .filter((scenario) => scenario.population !== undefined);
const LATENCY: LatencyModel = { perCallMs: 1500, perInputTokenMs: 0.01, perOutputTokenMs: 5, perToolCallMs: 300 };

const cacheArb = fc.constantFrom<ContextStrategy['cache']>('on', 'off', undefined);
const settingsArb = fc.record({ strategy: strategyArb, cache: cacheArb, latency: fc.option(fc.constant(LATENCY), { nil: undefined }), model: fc.option(fc.constantFrom('gpt-4o', 'claude-sonnet-4-5'), { nil: undefined }) });

function configOf(brakes: BrakeConfig, s: { strategy: ContextStrategy; cache: ContextStrategy['cache']; latency: LatencyModel | undefined; model: string | undefined }): PopulationConfig {
  return { brakes, strategy: { ...s.strategy, ...(s.cache === undefined ? {} : { cache: s.cache }) }, ...(s.latency === undefined ? {} : { latency: s.latency }), ...(s.model === undefined ? {} : { model: s.model }) };
}

/**
 * A population's unbraked runs, by what they depend on (the context, cache, latency, model and max_tokens
 * sent, not the brakes): run once for the configurations of a grid that share them.
 */
const unbrakedRuns = new WeakMap<ScenarioPopulation, Map<string, SyntheticRun[]>>();

/**
 * Each run of the populations under the configuration, closed loop (the reference): with its ground truth
 * and its unbraked baseline — no brake, its calls sending the configuration's max_tokens (its provider
 * refuses prompt + max_tokens past the window).
 */
function closedLoopRuns(populations: readonly ScenarioPopulation[], config: PopulationConfig): PopulationRun[] {
  const options = (brakes: BrakeConfig, population: ScenarioPopulation) => ({
    prices,
    runs: population.runs,
    seed: population.seed,
    firstRun: population.firstRun ?? 0,
    brakes,
    strategy: config.strategy,
    ...(config.latency ? { latency: config.latency } : {}),
    ...(config.model ? { model: config.model } : {}),
  });
  return populations.flatMap((population) => {
    const sent = config.brakes.maxOutputTokens;
    const byKey = unbrakedRuns.get(population) ?? new Map<string, SyntheticRun[]>();
    unbrakedRuns.set(population, byKey);
    const key = JSON.stringify([config.strategy, config.latency, config.model, sent]);
    const unbraked = byKey.get(key) ?? [...scenarioRuns(population.scenario, options(sent === undefined ? NO_BRAKES : { ...NO_BRAKES, maxOutputTokens: sent }, population), false)];
    byKey.set(key, unbraked);
    return [...scenarioRuns(population.scenario, options(config.brakes, population), false)].map((r, k) => ({
      source: r.result.source,
      truth: r.truth,
      run: runFigures(r.result),
      baseline: { stopReason: unbraked[k]!.result.stopReason, steps: unbraked[k]!.result.steps, costPico: unbraked[k]!.result.costPico, truth: unbraked[k]!.truth },
    }));
  });
}

/**
 * The stop reasons the random cases reach between them: all but aborted and provider_refused (which none of
 * the 250 cases drawn before reached either). The cases are few, so each property says they still stop at every
 * brake and draw every bundled scenario.
 */
const REACHED = STOP_REASONS.filter((reason) => reason !== 'aborted' && reason !== 'provider_refused');

/** What a property's cases covered: scenarios drawn, stop reasons reached, kinds of configuration. */
class Coverage {
  readonly scenarios = new Set<number>();
  readonly stops = new Set<string>();
  readonly kinds = new Set<string>();
  expectEvery(kinds: readonly string[]): void {
    expect([...this.scenarios].sort((a, b) => a - b)).toEqual(scenarios.map((_, i) => i));
    expect([...this.stops].sort()).toEqual([...REACHED].sort());
    expect([...this.kinds].sort()).toEqual([...kinds].sort());
  }
}

const figures = (r: { stopReason: string; steps: number; costPico: number; inputTokens: number; cachedInputTokens: number; outputTokens: number; overshootPico: number; strategyCacheLostTokens?: number }) => [
  r.stopReason,
  r.steps,
  r.costPico,
  r.inputTokens,
  r.cachedInputTokens,
  r.outputTokens,
  r.overshootPico,
  r.strategyCacheLostTokens ?? 0,
];

describe('synthetic runs swept by recording', () => {
  it('a closed-loop run under stop-only brakes = its unbraked recording replayed under them (every bundled scenario)', () => {
    const covered = new Coverage();
    fc.assert(
      fc.property(fc.integer({ min: 0, max: scenarios.length - 1 }), brakesArb, settingsArb, fc.integer({ min: 1, max: 1000 }), (i, brakes, settings, seed) => {
        const population: ScenarioPopulation = { scenario: scenarios[i]!, runs: 5, seed };
        const config = configOf(brakes, settings);
        const closed = runScenario(population.scenario, { prices, runs: 5, seed, brakes, strategy: config.strategy, ...(config.latency ? { latency: config.latency } : {}), ...(config.model ? { model: config.model } : {}) });
        const open = [...recordedSyntheticRuns([population], config, prices, { batch: { runs: 2, calls: 40 } })].flatMap((batch) => batch.traces).map((trace) =>
          replayTrace(trace, { brakes, strategy: config.strategy, prices, ...(config.latency ? { latency: config.latency } : {}), ...(config.model ? { model: config.model } : {}) }),
        );
        expect(open.map(figures)).toEqual(closed.map(figures));
        expect(open.map((r) => r.elapsedMs)).toEqual(closed.map((r) => r.elapsedMs));
        covered.scenarios.add(i);
        for (const r of closed) covered.stops.add(r.stopReason);
        covered.kinds.add(config.strategy.kind);
      }),
      // 80 cases (were 250): between them every bundled scenario (4 or more cases each) and every stop reason (3 or more).
      { seed: 20261205, numRuns: 80 },
    );
    covered.expectEvery(['full', 'window']);
  });

  it("a sweep's figures = each configuration run closed loop, for grids mixing recorded and closed-loop configurations", () => {
    const skipOrMask = fc.oneof(
      brakesArb.map((brakes) => ({ brakes, strategy: undefined as ContextStrategy | undefined })),
      brakesArb.map((brakes) => ({ brakes: { ...brakes, maxRepeat: brakes.maxRepeat ?? 2, repeatAction: 'skip' as const }, strategy: undefined as ContextStrategy | undefined })),
      // Masking in batches of 1–6 steps (kernel/maskBoundary.ts).
      fc.tuple(brakesArb, fc.integer({ min: 1, max: 6 })).map(([brakes, batch]) => ({ brakes, strategy: { kind: 'mask', maskSteps: 3, maskBatchSteps: batch } as ContextStrategy | undefined })),
    );
    const covered = new Coverage();
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 0, max: scenarios.length - 1 }), { minLength: 1, maxLength: 3 }), fc.array(fc.tuple(skipOrMask, settingsArb), { minLength: 1, maxLength: 6 }), fc.integer({ min: 1, max: 1000 }), fc.boolean(), (picked, grid, seed, partialHits) => {
        const populations: ScenarioPopulation[] = picked.map((i, k) => ({ scenario: k === 0 && partialHits ? { ...scenarios[i]!, cacheHitShare: 0.6 } : scenarios[i]!, runs: 4, seed: seed + k, firstRun: k }));
        const configs = grid.map(([b, s]) => configOf(b.brakes, b.strategy === undefined ? s : { ...s, strategy: b.strategy }));
        const swept = sweepMetrics(new SweepPopulation([], populations), configs, prices);
        configs.forEach((config, c) => {
          const pairs = closedLoopRuns(populations, config);
          expect(swept[c]).toEqual({ ...sweptRowOf(pairs), ...strategyTotals(pairs.map((p) => p.run)) });
          // The reference is what the population runner (check, project, calibrate) gives.
          expect(populationRuns({ scenarios: populations }, config, prices)).toEqual(pairs);
          for (const pair of pairs) covered.stops.add(pair.run.stopReason);
          covered.kinds.add(grid[c]![0].brakes.repeatAction === 'skip' ? 'skip' : config.strategy.kind === 'mask' ? 'mask' : 'stop');
        });
        for (const i of picked) covered.scenarios.add(i);
        covered.kinds.add(partialHits ? 'partial hits' : 'whole hits');
      }),
      // 24 grids (were 60): between them every bundled scenario, stop reason, skip, mask and a partial hit share.
      { seed: 20261206, numRuns: 24 },
    );
    covered.expectEvery(['stop', 'skip', 'mask', 'partial hits', 'whole hits']);
  });

  it('a population of several batches (600 runs, batches of 256) sums to what each configuration run closed loop gives', () => {
    const production = scenarios.find((s) => s.source.endsWith('production-mix.yaml'))!;
    const populations: ScenarioPopulation[] = [{ scenario: production, runs: 600, seed: 3, firstRun: 10 }];
    const configs: PopulationConfig[] = [5, 20].flatMap((maxSteps) => [
      { brakes: { ...NO_BRAKES, maxSteps, maxRepeat: 3 }, strategy: { kind: 'full', cache: 'on' } },
      { brakes: { ...NO_BRAKES, maxSteps, maxCostPico: 5_000_000_000, budgetMode: 'predict' }, strategy: { kind: 'window', windowSteps: 4 } },
    ]);
    const swept = sweepMetrics(new SweepPopulation([], populations), configs, prices);
    configs.forEach((config, c) => {
      const pairs = closedLoopRuns(populations, config);
      expect(swept[c]).toEqual({ ...sweptRowOf(pairs), ...strategyTotals(pairs.map((p) => p.run)) });
    });
  });

  it('which configurations are swept by recording: not under skip or a history-rewriting strategy; cache on with a partial hit share, with the cache as recorded', () => {
    const population = (cacheHitShare?: number): ScenarioPopulation[] => [{ scenario: { ...scenarios[0]!, ...(cacheHitShare === undefined ? {} : { cacheHitShare }) }, runs: 3, seed: 1 }];
    const full: ContextStrategy = { kind: 'full' };
    expect(sweptByRecording({ brakes: { ...NO_BRAKES, maxSteps: 3 }, strategy: { kind: 'window', windowSteps: 3, cache: 'on' } })).toBe(true);
    expect(sweptByRecording({ brakes: { ...NO_BRAKES, maxRepeat: 2, repeatAction: 'skip' }, strategy: full })).toBe(false);
    expect(sweptByRecording({ brakes: NO_BRAKES, strategy: { kind: 'mask', maskSteps: 3 } })).toBe(false);
    // Before, cache on with a partial hit share (every fitted profile's) ran closed loop once per configuration:
    // its runs are recorded with the cached tokens their agent wrote, replayed with the cache as recorded.
    expect(sweptByRecording({ brakes: NO_BRAKES, strategy: { ...full, cache: 'on' } })).toBe(true);
    const recorded = (cache: ContextStrategy['cache'], cacheHitShare?: number) => [...recordedSyntheticRuns(population(cacheHitShare), { brakes: NO_BRAKES, strategy: { ...full, cache } }, prices)];
    const [partial] = recorded('on', 0.5);
    expect(partial!.cacheAsRecorded).toBe(true);
    expect(partial!.traces.some((trace) => trace.calls.some((c) => (c.cachedInputTokens ?? 0) > 0))).toBe(true);
    expect(recorded('on')[0]!.cacheAsRecorded).toBe(false);
    expect(recorded('off', 0.5)[0]!.cacheAsRecorded).toBe(false);
  });

  it("a recording is written down up to the step its group's largest step cap allows (a backtrack or a compaction is no step), and whole when a configuration has no cap", () => {
    const full: ContextStrategy = { kind: 'full' };
    expect(largestStepCap([{ brakes: { ...NO_BRAKES, maxSteps: 5 }, strategy: full }, { brakes: { ...NO_BRAKES, maxSteps: 12 }, strategy: full }])).toBe(12);
    expect(largestStepCap([{ brakes: { ...NO_BRAKES, maxSteps: 5 }, strategy: full }, { brakes: NO_BRAKES, strategy: full }])).toBeUndefined();
    const calls = [call(10), call(10, undefined, { backtrack: true }), call(10), call(10, undefined, { compaction: true }), call(10), call(10)];
    // Steps are calls 0, 2, 4 and 5: the second step is made by call 2, the third by call 4.
    expect(callsThroughStep(calls, 2)).toEqual(calls.slice(0, 3));
    expect(callsThroughStep(calls, 3)).toEqual(calls.slice(0, 5));
    expect(callsThroughStep(calls, 4)).toBe(calls);
    expect(callsThroughStep(calls, 40)).toBe(calls);
  });
});
