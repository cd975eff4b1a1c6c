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
import { stopCodeOf } from '../kernel/stopCodes.js';
import { addDoneCounts, DoneCountsBuilder, FlagsBuilder, keptUnits, runsInOrder, tasksDoneOf, type DoneCounts, type JudgedRun, type KeptRuns } from './recommendRuns.js';
import type { RunOutcomes } from './recommendBootstrap.js';
import { addNoBrakeRun, copyNoBrakeRuns, newNoBrakeRuns, type NoBrakeRuns } from './noBrakeRuns.js';

export { hasStrategyFigures, statesItsStrategy, SWEEP_SLICE_TRACES, type SweepResults } from './sweepRecorded.js';

/**
 * What the context strategy and the duplicate-action guard did over a configuration's runs, each present
 * only when not 0, under the report names (summary calls and their cost in USD, cache hits lost, skipped actions).
 */
export type StrategyTotals = StrategyFigureRecord;

/**
 * Completion as a sweep's recommendation counts it, where some runs carry ground truth (synthetic runs,
 * generated traces): those runs when their task is done (groundTruth.ts countsAsDone), the others when their
 * stop reason is `completed`; `done` of the runs, at `costPerDoneUsd` (the configuration's spend over them).
 */
export interface TasksDone {
  done: number;
  doneRate: number;
  costPerDoneUsd: number | null;
  groundTruthRuns: number;
  /** Runs with ground truth that ended `completed` without doing their task (not counted), and that did it but ended otherwise (counted). */
  completedNotDone: number;
  doneNotCompleted: number;
}

