/**
 * What runs stand for, the one rule of `project` (intervals, --suggest-cap's bounds) and `sweep` (how far to
 * trust the recommendation, how sure it is): a fitted profile's synthetic runs stand for the recorded runs it
 * was fitted to (fitWarnings.ts fitRunsOf: its `# Fitted by loopcost fit to N recorded runs` line), at most the
 * runs drawn and at least one; every other part of the runs (recorded runs, a hand-written scenario file's)
 * for its own runs. A profile knows its population no better than the runs behind it, so more --runs must not
 * narrow what is said of it. A hand-written scenario's runs stand for no recorded runs at all: no interval
 * measures its weights (projectConfidenceText.ts handWrittenText says so). Pure.
 */
import { fitRunsOf } from '../scenario/fitWarnings.js';
import type { CostStratum } from './projectConfidence.js';

/** A part of the runs, in the order they come: the runs drawn and how many they stand for. */
export interface StandingPart {
  runs: number;
  standsFor: number;
  /** A scenario file's runs: its path, and whether fit wrote it (a fitted profile) or not (hand-written). */
  source?: string;
  fitted?: boolean;
}

/** A scenario file's runs as a part: `runs` drawn of `scenario`, standing for the recorded runs fit fitted it to (at most `runs`, at least one), else for themselves. */
export function scenarioPart(scenario: object & { source: string }, runs: number): StandingPart {
  const fittedOn = fitRunsOf(scenario);
  return { runs, standsFor: fittedOn === undefined ? runs : stoodFor(fittedOn, runs), source: scenario.source, fitted: fittedOn !== undefined };
}

/** The runs `runs` drawn stand for when they stand for `sampleRuns`: at most the runs drawn, at least one. */
export function stoodFor(sampleRuns: number, runs: number): number {
  return Math.max(1, Math.min(sampleRuns, runs));
}

/** A scenario file's runs in a sweep: the file read (its fit line, if any) and the runs drawn of it. */
export interface ScenarioRuns {
  scenario: object & { source: string };
  runs: number;
}

/** The parts of `runs` runs whose last are `scenarios`' (recorded runs first: sweep's order); undefined with no scenario file. */
export function partsOfRuns(runs: number, scenarios: readonly ScenarioRuns[]): StandingPart[] | undefined {
  if (scenarios.length === 0) return undefined;
  const own = scenarios.map((s) => scenarioPart(s.scenario, s.runs));
  const recorded = runs - own.reduce((sum, p) => sum + p.runs, 0);
  return recorded > 0 ? [{ runs: recorded, standsFor: recorded }, ...own] : own;
}

/** Project's strata (projectConfidence.ts CostStratum: each part's costs and the runs it stands for) as parts. */
export function partsOfStrata(strata: readonly CostStratum[] | undefined): StandingPart[] | undefined {
  return strata?.map((s) => ({ runs: s.costsPico.length, standsFor: stoodFor(s.sampleRuns, s.costsPico.length) }));
}

/** Whether some part stands for fewer runs than it holds (else the runs are the sample, and nothing changes). */
export function someStandForFewer(parts: readonly StandingPart[] | undefined): boolean {
  return parts !== undefined && parts.some((p) => p.runs > 0 && p.standsFor < p.runs);
}

/**
 * How many of the runs the population stands for some of its runs are (`picked`, in the parts' order): a part's
 * k of its N runs drawn count as k × m / N, m the runs it stands for, every other part's as themselves; summed,
 * to the nearest whole run. No parts: the runs picked.
 */
export function runsStandingFor(parts: readonly StandingPart[] | undefined, picked: ArrayLike<boolean | number>): number {
  if (parts === undefined) {
    let count = 0;
    for (let k = 0; k < picked.length; k++) if (picked[k]) count++;
    return count;
  }
  let from = 0;
  let runs = 0;
  for (const part of parts) {
    let k = 0;
    for (let i = from; i < from + part.runs; i++) if (picked[i]) k++;
    from += part.runs;
    if (k > 0) runs += (k * part.standsFor) / part.runs;
  }
  return Math.round(runs);
}

/** All the runs the parts stand for. */
export function allStandingFor(parts: readonly StandingPart[]): number {
  return parts.reduce((sum, p) => sum + (p.runs === 0 ? 0 : p.standsFor), 0);
}
