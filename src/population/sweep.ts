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
import { FULL_HISTORY, rewritesHistory, type ContextStrategy } from '../context/strategy.js';
import { compiledOf } from '../replay/compiledRuns.js';
import { flattenPrices } from '../kernel/prices.js';
import { sweepCompiled, type SweepGrid, type SweepResult, type SweepTrace } from '../fast/sweep.js';
import type { CostQuantiles } from '../metrics/costQuantiles.js';
import { mergeTallies, newTally, PicoSum, TallyBuilder, tallyMetrics, type PopulationMetrics, type PopulationTally, type RunPair, type TallyMark } from '../metrics/population.js';
import { picoToUsd } from '../money.js';
import { sumStrategyFigures, type StrategySums } from '../metrics/strategyFigures.js';
import type { PriceTable } from '../pricing/types.js';
import { defaultCacheMode, resolveTracePricing } from '../replay/replay.js';
import type { Trace } from '../trace/types.js';
import { baselineOfCell, runOfCell, visitCells, type CellVisitor, type RunVisitor } from './sweepCells.js';
import type { StrategyFigures } from '../loop/types.js';
import { baselineKey, populationRuns, type PopulationConfig, type PopulationInputs, type PopulationRunFigures, type ScenarioPopulation } from './run.js';

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

/**
 * A configuration whose runs may have strategy figures: replayed run by run (as the compiled sweep does
 * for them anyway), which gives those figures — from the runs' calls, not only their compiled traces.
 */
export function hasStrategyFigures(config: PopulationConfig): boolean {
  return rewritesHistory(config.strategy) || config.brakes.repeatAction === 'skip';
}

/** The strategy totals of a configuration's runs (absent where 0). */
export function strategyTotals(runs: readonly Partial<StrategyFigures>[]): StrategyTotals {
  return strategyTotalsOf(sumStrategyFigures(runs));
}

function strategyTotalsOf(sums: StrategySums): StrategyTotals {
  const { summaryCalls, summaryCostPico, ...rest } = sums;
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
  const recorded: RunPair[][] = configs.map(() => []);
  const visit: RunVisitor = (c, run, baseline) => recorded[c]!.push({ run: { ...run }, baseline });
  recordedRuns(population, configs, prices, { visit, visitCell: (c, f, baseline) => visit(c, runOfCell(f), baselineOfCell(baseline)) });
  return configs.map((config, c) => {
    const synthetic = population.synthetic.scenarios!.length === 0 ? [] : populationRuns(population.synthetic, config, prices);
    return [...recorded[c]!, ...synthetic];
  });
}

/**
 * A configuration's figures over some runs as running sums: what a worker thread sends for its share of
 * the population; shares merged (mergeSweepTallies) give the figures of them all (sweepTallyMetrics).
 */
export interface SweepTally {
  population: PopulationTally;
  strategy: StrategySums;
}

/**
 * Each configuration's tally, run by run over one or more populations (a thread adds each unit of the
 * work queue as it takes it; no object per run for recorded runs swept together).
 */
export class SweepTallier {
  private readonly tallies: TallyBuilder[];
  private readonly strategy: StrategyCounts<PicoSum>[];
  /** `results`: the recorded sweep's result columns, reused from add to add (talliers of the same configurations may share them). */
  constructor(
    private readonly configs: readonly PopulationConfig[],
    private readonly prices: PriceTable,
    private readonly results: SweepResults = new Map(),
  ) {
    this.tallies = configs.map(() => new TallyBuilder());
    this.strategy = configs.map(() => ({ summaryCalls: 0, summaryCost: new PicoSum(), strategyCacheLostTokens: 0, skippedActions: 0 }));
  }

