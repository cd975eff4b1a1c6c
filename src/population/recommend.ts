/**
 * What a sweep recommends, by rules that can be redone by hand from its CSV:
 * - recommendation (with a target completion rate R): among configurations with completionRate ≥ R,
 *   the lowest costPerCompletedUsd (both as countedRow counts them: tasks done where runs carry ground truth); ties: the lowest costUsd, then the tighter brakes, then the first in grid
 *   order (recommendTie.ts: the tie order a sweep, its shards and their merge share). With a bound on false stops
 *   (`maxFalseStopRate`, sweep --max-false-stops), only configurations whose falseStopRate (population.ts: false
 *   stops over the runs that complete with no brakes; none there counts as 0) is within it are candidates.
 * - pareto: configurations that complete a run and that no other beats on both costPerCompletedUsd (lower is
 *   better) and completionRate (higher is better) — "beats" = at least as good on both and strictly better on
 *   one. A configuration that completes nothing is never on it (before, two rows completing 0/38 were both starred).
 */
import type { PopulationMetrics } from '../metrics/population.js';
import type { TasksDone } from './sweep.js';
import { GRID_ORDER, type TieOrder } from './recommendTie.js';

export type RankedRow = Pick<PopulationMetrics, 'completionRate' | 'costPerCompletedUsd' | 'costUsd'> & Partial<Pick<PopulationMetrics, 'falseStopRate'>>;

/** How the recommendation chooses besides the target: which of two tied rows goes first (default: grid order), and the most false stops a candidate may have (a share; absent: no bound). */
export interface RecommendRule {
  tieOrder?: TieOrder;
  maxFalseStopRate?: number;
}

/** Whether a row's false stops are within the bound (none given: every row; a row none of whose runs completes with no brakes stops none falsely). */
export function withinFalseStops(row: Pick<RankedRow, 'falseStopRate'>, maxFalseStopRate: number | undefined): boolean {
  return maxFalseStopRate === undefined || (row.falseStopRate ?? 0) <= maxFalseStopRate;
}

/** A row as a sweep reports it: its runs and completions, and its tasks done where some of its runs carry ground truth. */
export type CountedRow = RankedRow & Pick<PopulationMetrics, 'runs' | 'completed'> & { tasksDone?: TasksDone };

/**
 * A row as the recommendation counts it — the one place the choice is made: where its runs carry ground truth
 * (sweep.ts TasksDone), completed means tasks done (a run that ended `completed` without doing its task is not
 * counted), its cost per completed run the spend over them; else runs whose stop reason is `completed`.
 */
export function countedRow(row: CountedRow): RankedRow & Pick<PopulationMetrics, 'runs' | 'completed'> {
  const tasks = row.tasksDone;
  if (tasks === undefined) return row;
  return { runs: row.runs, completed: tasks.done, completionRate: tasks.doneRate, costPerCompletedUsd: tasks.costPerDoneUsd, costUsd: row.costUsd, ...(row.falseStopRate === undefined ? {} : { falseStopRate: row.falseStopRate }) };
}

const perCompleted = (row: RankedRow): number => row.costPerCompletedUsd ?? Infinity;

/** Whether two rows tie on the figures the recommendation compares (cost per completed run, then spend). */
const tie = (a: RankedRow, b: RankedRow): boolean => perCompleted(a) === perCompleted(b) && a.costUsd === b.costUsd;

/** The index of the recommended configuration, or undefined when none reaches the target; `rule`: the tie order and the false-stop bound. */
export function recommendedIndex(rows: readonly RankedRow[], targetCompletion: number, rule: RecommendRule = {}): number | undefined {
  const { tieOrder = GRID_ORDER, maxFalseStopRate } = rule;
  let best: number | undefined;
  rows.forEach((row, i) => {
    if (row.completionRate < targetCompletion || row.costPerCompletedUsd === null || !withinFalseStops(row, maxFalseStopRate)) return;
    if (best === undefined) return void (best = i);
    const b = rows[best]!;
    if (perCompleted(row) < perCompleted(b) || (perCompleted(row) === perCompleted(b) && row.costUsd < b.costUsd) || (tie(row, b) && tieOrder(i, best) < 0)) best = i;
  });
  return best;
}

/** The other rows reaching the target (within `maxFalseStopRate`, when given) that tie with row `chosen` (the tie order chose it over them), in grid order. */
export function tiedIndices(rows: readonly RankedRow[], chosen: number, targetCompletion: number, maxFalseStopRate?: number): number[] {
  const row = rows[chosen]!;
  return rows.flatMap((other, i) => (i !== chosen && other.completionRate >= targetCompletion && other.costPerCompletedUsd !== null && withinFalseStops(other, maxFalseStopRate) && tie(other, row) ? [i] : []));
}

/**
 * Indices of the configurations on the cost / completion frontier, in grid order: the rows sorted by cost
 * per completed run (then completion, best first), each compared with the best completion of the rows
 * strictly cheaper and the best of its own cost — O(n log n); testing every pair took ~0.2 s at 7,680
 * configurations and grows with their square (a sweep may have 1,000,000).
 */
export function paretoIndices(rows: readonly RankedRow[]): number[] {
  const order = rows.map((_, i) => i).sort((a, b) => perCompleted(rows[a]!) - perCompleted(rows[b]!) || rows[b]!.completionRate - rows[a]!.completionRate || a - b);
  const onFrontier: number[] = [];
  // The best completion among the rows strictly cheaper than the group of equal cost being walked.
  let bestCheaper = -Infinity;
  for (let from = 0; from < order.length; ) {
    const cost = perCompleted(rows[order[from]!]!);
    // Sorted last: the rows that complete nothing, never on the frontier.
    if (cost === Infinity) break;
    let to = from;
    while (to < order.length && perCompleted(rows[order[to]!]!) === cost) to++;
    // Sorted best first within a group: its first row has the group's best completion.
    const bestHere = rows[order[from]!]!.completionRate;
    for (let k = from; k < to; k++) {
      const rate = rows[order[k]!]!.completionRate;
      // Beaten by a cheaper row at least as complete, or by one as cheap and more complete.
      if (rate > bestCheaper && rate >= bestHere) onFrontier.push(order[k]!);
    }
    bestCheaper = Math.max(bestCheaper, bestHere);
    from = to;
  }
  return onFrontier.sort((a, b) => a - b);
}

/** The 95% Wilson score interval of a rate of `successes` in `n` trials ([0, 1] when n = 0). */
export function wilsonInterval(successes: number, n: number): [number, number] {
  if (n === 0) return [0, 1];
  const z = 1.959963984540054;
  const p = successes / n;
  const centre = p + (z * z) / (2 * n);
  const spread = z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n));
  const scale = 1 + (z * z) / n;
  return [Math.max(0, (centre - spread) / scale), Math.min(1, (centre + spread) / scale)];
}
