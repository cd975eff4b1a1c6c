/**
 * The runs a sweep keeps for how sure its recommendation is (recommendBootstrap.ts): each configuration's
 * per-run completion flags beside the costs its tally keeps, and where each unit of the work queue starts
 * among them (its `order`: where its file comes among the inputs, sweepUnits.ts). Tallies merged across
 * threads (mergeSweepTallies) give every configuration's runs in the order of the files, whichever thread
 * read which, so that run k is the same run in every configuration and on every thread count. Pure.
 */
import type { RunOutcomes } from './recommendBootstrap.js';
import type { PopulationTally } from '../metrics/population.js';
import { countsAsDone, type BaselineTruth } from '../metrics/groundTruth.js';
import { StopCode } from '../kernel/stopCodes.js';
import { meanPico, picoToUsd } from '../money.js';
import type { TasksDone } from './sweep.js';

/** A unit's runs among a tally's, in the order they were added: `runs` of them, from the unit at `order`. */
export interface KeptUnit {
  order: number;
  runs: number;
}

/** What a tally keeps of its runs: each run's completion as the recommendation counts it (1: counted, groundTruth.ts countsAsDone), in the order added, and the units they came in. */
export interface KeptRuns {
  completed: Uint8Array;
  units: KeptUnit[];
}

/** Completion flags written run by run, grown as needed; marked and rolled back with the tally. */
export class FlagsBuilder {
  private flags = new Uint8Array(16);
  length = 0;

  push(completed: boolean): void {
    if (this.length === this.flags.length) {
      const grown = new Uint8Array(this.flags.length * 2);
      grown.set(this.flags);
      this.flags = grown;
    }
    this.flags[this.length++] = completed ? 1 : 0;
  }

  finish(): Uint8Array {
    const done = this.flags.slice(0, this.length);
    this.flags = new Uint8Array(16);
    this.length = 0;
    return done;
  }
}

/**
 * What a configuration's runs with ground truth did against what their stop reasons say (groundTruth.ts
 * countsAsDone): the recommendation counts a run with ground truth when its task is done, not when it ended
 * `completed`. Runs counted done = completed − completedNotDone + doneNotCompleted; without ground truth the
 * two are the same runs. Plain data (a worker thread sends it); shares add up.
 */
export interface DoneCounts {
  /** Runs with ground truth (synthetic runs, generated traces). */
  groundTruthRuns: number;
  /** Of those, runs that ended `completed` without doing their task (a retrier that gives up and answers anyway). */
  completedNotDone: number;
  /** Of those, runs whose task is done that ended otherwise (a brake after the step it is done at, trace_end). */
  doneNotCompleted: number;
}

/** A run as DoneCountsBuilder.judge reads it: its stop code and steps, its no-brake run's ground truth and a closed-loop run's own (RunPair.truth), when known. */
export interface JudgedRun {
  stop: number;
  steps: number;
  truth?: BaselineTruth | undefined;
  ownDone?: boolean | undefined;
}

/** Each configuration's DoneCounts, run by run (three counts per configuration, in typed arrays: a sweep may have 10^5 configurations). */
export class DoneCountsBuilder {
  private readonly counts: Float64Array;
  constructor(configurations: number) {
    this.counts = new Float64Array(configurations * 3);
  }

  /**
   * A run of configuration `c` (its stop code and steps, its no-brake run's ground truth, a closed-loop run's own
   * `ownDone`) judged by groundTruth.ts countsAsDone, counted when it carries ground truth: whether the
   * recommendation counts it done. The one place sweep's tallies and replay's summary count tasks done.
   */
  judge(c: number, run: JudgedRun): boolean {
    const done = countsAsDone(run.stop, run.steps, run.truth, run.ownDone);
    if (run.truth !== undefined) this.add(c, run.stop === StopCode.Completed, done);
    return done;
  }

  /** A run of configuration `c` with ground truth: whether it ended `completed`, and whether its task is done (countsAsDone). */
  add(c: number, completed: boolean, done: boolean): void {
    this.counts[c * 3]! += 1;
    if (completed && !done) this.counts[c * 3 + 1]! += 1;
    else if (done && !completed) this.counts[c * 3 + 2]! += 1;
  }

  mark(): Float64Array {
    return this.counts.slice();
  }

  rollback(mark: Float64Array): void {
    this.counts.set(mark);
  }

