/**
 * A sweep: every configuration of a grid over one population (recorded traces and synthetic scenario
 * runs), each as the population figures (populationMetrics) of its runs paired with their baselines.
 *
 * Recorded traces go through the compiled sweep (sweepRecorded.ts: each trace compiled once, one pass
 * per context strategy and cache mode, a step cap read off the same pass). Synthetic runs are closed
 * loop: a tally sweeps each run's recording, made once per context where the brakes only stop the agent
 * (syntheticSweep.ts), else each configuration runs its agents (populationRuns; sweepPairs always does).
 * Baselines come from the population runner (src/population/run.ts), so a sweep column means what a
 * `check` expectation means. Pure: no node:*, no clock.
 */
import type { CostQuantiles } from '../metrics/costQuantiles.js';
import { mergeTallies, newTally, TallyBuilder, tallyMetrics, type PopulationMetrics, type PopulationTally, type RunPair, type TallyMark } from '../metrics/population.js';
import { addToStrategyTally, newStrategyTally, shownStrategySums, sumStrategyFigures, type StrategySums, type StrategyTally } from '../metrics/strategyFigures.js';
import { strategyFigureRecord, type StrategyFigureRecord } from '../report/strategyFigureNames.js';
import type { PriceTable } from '../pricing/types.js';
import type { Trace } from '../trace/types.js';
import type { StrategyFigures } from '../loop/types.js';
import { baselineOfCell, runOfCell, type CellVisitor, type RunVisitor } from './sweepCells.js';
import { configurationRuns, type PopulationConfig, type PopulationInputs, type PopulationRunFigures, type ScenarioPopulation } from './run.js';
import type { SweepResults } from './sweepRecorded.js';
import { syntheticRuns } from './syntheticSweep.js';
import { recordedRunsNamed } from './blameRun.js';

export { hasStrategyFigures, statesItsStrategy, SWEEP_SLICE_TRACES, type SweepResults } from './sweepRecorded.js';

/**
 * What the context strategy and the duplicate-action guard did over a configuration's runs, each present
 * only when not 0, under the report names (summary calls and their cost in USD, cache hits lost, skipped actions).
 */
export type StrategyTotals = StrategyFigureRecord;

/** A configuration's figures (with what its runs cost with no brakes, in all: `baselineCostUsd`) and its strategy totals. */
export type SweepMetrics = PopulationMetrics & StrategyTotals;

/** The strategy totals of a configuration's runs (absent where 0). */
export function strategyTotals(runs: readonly Partial<StrategyFigures>[]): StrategyTotals {
  return strategyFigureRecord(sumStrategyFigures(runs));
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
  recordedRunsNamed(population.recorded, configs, prices, { visit, visitCell: (c, f, baseline) => visit(c, runOfCell(f), baselineOfCell(baseline)) });
  return configs.map((config, c) => {
    const synthetic = population.synthetic.scenarios!.length === 0 ? [] : configurationRuns(population.synthetic, config, prices);
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
  private readonly strategy: StrategyTally[];
  /** The compiled sweeps of synthetic runs' recordings, per syntheticBaselineKey, reused from add to add. */
  private readonly syntheticSweeps = new Map<string, SweepResults>();
  /** `results`: the recorded sweep's result columns, reused from add to add (talliers of the same configurations may share them). */
  constructor(
    private readonly configs: readonly PopulationConfig[],
    private readonly prices: PriceTable,
    private readonly results: SweepResults = new Map(),
  ) {
    this.tallies = configs.map(() => new TallyBuilder());
    this.strategy = configs.map(newStrategyTally);
  }

  add(population: SweepPopulation): this {
    const runs = population.traces.length + population.synthetic.scenarios!.reduce((n, s) => n + s.runs, 0);
    for (const tally of this.tallies) tally.reserve(runs);
    const add = (c: number, run: PopulationRunFigures, baseline: RunPair['baseline']) => {
      this.tallies[c]!.add(run, baseline);
      addToStrategyTally(this.strategy[c]!, run);
    };
    const addCell: CellVisitor = (c, f, baseline) => {
      this.tallies[c]!.addCoded(f, baseline);
      if (f.strategyCacheLostTokens) this.strategy[c]!.strategyCacheLostTokens += f.strategyCacheLostTokens;
    };
    recordedRunsNamed(population.recorded, this.configs, this.prices, { visit: add, visitCell: addCell }, { sweeps: this.results });
    syntheticRuns(population.synthetic, this.configs, this.prices, { visit: add, visitCell: addCell }, this.syntheticSweeps);
    return this;
  }

  /** Where every tally is: what rollback returns to (a file streamed and found bad part way). */
  mark(): SweepTallierMark {
    return { tallies: this.tallies.map((tally) => tally.mark()), strategy: this.strategy.map((s) => ({ ...s })) };
  }

  /** Back to `mark`: the runs added since are forgotten. */
  rollback(mark: SweepTallierMark): void {
    this.tallies.forEach((tally, c) => tally.rollback(mark.tallies[c]!));
    this.strategy.forEach((s, c) => Object.assign(s, mark.strategy[c]!));
  }

  /** The tallies of every run added. */
  finish(): SweepTally[] {
    return this.configs.map((_, c) => ({ population: this.tallies[c]!.finish(), strategy: shownStrategySums(this.strategy[c]!) }));
  }
}

/** A SweepTallier's state at a point (SweepTallier.mark). */
export interface SweepTallierMark {
  tallies: TallyMark[];
  strategy: StrategyTally[];
}

/** Each configuration's tally over the population's runs. */
export function sweepTallies(population: SweepPopulation, configs: readonly PopulationConfig[], prices: PriceTable): SweepTally[] {
  return new SweepTallier(configs, prices).add(population).finish();
}

/** Tallies of the same configuration over disjoint shares of the runs, added up (one share: itself, as added up it would be the same). */
export function mergeSweepTallies(parts: readonly SweepTally[]): SweepTally {
  if (parts.length === 1) return parts[0]!;
  const population = newTally();
  mergeTallies(population, ...parts.map((part) => part.population));
  const sum = newStrategyTally();
  for (const part of parts) addToStrategyTally(sum, part.strategy);
  return { population, strategy: shownStrategySums(sum) };
}

export function sweepTallyMetrics(tally: SweepTally, quantiles?: CostQuantiles): SweepMetrics {
  // The strategy totals after the population figures (as a spread of both: one object per configuration, not three).
  return Object.assign(quantiles === undefined ? tallyMetrics(tally.population) : tallyMetrics(tally.population, quantiles), strategyFigureRecord(tally.strategy));
}

/** Each configuration's population figures, and its strategy totals. */
export function sweepMetrics(population: SweepPopulation, configs: readonly PopulationConfig[], prices: PriceTable): SweepMetrics[] {
  return sweepTallies(population, configs, prices).map((tally) => sweepTallyMetrics(tally));
}

