/**
 * A sweep: every configuration of a grid over one population (recorded traces and synthetic scenario
 * runs), each as the population figures (populationMetrics) of its runs paired with their baselines.
 *
 * Recorded traces go through the compiled sweep (src/fast/sweep.ts, `sweepCompiled`: each trace compiled
 * once, one pass per context strategy and cache mode, a step cap read off the same pass); this file is
 * only an adapter onto it (one grid axis whose values are the whole configurations, one sweep per
 * model). Synthetic runs are closed-loop, so each configuration runs its agents (populationRuns).
 * Baselines come from the population runner (src/population/run.ts), so a sweep column means what a
 * `check` expectation means. Pure: no node:*, no clock.
 */
import { NO_BRAKES } from '../brakes/config.js';
import { FULL_HISTORY, rewritesHistory } from '../context/strategy.js';
import { compiledTrace } from '../fast/compile.js';
import { flattenPrices } from '../kernel/prices.js';
import { sweepCompiled, sweepTotals, type SweepGrid, type SweepTrace } from '../fast/sweep.js';
import { populationMetrics, type PopulationMetrics, type RunFigures, type RunPair } from '../metrics/population.js';
import { picoToUsd } from '../money.js';
import { sumStrategyFigures } from '../metrics/strategyFigures.js';
import type { PriceTable } from '../pricing/types.js';
import { defaultCacheMode, resolveTracePricing } from '../replay/replay.js';
import type { Trace } from '../trace/types.js';
import type { StrategyFigures } from '../loop/types.js';
import { baselinesOf, populationRuns, type PopulationConfig, type PopulationInputs, type PopulationRunFigures, type ScenarioPopulation } from './run.js';

/** What the context strategy and the duplicate-action guard did over a configuration's runs, each present only when not 0. */
export interface StrategyTotals {
  /** Summary calls (context summary/hybrid; not steps) and their cost (part of costUsd). */
  summaryCalls?: number;
  summaryCostUsd?: number;
  /** Prompt tokens the previous prompt held that masking, a summary or a slid window moved out of the cached prefix. */
  strategyCacheLostTokens?: number;
  /** Repeated actions skipped by --repeat-action skip. */
  skippedActions?: number;
}

export type SweepMetrics = PopulationMetrics & StrategyTotals;

/** A configuration whose runs may have strategy figures: replayed run by run (as the compiled sweep does for them anyway), which gives those figures. */
function hasStrategyFigures(config: PopulationConfig): boolean {
  return rewritesHistory(config.strategy) || config.brakes.repeatAction === 'skip';
}

/** The strategy totals of a configuration's runs (absent where 0). */
export function strategyTotals(runs: readonly Partial<StrategyFigures>[]): StrategyTotals {
  const { summaryCalls, summaryCostPico, ...rest } = sumStrategyFigures(runs);
  return { ...(summaryCalls === undefined || summaryCostPico === undefined ? {} : { summaryCalls, summaryCostUsd: picoToUsd(summaryCostPico) }), ...rest };
}

/** A population to sweep: the recorded and the synthetic parts kept apart (each memoises its baselines). */
export class SweepPopulation {
  readonly recorded: PopulationInputs;
  readonly synthetic: PopulationInputs;
  constructor(traces: readonly Trace[], scenarios: readonly ScenarioPopulation[]) {
    this.recorded = { traces };
    this.synthetic = { scenarios };
  }
  get traces(): readonly Trace[] {
    return this.recorded.traces!;
  }
}

/** Each configuration's run pairs, recorded runs first (in trace order), then synthetic runs. */
export function sweepPairs(population: SweepPopulation, configs: readonly PopulationConfig[], prices: PriceTable): RunPair[][] {
  const recorded = recordedPairs(population, configs, prices);
  return configs.map((config, c) => {
    const synthetic = population.synthetic.scenarios!.length === 0 ? [] : populationRuns(population.synthetic, config, prices);
    return [...recorded[c]!, ...synthetic];
  });
}

/** Each configuration's population figures, and its strategy totals. */
export function sweepMetrics(population: SweepPopulation, configs: readonly PopulationConfig[], prices: PriceTable): SweepMetrics[] {
  return sweepPairs(population, configs, prices).map((pairs) => ({ ...populationMetrics(pairs), ...strategyTotals(pairs.map((pair) => pair.run as PopulationRunFigures)) }));
}

/** Recorded runs under each configuration, by the compiled sweep: one sweep per model (a model changes every trace's prices). */
function recordedPairs(population: SweepPopulation, configs: readonly PopulationConfig[], prices: PriceTable): RunPair[][] {
  const out: RunPair[][] = configs.map(() => []);
  const traces = population.traces;
  if (traces.length === 0) return out;
  const byModel = new Map<string, number[]>();
  configs.forEach((config, c) => {
    if (hasStrategyFigures(config)) {
      out[c] = populationRuns(population.recorded, config, prices);
      return;
    }
    const key = config.model ?? '';
    byModel.set(key, [...(byModel.get(key) ?? []), c]);
  });
  for (const [model, cells] of byModel) {
    const sweepTraces: SweepTrace[] = traces.map((trace) => ({
      compiled: compiledTrace(trace),
      prices: flattenPrices(resolveTracePricing(trace, { prices, ...(model === '' ? {} : { model }) })),
      cache: defaultCacheMode(trace),
    }));
    const first = configs[cells[0]!]!;
    const grid: SweepGrid = {
      brakes: NO_BRAKES,
      strategy: FULL_HISTORY,
      ...(first.latency === undefined ? {} : { latency: first.latency }),
      axes: [{ name: 'configuration', values: cells.map((c) => ({ brakes: configs[c]!.brakes, strategy: configs[c]!.strategy })) }],
    };
    const result = sweepCompiled(sweepTraces, grid);
    cells.forEach((c, cell) => {
      const baselines = baselinesOf(population.recorded, configs[c]!, prices);
      for (let t = 0; t < traces.length; t++) {
        const r = sweepTotals(result, t, cell);
        const run: PopulationRunFigures = {
          stopReason: r.reason,
          steps: r.steps,
          costPico: r.costPico,
          inputTokens: r.inputTokens,
          cachedInputTokens: r.cachedInputTokens,
          outputTokens: r.outputTokens,
          overshootPico: r.overshootPico,
          ...(r.strategyCacheLostTokens ? { strategyCacheLostTokens: r.strategyCacheLostTokens } : {}),
        };
        out[c]!.push({ run, baseline: baselines[t]! });
      }
    });
  }
  return out;
}
