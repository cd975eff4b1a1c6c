/**
 * A run past $9,007 (exact picodollars) in a sweep that reads every run first (`--tree`, stdin, calibrate,
 * project) or in check (checkTraces.ts): whether it overflows depends on the configuration, so it is found
 * only when tallying, named by its file (population/blameRun.ts). Its file is then a bad file like any
 * other: marked bad, its runs dropped and the tally done again (dropOverflowing: refused at once, naming
 * every bad file, without --skip-bad; a file found bad while reading fails such a command before any
 * tally). The common path pays nothing: the tally runs once, and the bad files are refused or listed after
 * it (sweepRead.ts finishRead), with the streamed sweep's words. A sweep with a target, that keeps each unit's
 * runs for the halved step caps, sets the file aside per unit instead (addDropping).
 */
import { UserError } from '../../errors.js';
import { inputLabel, runOfFile } from '../../io/inputPaths.js';
import type { BadInput } from '../../import/inputSet.js';
import { overflowPlace } from '../../population/blameRun.js';
import { SweepPopulation, type SweepTallier } from '../../population/sweep.js';
import type { CliIO } from '../io.js';
import { finishRead, type AllRuns } from './sweepRead.js';
import { TreesLeftOut } from './treesLeftOut.js';
import { sayInputWarning } from './inputWarnings.js';
import { prepareSweep, type PreparedSweep, type SweepFlags } from './sweepWork.js';

/** In each of `reads` that holds it, the file (not bad already) of the named run `place` (blameRun.ts places it). */
function filesOfRun(place: string, reads: readonly AllRuns[]): { read: AllRuns; file: string }[] {
  const found: { read: AllRuns; file: string }[] = [];
  for (const read of reads) {
    const file = read.runs.find((run) => !read.set.isBad(run.file) && runOfFile(place, run.file))?.file;
    if (file !== undefined) found.push({ read, file });
  }
  return found;
}

/**
 * `work` over runs read first (`reads`: each the runs of a set of files); each run past $9,007 it meets
 * makes its file bad in every read that holds it (the run named by blameRun.ts, as `asRead` spells it:
 * check names a run as its scenario spelled the file) and, once `dropped` has been told (it drops that
 * file's runs), `work` is done again. Without --skip-bad (or with nothing left) the command fails there,
 * naming every bad file. Listing the bad files skipped is the caller's (finishRead), after the tally.
 * `dropped` is told the run that passed $9,007 (as blameRun.ts placed it).
 */
export async function dropOverflowing<T>(args: { reads: readonly AllRuns[]; asRead?: (place: string) => string; dropped: (place: string) => void | Promise<void> }, work: () => T | Promise<T>): Promise<T> {
  for (;;) {
    try {
      return await work();
    } catch (error) {
      const place = overflowPlace(error);
      const found = place === undefined ? [] : filesOfRun(args.asRead?.(place) ?? place, args.reads);
      if (place === undefined || found.length === 0) throw error;
      for (const { read, file } of found) read.set.markBad(file, error as UserError);
      for (const { read } of found) read.set.finish();
      await args.dropped(place);
    }
  }
}

/**
 * `work` over the prepared sweep; each run past $9,007 it meets makes its file bad and `work` is done again
 * without that file's runs (dropOverflowing) — with `--tree`, without its whole session tree (treesLeftOut.ts,
 * as replay --tree leaves it out), as a tree with a run in a file found bad while reading is left out first. Then the bad files are refused or listed (--skip-bad) and the trees left out said, both kept as input warnings (inputWarnings.ts): a report built after this call carries them. `work` gets the
 * sweep it finished on: what the report must describe (its runs, its caches).
 */
export async function tallyDropping<T>(args: { prepared: PreparedSweep; opts: SweepFlags; io: CliIO }, work: (prepared: PreparedSweep) => T | Promise<T>): Promise<T> {
  const { opts, io } = args;
  let current = args.prepared;
  const read = current.read;
  if (read === undefined) return work(current);
  // Without --skip-bad a file found bad while reading fails the command at once, before any tally (a run
  // past $9,007 is named with the other bad files only when reading found none).
  if (opts.skipBad !== true && read.set.badInputs.length > 0) read.set.finish();
  const leftOut = new TreesLeftOut(read);
  const prepareAgain = async () => {
    current = await prepareSweep([], opts, () => false, io, { traces: leftOut.traces(), setup: current, read });
    if (current.trees !== undefined) leftOut.checkSomeLeft(current.trees.trees.length);
  };
  // With --tree, the trees with a run in a file found bad while reading are left out before any tally.
  if (current.trees !== undefined && leftOut.leaveBad()) await prepareAgain();
  const dropped = async (place: string) => {
    if (current.trees !== undefined) leftOut.leaveBad(place);
    await prepareAgain();
  };
  const result = await dropOverflowing({ reads: [read], dropped }, () => work(current));
  finishRead(read, io);
  // Said on stderr now, and in the report's warnings (inputWarningsOf) as every input warning is.
  for (const { warning, text } of leftOut.said()) sayInputWarning(io, warning, text);
  return result;
}

/**
 * A unit's population into a thread's tallier (a sweep with a target, sweepUnits.ts): a run past $9,007
 * rolls the tally back, its file is set aside as bad (named as blameRun.ts names it) and the unit's other
 * runs are added again. The population added and the files set aside are returned.
 */
export function addDropping(tallier: SweepTallier, population: SweepPopulation, files: readonly string[]): { population: SweepPopulation; overflowed: BadInput[] } {
  const overflowed: BadInput[] = [];
  let current = population;
  for (;;) {
    const mark = tallier.mark();
    try {
      tallier.add(current);
      return { population: current, overflowed };
    } catch (error) {
      tallier.rollback(mark);
      const place = overflowPlace(error);
      const file = place === undefined ? undefined : files.map(inputLabel).find((label) => runOfFile(place, label));
      if (file === undefined) throw error;
      overflowed.push({ file, issues: [...(error as UserError).issues] });
      current = new SweepPopulation(
        current.traces.filter((trace) => !runOfFile(trace.source, file)),
        current.synthetic.scenarios ?? [],
      );
    }
  }
}
