/**
 * What a sweep's recommendation is weighed against, from its rows alone (so a merge of shards says the same):
 * its false stops (population.ts falseStopRate: over the runs that complete with no brakes), the configuration
 * reaching the target with fewer of them (what `--max-false-stops` would pick), the same runs with no brakes
 * (the row's own baseline: its context, cache, model and max_tokens sent), and, when no configuration reaches
 * the target, the most any configuration completes. Completion as the recommendation counts it (recommend.ts
 * countedRow: tasks done where runs carry ground truth). Pure.
 */
import type { PopulationMetrics } from '../metrics/population.js';
import { meanPico, picoToUsd, usdToPico } from '../money.js';
import { recommendedIndex, type RankedRow, type RecommendRule } from './recommend.js';

/** A row as weighed here: its counted completion (countedRow) and its false stops and baseline. */
export type WeighedRow = RankedRow & Pick<PopulationMetrics, 'runs' | 'completed' | 'falseStops' | 'falseStopRate' | 'baselineCostUsd'>;

/** The same runs with no brakes: how many complete (as counted), their spend, and per completed run (null: none completes). */
export interface NoBrakesReference {
  runs: number;
  completed: number;
  costUsd: number;
  costPerCompletedUsd: number | null;
}

/**
 * How many of a row's runs complete with no brakes: none when its false-stop rate has no runs to count
 * (null); its false stops over their rate when it has any; else its own completions — with no false stop
 * every run that completes with no brakes completes here, and a brake that only stops runs completes no other.
 */
export function baselineCompletedOf(row: Pick<WeighedRow, 'completed' | 'falseStops' | 'falseStopRate'>): number {
  if (row.falseStopRate === null) return 0;
  if (row.falseStops > 0 && row.falseStopRate > 0) return Math.round(row.falseStops / row.falseStopRate);
  return row.completed;
}

/** The row's runs with no brakes, as a reference line. */
export function noBrakesReferenceOf(row: WeighedRow): NoBrakesReference {
  const completed = baselineCompletedOf(row);
  const costPerCompletedUsd = completed === 0 ? null : picoToUsd(meanPico(BigInt(usdToPico(row.baselineCostUsd)), completed));
  return { runs: row.runs, completed, costUsd: row.baselineCostUsd, costPerCompletedUsd };
}

/** Whether no brakes completes at least as many runs at no more per completed run, better on one: the brakes only cut runs. */
export function dominatedByNoBrakes(row: WeighedRow, noBrakes: NoBrakesReference): boolean {
  if (noBrakes.costPerCompletedUsd === null || row.costPerCompletedUsd === null) return false;
  const moreDone = noBrakes.completed >= row.completed;
  const cheaper = noBrakes.costPerCompletedUsd <= row.costPerCompletedUsd;
  return moreDone && cheaper && (noBrakes.completed > row.completed || noBrakes.costPerCompletedUsd < row.costPerCompletedUsd);
}

/**
 * Of the rows reaching the target with a lower false-stop rate than row `chosen` (and within the rule's bound),
 * the one the recommendation picks (its rule, ties alike): what `--max-false-stops` at its rate would pick.
 * Undefined when the pick stops no run falsely, or no such row reaches the target.
 */
export function fewerFalseStopsIndex(rows: readonly RankedRow[], chosen: number, over: { target: number; rule: RecommendRule }): number | undefined {
  const rate = rows[chosen]!.falseStopRate ?? 0;
  if (rate === 0) return undefined;
  // The highest rate below the pick's: the bound that leaves out the pick and every row with as many false stops.
  const bound = rows.reduce((most, row) => {
    const other = row.falseStopRate ?? 0;
    return other < rate && other > most ? other : most;
  }, -1);
  return bound < 0 ? undefined : recommendedIndex(rows, over.target, { ...over.rule, maxFalseStopRate: bound });
}

/** The row completing the most (as counted), the cheaper per completed run of those; undefined when none completes any run. */
export function mostCompletingIndex(rows: readonly RankedRow[]): number | undefined {
  let best: number | undefined;
  rows.forEach((row, i) => {
    if (row.costPerCompletedUsd === null) return;
    const b = best === undefined ? undefined : rows[best]!;
    if (b === undefined || row.completionRate > b.completionRate || (row.completionRate === b.completionRate && row.costPerCompletedUsd < b.costPerCompletedUsd!)) best = i;
  });
  return best;
}
