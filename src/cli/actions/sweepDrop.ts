/**
 * A run past $9,007 (exact picodollars) in a sweep that reads every run first (`--tree`, stdin, calibrate,
 * project): whether it overflows depends on the configuration, so it is found only when tallying, named by
 * its file (population/blameRun.ts). Its file is then a bad file like any other: marked bad, its runs
 * dropped and the tally done again (refused at once, naming every bad file, without --skip-bad; a file
 * found bad while reading fails such a command before any tally). The common path pays nothing: the tally runs once, and the bad files are refused or listed after it
 * (sweepRead.ts finishRead), with the streamed sweep's words. A sweep with a target, that keeps each unit's
 * runs for the halved step caps, sets the file aside per unit instead (addDropping).
 */
import { UserError } from '../../errors.js';
import { inputLabel, runOfFile } from '../../io/inputPaths.js';
import type { BadInput } from '../../import/inputSet.js';
import { overflowPlace } from '../../population/blameRun.js';
import { SweepPopulation, type SweepTallier } from '../../population/sweep.js';
import type { CliIO } from '../io.js';
import { finishRead, tracesOf, type AllRuns } from './sweepRead.js';
import { prepareSweep, type PreparedSweep, type SweepFlags } from './sweepWork.js';

/** The read file a named run past exact picodollars belongs to (blameRun.ts places it), if `error` is one. */
function overflowingFile(error: unknown, read: AllRuns): string | undefined {
  const place = overflowPlace(error);
  if (place === undefined) return undefined;
  return read.runs.find((run) => !read.set.isBad(run.file) && runOfFile(place, run.file))?.file;
}

/**
 * `work` over the prepared sweep; each run past $9,007 it meets makes its file bad and `work` is done again
 * without that file's runs. Then the bad files are refused or listed (--skip-bad). `work` gets the sweep it
 * finished on: what the report must describe (its runs, its caches).
 */
export async function tallyDropping<T>(args: { prepared: PreparedSweep; opts: SweepFlags; io: CliIO }, work: (prepared: PreparedSweep) => T | Promise<T>): Promise<T> {
  const { opts, io } = args;
  let current = args.prepared;
  // Without --skip-bad a file found bad while reading fails the command at once, before any tally (a run
  // past $9,007 is named with the other bad files only when reading found none).
  if (current.read !== undefined && opts.skipBad !== true && current.read.set.badInputs.length > 0) current.read.set.finish();
  for (;;) {
    const read = current.read;
    let result: T;
    try {
      result = await work(current);
    } catch (error) {
      const file = read === undefined ? undefined : overflowingFile(error, read);
      if (read === undefined || file === undefined) throw error;
      read.set.markBad(file, error as UserError);
      // Without --skip-bad (or with nothing left) the command fails here, naming every bad file.
      read.set.finish();
      current = await prepareSweep([], opts, () => false, io, { traces: tracesOf(read), setup: current, read });
      continue;
    }
    if (read !== undefined) finishRead(read, io);
    return result;
  }
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