  add(population: SweepPopulation): this {
    const runs = population.traces.length + population.synthetic.scenarios!.reduce((n, s) => n + s.runs, 0);
    for (const tally of this.tallies) tally.reserve(runs);
    const add = (c: number, run: PopulationRunFigures, baseline: RunPair['baseline']) => {
      this.tallies[c]!.add(run, baseline);
      const s = this.strategy[c]!;
      s.summaryCalls += run.summaryCalls ?? 0;
      if (run.summaryCostPico) s.summaryCost.add(run.summaryCostPico);
      s.strategyCacheLostTokens += run.strategyCacheLostTokens ?? 0;
      s.skippedActions += run.skippedActions ?? 0;
    };
    const addCell: CellVisitor = (c, f, baseline) => {
      this.tallies[c]!.addCoded(f, baseline);
      if (f.strategyCacheLostTokens) this.strategy[c]!.strategyCacheLostTokens += f.strategyCacheLostTokens;
    };
    recordedRuns(population, this.configs, this.prices, { visit: add, visitCell: addCell }, this.results);
    if (population.synthetic.scenarios!.length > 0) this.configs.forEach((config, c) => populationRuns(population.synthetic, config, this.prices).forEach((pair) => add(c, pair.run, pair.baseline)));
    return this;
  }

  /** Where every tally is: what rollback returns to (a file streamed and found bad part way). */
  mark(): SweepTallierMark {
    return { tallies: this.tallies.map((tally) => tally.mark()), strategy: this.strategy.map((s) => ({ ...s, summaryCost: s.summaryCost.value })) };
  }

  /** Back to `mark`: the runs added since are forgotten. */
  rollback(mark: SweepTallierMark): void {
    this.tallies.forEach((tally, c) => tally.rollback(mark.tallies[c]!));
    this.strategy.forEach((s, c) => {
      const { summaryCost, ...counts } = mark.strategy[c]!;
      Object.assign(s, counts);
      s.summaryCost.reset(summaryCost);
    });
  }

  /** The tallies of every run added. */
  finish(): SweepTally[] {
    return this.configs.map((_, c) => {
      const s = this.strategy[c]!;
      return { population: this.tallies[c]!.finish(), strategy: strategySums({ ...s, summaryCost: s.summaryCost.value }) };
    });
  }
}

/** What the context strategy and the duplicate-action guard did over a configuration's runs so far, the summary calls' cost as `Money`. */
interface StrategyCounts<Money> {
  summaryCalls: number;
  summaryCost: Money;
  strategyCacheLostTokens: number;
  skippedActions: number;
}

/** A SweepTallier's state at a point (SweepTallier.mark). */
export interface SweepTallierMark {
  tallies: TallyMark[];
  strategy: StrategyCounts<bigint>[];
}

/** Each configuration's tally over the population's runs. */
export function sweepTallies(population: SweepPopulation, configs: readonly PopulationConfig[], prices: PriceTable): SweepTally[] {
  return new SweepTallier(configs, prices).add(population).finish();
}

/** The sums as sumStrategyFigures gives them (each absent where 0). */
function strategySums(s: StrategyCounts<bigint>): StrategySums {
  return {
    ...(s.summaryCalls > 0 ? { summaryCalls: s.summaryCalls, summaryCostPico: s.summaryCost } : {}),
    ...(s.strategyCacheLostTokens > 0 ? { strategyCacheLostTokens: s.strategyCacheLostTokens } : {}),
    ...(s.skippedActions > 0 ? { skippedActions: s.skippedActions } : {}),
  };
}

/** Tallies of the same configuration over disjoint shares of the runs, added up. */
export function mergeSweepTallies(parts: readonly SweepTally[]): SweepTally {
  const population = newTally();
  mergeTallies(population, ...parts.map((part) => part.population));
  const sum: StrategyCounts<bigint> = { summaryCalls: 0, summaryCost: 0n, strategyCacheLostTokens: 0, skippedActions: 0 };
  for (const part of parts) {
    sum.summaryCalls += part.strategy.summaryCalls ?? 0;
    sum.summaryCost += part.strategy.summaryCostPico ?? 0n;
    sum.strategyCacheLostTokens += part.strategy.strategyCacheLostTokens ?? 0;
    sum.skippedActions += part.strategy.skippedActions ?? 0;
  }
  return { population, strategy: strategySums(sum) };
}

export function sweepTallyMetrics(tally: SweepTally, quantiles?: CostQuantiles): SweepMetrics {
  return { ...tallyMetrics(tally.population, ...(quantiles === undefined ? [] : [quantiles])), ...strategyTotalsOf(tally.strategy) };
}

/** Each configuration's population figures, and its strategy totals. */
export function sweepMetrics(population: SweepPopulation, configs: readonly PopulationConfig[], prices: PriceTable): SweepMetrics[] {
  return sweepTallies(population, configs, prices).map((tally) => sweepTallyMetrics(tally));
}

