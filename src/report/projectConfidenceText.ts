/**
 * `project`'s line on how far to trust the per-run figures: the 95% intervals of the mean and p95 cost per
 * run that the runs are enough for (projectConfidence.ts), and for the others why there is none. With a
 * fitted profile among the inputs, what its runs stand for (the recorded runs it was fitted to, not the
 * synthetic runs drawn of it), what the intervals leave out, and the profile's own small-sample caveat.
 */
import type { RunCostConfidence } from '../population/projectConfidence.js';
import { MIN_RUNS_FOR_MEAN_INTERVAL, RUNS_FOR_P95_UPPER } from '../population/projectConfidence.js';
import type { ReportWarning } from './warnings.js';
import { formatUsdNumber } from './money.js';
import { counted } from '../plural.js';

/** A fitted profile among a projection's inputs (JSON `fittedProfiles`). */
export interface FittedProfile {
  source: string;
  /** The recorded runs fit fitted it to (its header comment). */
  fittedOnRuns: number;
  syntheticRuns: number;
  /** What the profile says of its sample (fit.ts heldOutStatement, as its header comment says it). */
  caveat: string;
}

/** The mean's interval, or why there is none. */
function meanWords(c: RunCostConfidence, runs: number): string {
  const [low, high] = c.meanPerRunUsd;
  if (low === null || high === null) return `too few runs (${runs}) for an interval of the mean cost per run (${MIN_RUNS_FOR_MEAN_INTERVAL} give one)`;
  return `the mean cost per run is ${formatUsdNumber(low)}–${formatUsdNumber(high)} (${c.standsFor === undefined ? 'bootstrap' : 'stratified bootstrap'}, ${c.resamples} resamples)`;
}

/** The p95's interval, its lower end only, or why there is none. */
function p95Words(c: RunCostConfidence, runs: number): string {
  const [low, high] = c.p95PerRunUsd;
  if (low === null) return `too few runs for an interval of its p95`;
  if (high === null) return `its p95 is at least ${formatUsdNumber(low)}, no upper bound from ${c.standsFor ?? runs} runs (${RUNS_FOR_P95_UPPER} give one; distribution-free)`;
  return `its p95 ${formatUsdNumber(low)}–${formatUsdNumber(high)} (distribution-free, from the runs' order)`;
}

/** `How far to trust it: …` (the cap bound follows it); `fitted`: the fitted profiles among the inputs. */
export function confidenceText(c: RunCostConfidence, runs: number, fitted: readonly FittedProfile[] = []): string {
  if (runs === 1) return 'How far to trust it: one run gives no interval.';
  return `How far to trust it, at 95% confidence: ${meanWords(c, runs)}; ${p95Words(c, runs)}.${fittedWords(fitted)}`;
}

/** What a fitted profile's runs stand for in the intervals, what they leave out, and each profile's caveat. */
function fittedWords(fitted: readonly FittedProfile[]): string {
  if (fitted.length === 0) return '';
  const each = fitted.map((f) => `${f.source}'s ${counted(f.syntheticRuns, 'synthetic run')} as the ${counted(f.fittedOnRuns, 'recorded run')} it was fitted to`).join(', ');
  const caveats = fitted.map((f) => ` ${f.source}: ${f.caveat}`).join('');
  return (
    ` These count ${each} (fewer, where fewer were drawn): a profile knows its population no better than the runs behind it, and more --runs only narrow the simulation's own noise.` +
    ` They cover the sampling of those runs, not how far the profile's runs differ from them (fit --report measures that).${caveats}`
  );
}

/** Warned when a projection draws from one run: every simulated day is that run's cost times the runs a day. */
export function oneRunWarnings(runs: number): ReportWarning[] {
  return runs !== 1 ? [] : [{ code: 'one_run', message: 'one run cannot project a spread: every day costs it times the runs a day, so the per-day p50, p95 and p99 equal the mean (project from more runs)' }];
}
