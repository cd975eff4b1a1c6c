/**
 * `replay --tree`'s false stops: each session tree one run, beside its no-brake tree (the tree with no brakes,
 * no per-agent limits and no run's own brakes, under the same context, model and latency: population/treeSweep.ts
 * treeBaselineFigures, the baseline `sweep --tree` counts against), counted as replay counts runs
 * (replayFalseStops.ts FalseStopTally: sweep's and check's rule) and said in replay's words, of trees; each
 * tree's stop the session's (tree/sessionStop.ts: a stopped sub-agent that completes in its recording makes
 * its completed session a false stop).
 */
import { treeBaselineFigures, treeRunFigures } from '../population/treeSweep.js';
import type { TreeResult } from '../tree/result.js';
import { FalseStopTally, falseStopsText, pairMark, type FalseStopFigures, type FalseStopMark } from './replayFalseStops.js';

/** A tree's mark: its result beside its no-brake tree (`unbraked`: the tree with no brakes, no per-agent limits and no run's own brakes: treeSweep.ts unbrakedTree). */
export function treeFalseStopMark(result: TreeResult, unbraked: () => TreeResult): FalseStopMark {
  return pairMark(treeRunFigures(result, undefined, unbraked), treeBaselineFigures(unbraked()));
}

/** The trees' marks added up: replay's summary figures (`falseStops`, `falseStopRate`, `completeWithoutBrakes`, `falseStopsJudged`). */
export function treeFalseStopFigures(marks: Iterable<FalseStopMark>): FalseStopFigures {
  const tally = new FalseStopTally();
  for (const mark of marks) tally.add(mark);
  return tally.figures();
}

/** `false stops: 2 (100% of the 2 trees that complete with no brakes; by their recordings' end)`: the summary's, when counted (a brake on); '' else. */
export function treeFalseStopsLine(summary: Partial<FalseStopFigures>): string {
  const { falseStops, falseStopRate, completeWithoutBrakes, falseStopsJudged } = summary;
  if (falseStops === undefined || falseStopRate === undefined || completeWithoutBrakes === undefined || falseStopsJudged === undefined) return '';
  return `false stops: ${falseStopsText({ falseStops, falseStopRate, completeWithoutBrakes, falseStopsJudged }, 'tree')}\n`;
}