/** A configuration's figures (with what its runs cost with no brakes, in all: `baselineCostUsd`) and its strategy totals; with runs that carry ground truth, their tasks done. */
export type SweepMetrics = PopulationMetrics &
  StrategyTotals & {
    tasksDone?: TasksDone;
    /** `--tree`: the session trees in which a brake stopped a sub-agent (treeSweep.ts; what the recommendation's open-loop words count). */
    subagentsStopped?: number;
  };

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
  /** With `keepRuns`: each run's completion and the units they came in (recommendRuns.ts); merged: the runs in the order of the files. */
  kept?: KeptRuns;
  /** Merged (mergeSweepTallies) from tallies that kept their runs: the runs, costs and completion, in the order of the files (a copy). */
  runs?: RunOutcomes;
  /** Of its runs with ground truth, those whose task done and stop reason part (absent: no run with ground truth). */
  done?: DoneCounts;
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
  /** With `keepRuns`: each configuration's runs' completion, and where each unit began among the runs. */
  private readonly flags: FlagsBuilder[] | undefined;
  /** Each configuration's runs with ground truth, counted (recommendRuns.ts DoneCounts). */
  private readonly done: DoneCountsBuilder;
  /** With `noBrakesOf`: that configuration's synthetic runs' baselines, counted (noBrakeRuns.ts). */
  private readonly noBrakes: { of: number; runs: NoBrakeRuns } | undefined;
  private starts: { order: number; from: number }[] = [];
  /**
   * `results`: the recorded sweep's result columns, reused from add to add (talliers of the same
   * configurations may share them); `keepRuns`: keep each run's completion (a sweep with a target, for how
   * sure its recommendation is), units begun with `unit`; `noBrakesOf`: count the synthetic runs' baselines
   * under that configuration (noBrakeRuns.ts: what the header's note says of the runs with no brakes).
   */
  constructor(
    private readonly configs: readonly PopulationConfig[],
    private readonly prices: PriceTable,
    private readonly results: SweepResults = new Map(),
    options: { keepRuns?: boolean; noBrakesOf?: number | undefined } = {},
  ) {
    this.tallies = configs.map(() => new TallyBuilder());
    this.strategy = configs.map(newStrategyTally);
    this.flags = options.keepRuns === true ? configs.map(() => new FlagsBuilder()) : undefined;
    this.done = new DoneCountsBuilder(configs.length);
    this.noBrakes = options.noBrakesOf === undefined ? undefined : { of: options.noBrakesOf, runs: newNoBrakeRuns() };
  }

  /** The runs added next are a unit of the work queue's, at `order` among the inputs (sweepUnits.ts): merged tallies put them in that order. */
  unit(order: number): this {
    this.starts.push({ order, from: this.flags?.[0]?.length ?? 0 });
    return this;
  }

  add(population: SweepPopulation): this {
    const runs = population.traces.length + population.synthetic.scenarios!.reduce((n, s) => n + s.runs, 0);
    for (const tally of this.tallies) tally.reserve(runs);
    const flags = this.flags;
    // Completion as the recommendation counts it (groundTruth.ts countsAsDone), decided here once for every run.
    // One object judged for every run (a sweep may make 10^8 of them).
    const judged: JudgedRun = { stop: 0, steps: 0, truth: undefined, ownDone: undefined };
    const counted = (c: number, stop: number, steps: number, truth: RunPair['baseline']['truth'], ownDone?: boolean) => {
      judged.stop = stop;
      judged.steps = steps;
      judged.truth = truth;
      judged.ownDone = ownDone;
      const done = this.done.judge(c, judged);
      flags?.[c]!.push(done);
    };
    // With `noBrakesOf`: that configuration's baselines counted as the synthetic runs are visited (noBrakeRuns.ts); -1 over the recorded runs.
    const noBrakes = this.noBrakes?.runs;
    let noBrakesOf = -1;
    const add = (c: number, run: PopulationRunFigures, baseline: RunPair['baseline'], ownDone?: boolean) => {
      if (c === noBrakesOf) addNoBrakeRun(noBrakes!, stopCodeOf(baseline.stopReason), baseline.truth);
      this.tallies[c]!.add(run, baseline, ownDone);
      counted(c, stopCodeOf(run.stopReason), run.steps, baseline.truth, ownDone);
      addToStrategyTally(this.strategy[c]!, run);
    };
    const addCell: CellVisitor = (c, f, baseline) => {
      if (c === noBrakesOf) addNoBrakeRun(noBrakes!, baseline.stop, baseline.truth);
      this.tallies[c]!.addCoded(f, baseline);
      counted(c, f.stop, f.steps, baseline.truth);
      if (f.strategyCacheLostTokens) this.strategy[c]!.strategyCacheLostTokens += f.strategyCacheLostTokens;
    };
    recordedRunsNamed(population.recorded, this.configs, this.prices, { visit: add, visitCell: addCell }, { sweeps: this.results });
    noBrakesOf = this.noBrakes?.of ?? -1;
    syntheticRuns(population.synthetic, this.configs, this.prices, { visit: add, visitCell: addCell }, this.syntheticSweeps);
    return this;
  }

  /** With `noBrakesOf`: the synthetic runs added so far, with no brakes (noBrakeRuns.ts). */
  noBrakeRuns(): NoBrakeRuns | undefined {
    return this.noBrakes === undefined ? undefined : copyNoBrakeRuns(this.noBrakes.runs);
  }

  /** Where every tally is: what rollback returns to (a file streamed and found bad part way). */
  mark(): SweepTallierMark {
    const noBrakes = this.noBrakeRuns();
    return { tallies: this.tallies.map((tally) => tally.mark()), strategy: this.strategy.map((s) => ({ ...s })), runs: this.flags?.[0]?.length ?? 0, starts: this.starts.length, done: this.done.mark(), ...(noBrakes === undefined ? {} : { noBrakes }) };
  }

  /** Back to `mark`: the runs added since are forgotten. */
  rollback(mark: SweepTallierMark): void {
    this.tallies.forEach((tally, c) => tally.rollback(mark.tallies[c]!));
    this.strategy.forEach((s, c) => Object.assign(s, mark.strategy[c]!));
    for (const flags of this.flags ?? []) flags.length = mark.runs;
    this.starts.length = mark.starts;
    this.done.rollback(mark.done);
    if (this.noBrakes !== undefined && mark.noBrakes !== undefined) this.noBrakes.runs = copyNoBrakeRuns(mark.noBrakes);
  }

  /** The tallies of every run added. */
  finish(): SweepTally[] {
    const units = this.flags === undefined ? undefined : keptUnits(this.starts, this.flags[0]?.length ?? 0);
    this.starts = [];
    return this.configs.map((_, c) => {
      const done = this.done.take(c);
      return {
        population: this.tallies[c]!.finish(),
        strategy: shownStrategySums(this.strategy[c]!),
        ...(units === undefined ? {} : { kept: { completed: this.flags![c]!.finish(), units } }),
        ...(done.groundTruthRuns === 0 ? {} : { done }),
      };
    });
  }
}

