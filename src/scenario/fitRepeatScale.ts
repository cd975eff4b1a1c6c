/**
 * How much a group's runs differ in how often they repeat: `fit` writes `repeatShareScale`, a per-run
 * multiplier of the group's repeatShare (healthy.ts draws one per run). One share for every run could not
 * match the recordings' false stops at several max-repeat settings at once: on the 28 completed shared
 * mini-swe-agent runs, whose own repeat shares run from 0 to 0.22, the profile stopped 78.7 / 49.3 / 10.6% of
 * its completing runs at max-repeat 2 / 3 / 5 against the recordings' 67.9 / 39.3 / 21.4% (too many runs with
 * a few repeats, too few with many). A run's share of n repeatable calls is its own rate plus the binomial
 * noise of n draws, so the observed spread overstates how much the runs differ: each run's share is drawn
 * towards the group mean until the spread left is the observed variance less that noise (its mean
 * p(1 − p)/n), and the scale is that share over the mean. Where the runs differ no more than chance (the
 * observed variance within two of its own sds of the noise: runs generated with one share), no scale is
 * written. Pure.
 */
import type { Distribution } from '../synthetic/distributions.js';
import { meanKeepingEmpirical } from './fitSummary.js';
import type { RunFacts } from './fitFacts.js';

/** Fewest runs with a call that could repeat whose spread is fitted (fewer: every run the group's share). */
export const MIN_RUNS_FOR_REPEAT_SPREAD = 10;

/** The group's per-run repeat-share multiplier (mean 1), or undefined when its runs differ no more than chance or are too few. */
export function repeatShareScaleOf(runs: readonly RunFacts[]): Distribution | undefined {
  const shares = runs.filter((f) => f.toolCalls >= 2).map((f) => ({ share: f.repeatedToolCalls / (f.toolCalls - 1), draws: f.toolCalls - 1 }));
  if (shares.length < MIN_RUNS_FOR_REPEAT_SPREAD) return undefined;
  const mean = shares.reduce((s, r) => s + r.share, 0) / shares.length;
  if (mean <= 0) return undefined;
  const observed = shares.reduce((s, r) => s + (r.share - mean) ** 2, 0) / (shares.length - 1);
  const noise = shares.reduce((s, r) => s + (mean * (1 - mean)) / r.draws, 0) / shares.length;
  // A sample variance of k runs with no true spread has a relative sd of √(2 / (k − 1)): past two of them, the runs differ.
  if (!(observed > noise * (1 + 2 * Math.sqrt(2 / (shares.length - 1))))) return undefined;
  const shrink = Math.sqrt((observed - noise) / observed);
  return meanKeepingEmpirical(
    shares.map((r) => Math.max(0, mean + shrink * (r.share - mean)) / mean),
    1000,
    101,
  );
}
