/**
 * A sweep's "completed" two ways (population/completionMeanings.ts): its `completed`, `completionRate` and
 * `costPerCompletedUsd` count runs whose stop reason is `completed`, while its false stops of synthetic runs
 * count runs whose task is done with no brakes (ground truth). Where both show — a sweep with scenario files —
 * one note says how many runs each counts and where they part, as calibrate and project --suggest-cap say it.
 *
 * The counts are of the synthetic runs' baselines under the grid's first configuration (as calibrate counts
 * its first configuration's), whatever slice a shard computes, so every shard of one sweep says the same
 * (merge refuses shards whose headers differ).
 */
import { CompletionMeanings, completionMeaningsLine, type CompletionCounts } from '../../population/completionMeanings.js';
import { configurationBaselines, type ScenarioPopulation } from '../../population/run.js';
import type { SweepSetup } from './sweepWork.js';

/** What each meaning counts in a sweep's report (with a target, the recommendation counts tasks done: recommend.ts countedRow). */
const SWEEP_USES = { completed: "what the completion rate and the cost per completed run count, and recorded runs' false stops are judged by", done: "what synthetic runs' false stops are judged by" };
const SWEEP_USES_TARGET = { ...SWEEP_USES, done: "what synthetic runs' false stops and the recommendation are judged by" };

/** The synthetic runs' no-brake counts under the grid's first configuration; undefined without scenario files. */
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

export function sweepCompletionFacts(setup: Pick<SweepSetup, 'scenarios' | 'configurations' | 'prices' | 'axes' | 'targetCompletion'>, recordedRuns: number): SweepCompletionFacts {
  const counts = firstCounts(setup);
  if (counts === undefined) return { notes: [] };
  const line = completionMeaningsLine(counts, setup.targetCompletion === undefined ? SWEEP_USES : SWEEP_USES_TARGET);
  const whole = recordedRuns === 0 && counts.runs > 0 && !setup.axes.some((axis) => BASELINE_KEYS.includes(axis.key));
  return { notes: line === undefined ? [] : [line], ...(whole ? { noBrakes: { runs: counts.runs, completed: counts.completed, tasksDone: counts.tasksDone } } : {}) };
}
