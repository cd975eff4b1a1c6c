/**
 * How sure a sweep's recommendation is: a paired bootstrap over the runs. Each resample draws the runs
 * again (as many, with replacement, seeded) and redoes the choice of recommend.ts (completion ≥ the
 * target, the lowest cost per completed run, then the lowest cost, then the tie order of recommendTie.ts:
 * the tighter brakes, then grid order) on every
 * configuration's figures over those runs. The runs are shared by every configuration, so one draw serves
 * them all (paired: two settings are compared on the same runs, as the sweep compared them), and the share
 * of resamples that choose the recommended row says how sure it is; the rows other resamples choose are the
 * ones these runs cannot tell from it.
 *
 * A resample's choice over a slice of the grid (a shard, a thread's configurations, a chunk) is kept as the
 * slice's best (`sliceChoices`), and slices join (`joinChoices`) to the whole grid's choice: a merge of
 * shards gives what one sweep gives, with no run's figures in a shard. Pure: seeded, no clock.
 */
import { Rng, STREAM } from '../synthetic/random.js';
import { resampleSums } from './recommendSums.js';
import { GRID_ORDER, type TieOrder } from './recommendTie.js';
import { someStandForFewer, type StandingPart } from './standingRuns.js';

/** Resamples drawn (a share of them is said in whole percent: 200 give 0.5% steps). */
export const RECOMMENDATION_RESAMPLES = 200;

/** A configuration's runs as the bootstrap reads them: run k is the same run in every configuration (one order for all). */
export interface RunOutcomes {
  costPico: Float64Array;
  /** 1 where run k completed. */
  completed: Uint8Array;
}

/** What one resample chose: the configuration's index in the grid (-1: none reached the target), its completed runs and cost there. */
export interface ResampleChoice {
  index: number;
  completed: number;
  costPico: number;
}

const NONE: ResampleChoice = { index: -1, completed: 0, costPico: 0 };

/**
 * Each resample's draw counts of `runs` runs (run k drawn counts[b][k] times, `runs` draws in all):
 * the same draws for every configuration (paired). `parts` (standingRuns.ts, in the runs' order), when some
 * stand for fewer runs than they hold (a fitted profile's): each part's draws are as many as the runs it stands
 * for, each draw counted for its share of the part's runs (N runs over m draws: ⌊N/m⌋ or ⌈N/m⌉ each), so a
 * resample varies as m runs do and every part keeps its weight; else the runs are drawn as one sample.
 */
export function resampleCounts(runs: number, options: { seed: number; resamples: number; parts?: readonly StandingPart[] }): Uint16Array[] {
  const parts = options.parts !== undefined && someStandForFewer(options.parts) ? options.parts : [{ runs, standsFor: runs }];
  const all: Uint16Array[] = [];
  for (let b = 0; b < options.resamples; b++) {
    const rng = Rng.stream(options.seed, b, STREAM.sweepBootstrap);
    const counts = new Uint16Array(runs);
    let from = 0;
    for (const { runs: n, standsFor: m } of parts) {
      for (let j = 0; j < m && n > 0; j++) {
        const at = from + rng.below(n);
        // A run drawn past 65,535 times is past any real chance: kept at the most.
        counts[at] = Math.min(0xffff, counts[at]! + Math.floor(((j + 1) * n) / m) - Math.floor((j * n) / m));
      }
      from += n;
    }
    all.push(counts);
  }
  return all;
}

/** Whether `a` is chosen over `b` (b chosen already): recommend.ts's rule, cost per completed run, then cost, then the tie order. */
function beats(a: ResampleChoice, b: ResampleChoice, tieOrder: TieOrder): boolean {
  if (b.index < 0) return a.index >= 0;
  const perA = a.costPico / a.completed;
  const perB = b.costPico / b.completed;
  if (perA !== perB) return perA < perB;
  if (a.costPico !== b.costPico) return a.costPico < b.costPico;
  return tieOrder(a.index, b.index) < 0;
}