  /** Configuration `c`'s counts (then the builder's are zeroed). */
  take(c: number): DoneCounts {
    const at = c * 3;
    const counts = { groundTruthRuns: this.counts[at]!, completedNotDone: this.counts[at + 1]!, doneNotCompleted: this.counts[at + 2]! };
    this.counts.fill(0, at, at + 3);
    return counts;
  }
}

/** Tasks done (sweep.ts TasksDone) from runs' totals (`completed`: by stop reason) and the counts of those with ground truth: a sweep row's, replay's summary's. */
export function tasksDoneOf(population: Pick<PopulationTally, 'runs' | 'completed' | 'totalPico'>, counts: DoneCounts): TasksDone {
  const done = population.completed - counts.completedNotDone + counts.doneNotCompleted;
  const n = population.runs;
  return { done, doneRate: n === 0 ? 0 : done / n, costPerDoneUsd: done === 0 ? null : picoToUsd(meanPico(population.totalPico, done)), ...counts };
}

/** Counts of disjoint shares of one configuration's runs added up; undefined when no share has any. */
export function addDoneCounts(parts: readonly (DoneCounts | undefined)[]): DoneCounts | undefined {
  const given = parts.filter((part): part is DoneCounts => part !== undefined);
  if (given.length === 0) return undefined;
  return given.reduce((sum, part) => ({ groundTruthRuns: sum.groundTruthRuns + part.groundTruthRuns, completedNotDone: sum.completedNotDone + part.completedNotDone, doneNotCompleted: sum.doneNotCompleted + part.doneNotCompleted }));
}

/** The units' starts among the runs added (`from`: the run count when each began): their runs once `total` are added. */
export function keptUnits(starts: readonly { order: number; from: number }[], total: number): KeptUnit[] {
  const units = starts.map((start, k) => ({ order: start.order, runs: (starts[k + 1]?.from ?? total) - start.from }));
  // Runs added before any unit began (a tally of one population): one unit at order 0.
  const before = starts.length === 0 ? total : starts[0]!.from;
  return [...(before > 0 ? [{ order: 0, runs: before }] : []), ...units.filter((unit) => unit.runs > 0)];
}

/** Every part's costs (in the order added, arrays joined) and kept runs, as one configuration's runs in the order of the units: a copy, whatever is done to the parts' costs after. */
export function runsInOrder(parts: readonly { costs: readonly Float64Array[]; kept: KeptRuns }[]): RunOutcomes {
  const pieces: { order: number; at: number; costs: Float64Array; completed: Uint8Array }[] = [];
  for (const part of parts) {
    const costs = joined(part.costs);
    let at = 0;
    for (const unit of part.kept.units) {
      pieces.push({ order: unit.order, at: pieces.length, costs: costs.subarray(at, at + unit.runs), completed: part.kept.completed.subarray(at, at + unit.runs) });
      at += unit.runs;
    }
  }
  pieces.sort((a, b) => a.order - b.order || a.at - b.at);
  const total = pieces.reduce((n, piece) => n + piece.costs.length, 0);
  const out: RunOutcomes = { costPico: new Float64Array(total), completed: new Uint8Array(total) };
  let at = 0;
  for (const piece of pieces) {
    out.costPico.set(piece.costs, at);
    out.completed.set(piece.completed, at);
    at += piece.costs.length;
  }
  return out;
}

function joined(arrays: readonly Float64Array[]): Float64Array {
  if (arrays.length === 1) return arrays[0]!;
  const all = new Float64Array(arrays.reduce((n, a) => n + a.length, 0));
  let at = 0;
  for (const a of arrays) {
    all.set(a, at);
    at += a.length;
  }
  return all;
}

/** A report row that carries its configuration's runs (sweepTallyMetrics puts them there) until the command takes them. */
type RowWithRuns = { runOutcomes?: RunOutcomes };

/**
 * Each row's runs, taken off the rows (they never reach a report): undefined unless every row has them
 * (a sweep without a target keeps none; session trees and stdin do not keep them).
 */
export function takeRunOutcomes(rows: readonly object[]): RunOutcomes[] | undefined {
  const outcomes = rows.map((row) => (row as RowWithRuns).runOutcomes);
  for (const row of rows) delete (row as RowWithRuns).runOutcomes;
  return outcomes.length > 0 && outcomes.every((o) => o !== undefined) ? (outcomes as RunOutcomes[]) : undefined;
}
