/**
 * Every row's completed runs and cost in every resample of the recommendation's bootstrap
 * (recommendBootstrap.ts), worked out from a nearby row where the two differ on few runs. A grid's rows
 * mostly share their runs' outcomes: a step cap one step higher changes only the runs that reached it, a
 * tighter repeat limit only the runs that repeat. So a row's sums are an earlier row's plus, for each run
 * where the two differ, the run's draws times the difference — exact, since costs are whole picodollars and
 * counts whole numbers, summed in float64 below 2^53 in any order. That holds while one resample's sum, at most
 * the runs times the dearest run's cost, stays within 2^53 picodollars (~$9,007); past it float64 rounds, and the
 * rounding would depend on the path — on which rows a slice (a shard, a thread) holds — so every row is then
 * summed as a whole, in run order, alike in every slice. A row that no earlier row (of the last NEAR_ROWS) is
 * close to is summed as a whole too. Pure; the result depends on the rows and counts only.
 */
import type { RunOutcomes } from './recommendBootstrap.js';

/** A row's sums, one entry per resample. */
export interface RowSums {
  completed: Float64Array;
  costPico: Float64Array;
}

/** Earlier rows a row is compared with (a grid's axes within this stride of each other are found). */
const NEAR_ROWS = 256;
/** Runs sampled to guess how close two rows are before counting their differences exactly. */
const SAMPLED_RUNS = 64;
/** A row is summed from another when they differ on at most this share of the runs; else as a whole. */
const MOST_DIFFERING_SHARE = 0.25;

/** Each row's sums over the resamples `counts` (run k drawn counts[b][k] times in resample b). */
export function resampleSums(rows: readonly RunOutcomes[], counts: readonly Uint16Array[]): RowSums[] {
  const runs = rows[0]?.completed.length ?? 0;
  if (!exactInAnyOrder(rows, runs)) return rows.map((row) => wholeSums(row, counts));
  const sampled = Array.from({ length: Math.min(SAMPLED_RUNS, runs) }, (_, s) => Math.floor((s * runs) / Math.min(SAMPLED_RUNS, runs)));
  const sums: RowSums[] = [];
  rows.forEach((row, i) => {
    const near = nearestEarlier(rows, i, sampled);
    const differing = near < 0 ? undefined : differingRuns(rows[near]!, row, Math.floor(runs * MOST_DIFFERING_SHARE));
    sums.push(differing === undefined ? wholeSums(row, counts) : sumsFrom(sums[near]!, { from: rows[near]!, to: row, differing, counts }));
  });
  return sums;
}

/** Whether every sum of a resample (`runs` draws) is a whole number within 2^53, whatever order it is added in. */
function exactInAnyOrder(rows: readonly RunOutcomes[], runs: number): boolean {
  let dearest = 0;
  for (const row of rows) {
    for (const cost of row.costPico) {
      if (!Number.isSafeInteger(cost) || cost < 0) return false;
      if (cost > dearest) dearest = cost;
    }
  }
  return dearest * runs <= Number.MAX_SAFE_INTEGER;
}

/** The earlier row (of the last NEAR_ROWS) that differs from row `i` on the fewest sampled runs; -1 when there is none. */
function nearestEarlier(rows: readonly RunOutcomes[], i: number, sampled: readonly number[]): number {
  let best = -1;
  let fewest = Infinity;
  for (let j = i - 1; j >= Math.max(0, i - NEAR_ROWS) && fewest > 0; j--) {
    let differ = 0;
    for (const k of sampled) if (rows[j]!.completed[k] !== rows[i]!.completed[k] || rows[j]!.costPico[k] !== rows[i]!.costPico[k]) differ++;
    if (differ < fewest) [best, fewest] = [j, differ];
  }
  return best;
}

/** The runs where `a` and `b` differ, or undefined past `most` of them. */
function differingRuns(a: RunOutcomes, b: RunOutcomes, most: number): Int32Array | undefined {
  const found: number[] = [];
  for (let k = 0; k < a.completed.length; k++) {
    if (a.completed[k] === b.completed[k] && a.costPico[k] === b.costPico[k]) continue;
    if (found.push(k) > most) return undefined;
  }
  return Int32Array.from(found);
}

/** `to`'s sums: `from`'s, plus each differing run's draws times its difference. */
function sumsFrom(base: RowSums, change: { from: RunOutcomes; to: RunOutcomes; differing: Int32Array; counts: readonly Uint16Array[] }): RowSums {
  const completed = base.completed.slice();
  const costPico = base.costPico.slice();
  const { from, to, differing, counts } = change;
  for (const k of differing) {
    const doneBy = to.completed[k]! - from.completed[k]!;
    const costBy = to.costPico[k]! - from.costPico[k]!;
    for (let b = 0; b < counts.length; b++) {
      const times = counts[b]![k]!;
      if (times === 0) continue;
      completed[b]! += times * doneBy;
      costPico[b]! += times * costBy;
    }
  }
  return { completed, costPico };
}

/** A row's sums over each resample's runs, as a whole. */
function wholeSums(row: RunOutcomes, counts: readonly Uint16Array[]): RowSums {
  const completed = new Float64Array(counts.length);
  const costPico = new Float64Array(counts.length);
  counts.forEach((times, b) => {
    let done = 0;
    let cost = 0;
    for (let k = 0; k < times.length; k++) {
      const t = times[k]!;
      if (t === 0) continue;
      done += t * row.completed[k]!;
      cost += t * row.costPico[k]!;
    }
    completed[b] = done;
    costPico[b] = cost;
  });
  return { completed, costPico };
}
