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
import { mergeTallies, newTally, PicoSum, TallyBuilder, tallyMetrics, type PopulationMetrics, type PopulationTally, type RunPair, type TallyMark } from '../metrics/population.js';
import { picoToUsd } from '../money.js';
import { sumStrategyFigures, type StrategySums } from '../metrics/strategyFigures.js';
import type { PriceTable } from '../pricing/types.js';
import type { Trace } from '../trace/types.js';
import type { StrategyFigures } from '../loop/types.js';
import { baselineOfCell, runOfCell, type CellVisitor, type RunVisitor } from './sweepCells.js';
import { populationRuns, type PopulationConfig, type PopulationInputs, type PopulationRunFigures, type ScenarioPopulation } from './run.js';
import { recordedRuns, type SweepResults } from './sweepRecorded.js';
import { syntheticRuns } from './syntheticSweep.js';

export { hasStrategyFigures, SWEEP_SLICE_TRACES, type SweepResults } from './sweepRecorded.js';

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
  recordedRuns(population.recorded, configs, prices, { visit, visitCell: (c, f, baseline) => visit(c, runOfCell(f), baselineOfCell(baseline)) });
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
  /** The compiled sweeps of synthetic runs' recordings, per syntheticBaselineKey, reused from add to add. */
  private readonly syntheticSweeps = new Map<string, SweepResults>();
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
    recordedRuns(population.recorded, this.configs, this.prices, { visit: add, visitCell: addCell }, { sweeps: this.results });
    syntheticRuns(population.synthetic, this.configs, this.prices, { visit: add, visitCell: addCell }, this.syntheticSweeps);
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

