/**
 * The tail quantiles `fit --report` can judge on the runs it was given. Below 1 / (1 − p) runs the nearest-rank
 * p-quantile of runs is their largest run (a p90 needs 10 runs, a p95 20): nothing past it was seen, so a gap
 * there, or how far another sample would move it, is unknown, not 0%. On 1 run the report said its p95 cost
 * was "uncertain by 0%/0% at 1 runs" (on 4, "-99.3%/0%": a bootstrap never reaches past the largest run) and
 * its synthetic runs "within 10% … at p50, p90 and p95". A tail too few runs give is left out of the line on
 * unseen runs (the p50 is judged on any runs: the median of one run is that run), and a warning says how
 * many runs each needs. Pure.
 */
import { rankIndex } from '../metrics/costQuantiles.js';
import { counted } from '../plural.js';
import type { ReportWarning } from '../report/warnings.js';
import { someNames } from '../someNames.js';
import { FIT_QUANTILES, type QuantileName } from './fitReport.js';

/** The tail quantiles the line on unseen runs judges cost and steps at (after the p50), when the runs give them. */
const TAIL_QUANTILES: readonly QuantileName[] = ['p90', 'p95'];

/** Fewest runs whose nearest-rank `quantile` is not their largest run (the rank rule sweep, check and project read). */
export function runsForQuantile(quantile: QuantileName): number {
  const p = FIT_QUANTILES.find(([name]) => name === quantile)![1];
  if (p >= 1) return Number.POSITIVE_INFINITY;
  let runs = 1;
  while (rankIndex(runs, p) >= runs - 1) runs++;
  return runs;
}

/** The quantiles the line on unseen runs judges at `runs` runs: the p50, and each tail they give. */
export function judgedQuantilesAt(runs: number): QuantileName[] {
  return ['p50', ...TAIL_QUANTILES.filter((quantile) => runs >= runsForQuantile(quantile))];
}

/** `a p90 needs 10 runs, a p95 20`. */
function needsText(quantiles: readonly QuantileName[]): string {
  return quantiles.map((q, i) => `a ${q} ${i === 0 ? `needs ${counted(runsForQuantile(q), 'run')}` : runsForQuantile(q)}`).join(', ');
}

/** The words for the recordings' own p95 when too few runs give one (`runs` > 0): its spread is unknown, not 0%. */
export function unknownSpreadWords(runs: number): string {
  return ` How far another sample moves the recordings' own p95 cost is unknown at ${counted(runs, 'run')}: it is ${runs === 1 ? 'that run' : 'their costliest run'} (${needsText(['p95'])}).`;
}

/** The warning of a report on too few runs for its tails (undefined when the runs give every judged quantile, or none were given). */
export function fewRunsForTailsWarning(runs: number): ReportWarning | undefined {
  const unknown = TAIL_QUANTILES.filter((quantile) => runs < runsForQuantile(quantile));
  if (runs === 0 || unknown.length === 0) return undefined;
  const what = runs === 1 ? `its ${someNames(unknown)} are that run's own figures, not quantiles` : `their ${someNames(unknown)} ${unknown.length === 1 ? 'rests' : 'rest'} on the largest run or two, past which nothing was seen`;
  return {
    code: 'few_runs_for_tails',
    message:
      `fitted on ${counted(runs, 'run')}: ${what} (${needsText(unknown)}); how far the ${unknown.length === 1 ? 'tail reaches' : 'tails reach'} is unknown, so the line on unseen runs judges no gap at ${unknown.length === 1 ? 'it' : 'them'} ` +
      `and gives no spread of the p95 (the table's figures there are these runs' own): fit on ${runsForQuantile('p95')} runs or more to know the p95`,
  };
}