/** A sweep of some configurations (one model and latency model): its grid, each cell's baseline cell, its result columns. */
interface ModelSweep {
  grid: SweepGrid;
  baselines: { of: Int32Array; count: number };
  result?: SweepResult;
}

/**
 * Sweeps reused between adds of the same configurations, per (model, latency model): the grid (its plan
 * is memoised on it) and the result columns.
 */
export type SweepResults = Map<string, ModelSweep>;

/** Traces swept at once for a population's recorded runs (the memory of one slice's cells, reused). */
export const SWEEP_SLICE_TRACES = 256;

/** The grid of `cells` (configurations of one model), and each distinct baseline (context, model and latency, no brakes: baselineKey) as one more cell. */
function modelSweep(configs: readonly PopulationConfig[], cells: readonly number[]): ModelSweep {
  const first = configs[cells[0]!]!;
  const baselineIds = new Map<string, number>();
  const baselineStrategies: ContextStrategy[] = [];
  const of = Int32Array.from(cells, (c) => {
    const key = baselineKey(configs[c]!);
    let b = baselineIds.get(key);
    if (b === undefined) baselineIds.set(key, (b = baselineStrategies.push(configs[c]!.strategy) - 1));
    return b;
  });
  const grid: SweepGrid = {
    brakes: NO_BRAKES,
    strategy: FULL_HISTORY,
    ...(first.latency === undefined ? {} : { latency: first.latency }),
    axes: [{ name: 'configuration', values: [...cells.map((c) => ({ brakes: configs[c]!.brakes, strategy: configs[c]!.strategy })), ...baselineStrategies.map((strategy) => ({ brakes: NO_BRAKES, strategy }))] }],
  };
  return { grid, baselines: { of, count: baselineStrategies.length } };
}

/**
 * Recorded runs under each configuration, each configuration's in trace order, each handed with its
 * baseline to `visit` (configurations replayed run by run) or `visitCell` (the compiled sweep's cells):
 * by the compiled sweep, one sweep per model (a model changes every trace's prices), read trace by trace;
 * the baselines are cells of the same sweep (no brakes: what baselinesOf replays).
 */
function recordedRuns(population: SweepPopulation, configs: readonly PopulationConfig[], prices: PriceTable, visitors: { visit: RunVisitor; visitCell: CellVisitor }, sweeps: SweepResults = new Map()): void {
  const { visit, visitCell } = visitors;
  const traces = population.traces;
  if (traces.length === 0) return;
  // One sweep per (model, latency model): a sweep prices its traces once and runs one latency model.
  const bySweep = new Map<string, number[]>();
  configs.forEach((config, c) => {
    if (hasStrategyFigures(config)) {
      for (const pair of populationRuns(population.recorded, config, prices)) visit(c, pair.run, pair.baseline);
      return;
    }
    const key = JSON.stringify([config.model ?? '', config.latency ?? null]);
    const group = bySweep.get(key);
    if (group === undefined) bySweep.set(key, [c]);
    else group.push(c);
  });
  for (const [key, cells] of bySweep) {
    const model = configs[cells[0]!]!.model;
    const sweepTraces: SweepTrace[] = traces.map((trace) => ({
      compiled: compiledOf(trace),
      prices: flattenPrices(resolveTracePricing(trace, { prices, ...(model === undefined ? {} : { model }) })),
      cache: defaultCacheMode(trace),
    }));
    const sweep = sweeps.get(key) ?? modelSweep(configs, cells);
    sweeps.set(key, sweep);
    // Slices of traces, one result's columns reused: a result holds every cell of its traces (~64 bytes
    // each), so 8,000 runs × 964 cells in one piece held ~500 MB.
    for (let from = 0; from < traces.length; from += SWEEP_SLICE_TRACES) {
      const result = sweepCompiled(sweepTraces, sweep.grid, { from, to: Math.min(traces.length, from + SWEEP_SLICE_TRACES) }, sweep.result);
      // A shorter slice's columns are views of the longer ones: those are kept for the next full slice.
      if (sweep.result === undefined || result.stop.length >= sweep.result.stop.length) sweep.result = result;
      visitCells(result, cells, sweep.baselines, visitCell);
    }
  }
}
