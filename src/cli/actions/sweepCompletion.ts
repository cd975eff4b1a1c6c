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
import { CompletionMeanings, completionMeaningsLine } from '../../population/completionMeanings.js';
import { configurationBaselines, type ScenarioPopulation } from '../../population/run.js';
import type { SweepSetup } from './sweepWork.js';

/** What each meaning counts in a sweep's report. */
const SWEEP_USES = { completed: "what the completion rate and the cost per completed run count, and recorded runs' false stops are judged by", done: "what synthetic runs' false stops are judged by" };

/** The note, or none without scenario files (no run with ground truth the sweep knows of). */
export function sweepCompletionNotes(setup: Pick<SweepSetup, 'scenarios' | 'configurations' | 'prices'>): string[] {
  const first = setup.configurations[0];
  if (setup.scenarios.length === 0 || first === undefined) return [];
  const scenarios: ScenarioPopulation[] = setup.scenarios.map(({ scenario, settings }) => ({ scenario, runs: settings.runs, seed: settings.seed }));
  const meanings = new CompletionMeanings();
  for (const baseline of configurationBaselines({ scenarios }, first.config, setup.prices)) meanings.add(baseline.stopReason, baseline.truth);
  const line = completionMeaningsLine(meanings.counts(), SWEEP_USES);
  return line === undefined ? [] : [line];
}
