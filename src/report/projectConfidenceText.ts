/**
 * `project`'s line on how far to trust the per-run figures: the 95% intervals of the mean and p95 cost per
 * run that the runs are enough for (projectConfidence.ts), and for the others why there is none.
 */
import type { RunCostConfidence } from '../population/projectConfidence.js';
import { MIN_RUNS_FOR_MEAN_INTERVAL, RUNS_FOR_P95_UPPER } from '../population/projectConfidence.js';
import type { ReportWarning } from './warnings.js';
import { formatUsdNumber } from './money.js';

/** The mean's interval, or why there is none. */
function meanWords(c: RunCostConfidence, runs: number): string {
  const [low, high] = c.meanPerRunUsd;
  if (low === null || high === null) return `too few runs (${runs}) for an interval of the mean cost per run (${MIN_RUNS_FOR_MEAN_INTERVAL} give one)`;
  return `the mean cost per run is ${formatUsdNumber(low)}–${formatUsdNumber(high)} (bootstrap, ${c.resamples} resamples)`;
}

/** The p95's interval, its lower end only, or why there is none. */
function p95Words(c: RunCostConfidence, runs: number): string {
  const [low, high] = c.p95PerRunUsd;
  if (low === null) return `too few runs for an interval of its p95`;
  if (high === null) return `its p95 is at least ${formatUsdNumber(low)}, no upper bound from ${runs} runs (${RUNS_FOR_P95_UPPER} give one; distribution-free)`;
  return `its p95 ${formatUsdNumber(low)}–${formatUsdNumber(high)} (distribution-free, from the runs' order)`;
}

/** `How far to trust it: …` (the cap bound follows it). */
export function confidenceText(c: RunCostConfidence, runs: number): string {
  if (runs === 1) return 'How far to trust it: one run gives no interval.';
  return `How far to trust it, at 95% confidence: ${meanWords(c, runs)}; ${p95Words(c, runs)}.`;
}

/** Warned when a projection draws from one run: every simulated day is that run's cost times the runs a day. */
export function oneRunWarnings(runs: number): ReportWarning[] {
  return runs !== 1 ? [] : [{ code: 'one_run', message: 'one run cannot project a spread: every day costs it times the runs a day, so the per-day p50, p95 and p99 equal the mean (project from more runs)' }];
}
