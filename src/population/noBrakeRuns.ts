/**
 * A sweep's synthetic runs with no brakes, counted as the sweep visits them: by stop code, and of those the
 * runs whose task is done (ground truth) — plain numbers, so a worker thread sends them and the threads'
 * counts add up. A sweep visits each synthetic run under every configuration with its baseline, which is
 * that run with no brakes: counted under one configuration whose baselines are the grid's first
 * configuration's (sameNoBrakeRuns), they are what the header's "completed" two ways note says
 * (completionMeanings.ts), which before took a pass of its own over every synthetic run (~20% of the CPU of a
 * 2,000-run sweep over 8 configurations). Pure: no node:*, no clock.
 */
import { STOP_REASONS } from '../brakes/stopReasons.js';
import type { BaselineTruth } from '../metrics/groundTruth.js';
import { CompletionMeanings, type CompletionCounts } from './completionMeanings.js';
import { scenarioConfig, syntheticBaselineKey, type PopulationConfig } from './run.js';

/** No-brake runs with ground truth, by stop code (STOP_REASONS' order): all of them, and those whose task is done. */
export interface NoBrakeRuns {
  runs: number[];
  done: number[];
}

export function newNoBrakeRuns(): NoBrakeRuns {
  return { runs: STOP_REASONS.map(() => 0), done: STOP_REASONS.map(() => 0) };
}

/** A run's baseline (its stop code) and ground truth; a run without ground truth is not counted (as CompletionMeanings.add). */
export function addNoBrakeRun(into: NoBrakeRuns, stop: number, truth: BaselineTruth | undefined): void {
  if (truth === undefined) return;
  into.runs[stop]! += 1;
  if (truth.doneAtStep !== undefined) into.done[stop]! += 1;
}

/** A copy of `counts` (a mark to roll back to, or a tally handed out). */
export function copyNoBrakeRuns(counts: NoBrakeRuns): NoBrakeRuns {
  return { runs: [...counts.runs], done: [...counts.done] };
}

/** Counts of disjoint shares of the runs added up (undefined: no share counted any). */
export function addNoBrakeRuns(parts: readonly (NoBrakeRuns | undefined)[]): NoBrakeRuns | undefined {
  const given = parts.filter((part): part is NoBrakeRuns => part !== undefined);
  if (given.length === 0) return undefined;
  const sum = newNoBrakeRuns();
  for (const part of given) {
    part.runs.forEach((n, code) => (sum.runs[code]! += n));
    part.done.forEach((n, code) => (sum.done[code]! += n));
  }
  return sum;
}

/** The counts as the "completed" two ways note reads them. */
export function completionCountsOf(counts: NoBrakeRuns): CompletionCounts {
  const meanings = new CompletionMeanings();
  STOP_REASONS.forEach((stop, code) => {
    meanings.addRuns(stop, true, counts.done[code]!);
    meanings.addRuns(stop, false, counts.runs[code]! - counts.done[code]!);
  });
  return meanings.counts();
}

/** Whether the scenarios' runs with no brakes are the same under `a` and `b` (their baselines' key: run.ts configurationBaselines). */
export function sameNoBrakeRuns(a: PopulationConfig, b: PopulationConfig, scenarios: number): boolean {
  if (a === b) return true;
  for (let s = 0; s < scenarios; s++) if (syntheticBaselineKey(scenarioConfig(a, s)) !== syntheticBaselineKey(scenarioConfig(b, s))) return false;
  return true;
}
