/**
 * `replay --tree` and `whatif --tree`: a tree with a run in a bad file is left out whole under --skip-bad,
 * named by its session (treesLeftOut.ts says why), whether the file was found bad on reading or by a run
 * past $9,007 (one run's spend, or a tree's agents' together: tree/budget.ts), which makes the file of the
 * run that passed it a bad file, as in every other command (sweepDrop.ts dropOverflowing). Without
 * --skip-bad the command fails naming every bad file (for a run past $9,007: file, run, agent). The common
 * path pays nothing: the trees replay once.
 */
import type { TraceInputs } from '../../import/inputSet.js';
import { allTrees, sessionTrees, type SessionTree } from '../../tree/group.js';
import type { Trace } from '../../trace/types.js';
import type { CliIO } from '../io.js';
import { dropOverflowing } from './sweepDrop.js';
import { finishRead, runsOf } from './sweepRead.js';
import { sayInputWarning } from './inputWarnings.js';
import { TreesLeftOut } from './treesLeftOut.js';

/**
 * Every run of `inputs` (each through `check`, under the set's guard: a problem of a run makes its file
 * bad), then `work` over the session trees of the good runs (loose runs as trees of one agent), without
 * the trees that have a run in a bad file (named on stderr). A run past $9,007 that `work` meets makes its
 * file bad and leaves its tree out; `work` is then done again. Without --skip-bad a bad file fails the
 * command, naming every bad file. What `work` gave is returned with the runs of the trees it finished on
 * (in the order read); the bad files are listed (--skip-bad) after it.
 */
export async function treesDropping<T>(read: { inputs: TraceInputs; check: (trace: Trace) => void }, io: CliIO, work: (trees: SessionTree[]) => T): Promise<{ result: T; kept: Trace[] }> {
  const runs = await runsOf(read.inputs, read.check);
  // A file found bad while reading fails the command at once without --skip-bad (finish: refused or listed).
  runs.set.finish();
  const leftOut = new TreesLeftOut(runs);
  leftOut.leaveBad();
  const result = await dropOverflowing({ reads: [runs], dropped: (place) => void leftOut.leaveBad(place) }, () => {
    const trees = allTrees(sessionTrees(leftOut.traces()));
    leftOut.checkSomeLeft(trees.length);
    return work(trees);
  });
  finishRead(runs, io);
  // Said on stderr now, and in the report's warnings (inputWarningsOf) as every input warning is.
  for (const { warning, text } of leftOut.said()) sayInputWarning(io, warning, text);
  // The runs of the trees `work` finished on: those it was last given.
  return { result, kept: leftOut.traces() };
}
