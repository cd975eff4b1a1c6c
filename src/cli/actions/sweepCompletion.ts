/**
 * A sweep's "completed" two ways (population/completionMeanings.ts): its JSON's `completed`, `completionRate`
 * and `costPerCompletedUsd` count runs whose stop reason is `completed`, while its table's completion, its
 * frontier, its recommendation and its false stops of synthetic runs count runs whose task is done (ground
 * truth). Where both show — a sweep with scenario files — one note says how many runs each counts and where
 * they part, as calibrate and project --suggest-cap say it.
 *
 * The counts are of the synthetic runs' baselines under the grid's first configuration (as calibrate counts
 * its first configuration's), whatever slice a shard computes, so every shard of one sweep says the same
 * (merge refuses shards whose headers differ): counted on the sweep's own pass where its slice holds a
 * configuration with those runs (noBrakesConfiguration), else in a pass of their own (firstCounts).
 */
import { CompletionMeanings, completionMeaningsLine, type CompletionCounts } from '../../population/completionMeanings.js';
import { configurationBaselines, type ScenarioPopulation } from '../../population/run.js';
import { sameNoBrakeRuns } from '../../population/noBrakeRuns.js';
import type { SweepSetup } from './sweepWork.js';

/** What each meaning counts in a sweep's report (the table's and chart's completion, the frontier and, with a target, the recommendation count tasks done: recommend.ts countedRow). */
const SWEEP_USES = { completed: "what JSON's and CSV's completed, completionRate and costPerCompletedUsd count, and recorded runs' false stops are judged by", done: "what the table's tasks done, the frontier and synthetic runs' false stops are judged by" };
const SWEEP_USES_TARGET = { ...SWEEP_USES, done: "what the table's tasks done, the frontier, the recommendation and synthetic runs' false stops are judged by" };

/**
 * Of configurations `range`, the first (its index in the range) whose synthetic runs with no brakes are the
 * grid's first configuration's: a sweep of the range counts them as it visits that configuration's runs
 * (SweepTallier `noBrakesOf`), with no pass of their own. Undefined without scenario files, or when no
 * configuration of the range has those runs (a shard of other contexts: firstCounts runs them).
 */
export function noBrakesConfiguration(setup: Pick<SweepSetup, 'scenarios' | 'configurations'>, range: { from: number; to: number }): number | undefined {
  const first = setup.configurations[0];
  if (setup.scenarios.length === 0 || first === undefined) return undefined;
  for (let i = range.from; i < range.to; i++) if (sameNoBrakeRuns(setup.configurations[i]!.config, first.config, setup.scenarios.length)) return i - range.from;
  return undefined;
}

/** What a sweep read of its runs may add: the synthetic runs with no brakes, counted as it visited them (noBrakesConfiguration). */
export interface NoBrakesCounted {
  noBrakes?: CompletionCounts;
}

/** The synthetic runs' no-brake counts under the grid's first configuration, in a pass of their own; undefined without scenario files. */
function firstCounts(setup: Pick<SweepSetup, 'scenarios' | 'configurations' | 'prices'>): CompletionCounts | undefined {
  const first = setup.configurations[0];
  if (setup.scenarios.length === 0 || first === undefined) return undefined;
  const scenarios: ScenarioPopulation[] = setup.scenarios.map(({ scenario, settings }) => ({ scenario, runs: settings.runs, seed: settings.seed }));
  const meanings = new CompletionMeanings();
  for (const baseline of configurationBaselines({ scenarios }, first.config, setup.prices)) meanings.add(baseline.stopReason, baseline.truth);
  return meanings.counts();
}

/** Grid keys that change the runs with no brakes (their context, cache, model, max_tokens sent): their configurations' baselines differ. */
const BASELINE_KEYS = ['context', 'tool-result-cap', 'cache', 'model', 'max-output-tokens'];

/** What a sweep's header says of its runs with no brakes. */
export interface SweepCompletionFacts {
  /** The "completed" two ways note, or none without scenario files (no run with ground truth the sweep knows of). */
  notes: string[];
  /**
   * What the runs complete with no brakes (stop reason completed), when every configuration shares one
   * baseline that the sweep knows whole: synthetic runs alone (no recorded run, whose baselines the threads
   * hold), under a grid with no key that changes the baseline. The ceiling no brake that only stops runs can
   * pass (the report says it when no configuration reaches the target). Absent otherwise.
   */
  noBrakes?: { runs: number; completed: number; tasksDone: number };
}

/** `counted`: the counts as the sweep's own pass took them (noBrakesConfiguration), else they are taken here (firstCounts). */
export function sweepCompletionFacts(setup: Pick<SweepSetup, 'scenarios' | 'configurations' | 'prices' | 'axes' | 'targetCompletion'>, recordedRuns: number, counted?: CompletionCounts): SweepCompletionFacts {
  const counts = setup.scenarios.length === 0 ? undefined : (counted ?? firstCounts(setup));
  if (counts === undefined) return { notes: [] };
  const line = completionMeaningsLine(counts, setup.targetCompletion === undefined ? SWEEP_USES : SWEEP_USES_TARGET);
  const whole = recordedRuns === 0 && counts.runs > 0 && !setup.axes.some((axis) => BASELINE_KEYS.includes(axis.key));
  return { notes: line === undefined ? [] : [line], ...(whole ? { noBrakes: { runs: counts.runs, completed: counts.completed, tasksDone: counts.tasksDone } } : {}) };
}