/** Whether two configurations' runs are the same run for run (they tie in every resample: the tie order picks between them). */
function sameRuns(a: RunOutcomes, b: RunOutcomes): boolean {
  for (let k = 0; k < a.completed.length; k++) if (a.completed[k] !== b.completed[k] || a.costPico[k] !== b.costPico[k]) return false;
  return true;
}

/**
 * Each resample's choice among configurations `rows` (grid indices `from` + i): of those whose completed
 * share of the drawn runs reaches `target` (and that complete any), the best by recommend.ts's rule, ties
 * by `tieOrder` (default: grid order). A row that completes no run, or whose runs are those of the row
 * before it and that the tie order puts after the row of them resampled, is never chosen and is not
 * resampled (exact: a slice gives the choices it would give resampling every row). `eligible` (one per row;
 * absent: all): the rows within sweep's --max-false-stops, the only ones chosen (false stops are not resampled:
 * a row out of the bound on the runs is out of it in every resample).
 */
export function sliceChoices(rows: readonly RunOutcomes[], options: { from: number; counts: readonly Uint16Array[]; target: number; tieOrder?: TieOrder; eligible?: readonly boolean[] }): ResampleChoice[] {
  const { counts, target, from } = options;
  const tieOrder = options.tieOrder ?? GRID_ORDER;
  const choices = counts.map(() => NONE);
  const sums = resampleSums(rows, counts);
  // Of a stretch of rows the same run for run, the one resampled last: a later row is resampled only when the tie order puts it first.
  let ahead = 0;
  rows.forEach((row, i) => {
    if (i === 0 || !sameRuns(row, rows[i - 1]!)) ahead = i;
    else if (tieOrder(from + i, from + ahead) < 0) ahead = i;
    else return;
    if (!row.completed.includes(1) || options.eligible?.[i] === false) return;
    const { completed, costPico } = sums[i]!;
    for (let b = 0; b < counts.length; b++) {
      const done = completed[b]!;
      if (done === 0 || done / counts[b]!.length < target) continue;
      const here = { index: from + i, completed: done, costPico: costPico[b]! };
      if (beats(here, choices[b]!, tieOrder)) choices[b] = here;
    }
  });
  return choices;
}

/** The choices of slices of one grid joined: each resample's best over every slice, ties by `tieOrder` (default: grid order). */
export function joinChoices(parts: readonly (readonly ResampleChoice[])[], tieOrder: TieOrder = GRID_ORDER): ResampleChoice[] {
  if (parts.length === 0) return [];
  return parts[0]!.map((_, b) => parts.reduce<ResampleChoice>((best, part) => (beats(part[b]!, best, tieOrder) ? part[b]! : best), NONE));
}

/** Rows chosen in at least this share of the resamples are named as ones the runs cannot tell from the recommendation. */
export const RIVAL_SHARE = 0.05;
/** Most rivals named (the most chosen first). */
const MOST_RIVALS = 3;

/** How sure a choice is: the share of resamples choosing `chosen`, and the other rows chosen in at least RIVAL_SHARE of them, most chosen first (then grid order). */
export interface ChoiceSureness {
  resamples: number;
  sameChoice: number;
  /** Resamples where no configuration reached the target. */
  noneReached: number;
  rivals: { index: number; share: number }[];
}

export function choiceSureness(choices: readonly ResampleChoice[], chosen: number): ChoiceSureness {
  const times = new Map<number, number>();
  for (const choice of choices) times.set(choice.index, (times.get(choice.index) ?? 0) + 1);
  const n = choices.length;
  const rivals = [...times]
    .filter(([index, count]) => index >= 0 && index !== chosen && count / n >= RIVAL_SHARE)
    .sort((a, b) => b[1] - a[1] || a[0] - b[0])
    .slice(0, MOST_RIVALS)
    .map(([index, count]) => ({ index, share: count / n }));
  return { resamples: n, sameChoice: n === 0 ? 0 : (times.get(chosen) ?? 0) / n, noneReached: times.get(-1) ?? 0, rivals };
}