/** A SweepTallier's state at a point (SweepTallier.mark). */
export interface SweepTallierMark {
  tallies: TallyMark[];
  strategy: StrategyTally[];
  /** Runs added, and units begun (each configuration's completion flags kept: keepRuns). */
  runs: number;
  starts: number;
  /** Each configuration's DoneCounts, three numbers each. */
  done: Float64Array;
  /** With `noBrakesOf`: its counts (a copy). */
  noBrakes?: NoBrakeRuns;
}

/** Each configuration's tally over the population's runs. */
export function sweepTallies(population: SweepPopulation, configs: readonly PopulationConfig[], prices: PriceTable): SweepTally[] {
  return new SweepTallier(configs, prices).add(population).finish();
}

/**
 * Tallies of the same configuration over disjoint shares of the runs, added up (one share: itself, as added
 * up it would be the same); when every share kept its runs, with them in the order of the files (`runs`,
 * a copy made before the costs are selected in place or sent to another thread).
 */
export function mergeSweepTallies(parts: readonly SweepTally[]): SweepTally {
  const runs = parts.length > 0 && parts.every((part) => part.kept !== undefined) ? runsInOrder(parts.map((part) => ({ costs: part.population.costs, kept: part.kept! }))) : undefined;
  const withRuns = (tally: SweepTally): SweepTally => (runs === undefined ? tally : { population: tally.population, strategy: tally.strategy, runs, ...(tally.done === undefined ? {} : { done: tally.done }) });
  if (parts.length === 1) return withRuns(parts[0]!);
  const population = newTally();
  mergeTallies(population, ...parts.map((part) => part.population));
  const sum = newStrategyTally();
  for (const part of parts) addToStrategyTally(sum, part.strategy);
  const done = addDoneCounts(parts.map((part) => part.done));
  return withRuns({ population, strategy: shownStrategySums(sum), ...(done === undefined ? {} : { done }) });
}

/**
 * A configuration's figures; a merged tally's runs (`runs`) ride along as `runOutcomes` (into its report
 * row, rowsOf), for the command to take before anything is written (recommendRuns.ts takeRunOutcomes).
 */
export function sweepTallyMetrics(tally: SweepTally, quantiles?: CostQuantiles): SweepMetrics {
  // The strategy totals after the population figures (as a spread of both: one object per configuration, not three).
  const metrics: SweepMetrics = Object.assign(quantiles === undefined ? tallyMetrics(tally.population) : tallyMetrics(tally.population, quantiles), strategyFigureRecord(tally.strategy));
  if (tally.done !== undefined) metrics.tasksDone = tasksDoneOf(tally.population, tally.done);
  return tally.runs === undefined ? metrics : Object.assign(metrics, { runOutcomes: tally.runs });
}

/** Each configuration's population figures, and its strategy totals. */
export function sweepMetrics(population: SweepPopulation, configs: readonly PopulationConfig[], prices: PriceTable): SweepMetrics[] {
  return sweepTallies(population, configs, prices).map((tally) => sweepTallyMetrics(tally));
}

