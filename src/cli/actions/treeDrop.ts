/**
 * `replay --tree` and `whatif --tree`: a run past $9,007 (one run's spend, or a tree's agents' together:
 * tree/budget.ts) makes the file of the run that passed it a bad file, as in every other command
 * (sweepDrop.ts dropOverflowing): without --skip-bad the command fails naming it (file, run, agent); with
 * --skip-bad the file is listed with the other bad files and its whole tree is left out, named by its
 * session (treesLeftOut.ts says why). The common path pays nothing: the trees replay once.
 */
import type { TraceInputs } from '../../import/inputSet.js';
import { allTrees, runsOfTree, sessionTrees, type SessionTree } from '../../tree/group.js';
import type { Trace } from '../../trace/types.js';
import type { CliIO } from '../io.js';
import { dropOverflowing } from './sweepDrop.js';
import { finishRead, runsOf } from './sweepRead.js';
import { TreesLeftOut } from './treesLeftOut.js';

/**
 * Every run of `inputs` (each through `check`, under the set's guard: a problem of a run makes its file
 * bad), then `work` over the session trees of the good runs (loose runs as trees of one agent). A run past
 * $9,007 that `work` meets makes its file bad and leaves its tree out (named on stderr); `work` is then done
 * again. Without --skip-bad a bad file fails the command, naming every bad file. What `work` gave is
 * returned with the runs of the trees it finished on (in the order read); the bad files are listed
 * (--skip-bad) after it.
 */
export async function treesDropping<T>(read: { inputs: TraceInputs; check: (trace: Trace) => void }, io: CliIO, work: (trees: SessionTree[]) => T): Promise<{ result: T; kept: Trace[] }> {
  const runs = await runsOf(read.inputs, read.check);
  // A file found bad while reading fails the command at once without --skip-bad (finish: refused or listed).
  runs.set.finish();
  const leftOut = new TreesLeftOut(runs);
  let trees: SessionTree[] = [];
  const result = await dropOverflowing({ reads: [runs], dropped: (place) => leftOut.leave(trees, place) }, () => {
    trees = allTrees(sessionTrees(leftOut.traces()));
    leftOut.checkSomeLeft(trees.length);
    return work(trees);
  });
  finishRead(runs, io);
  io.stderr(leftOut.message());
  const kept = new Set(trees.flatMap(runsOfTree));
  return { result, kept: leftOut.traces().filter((trace) => kept.has(trace)) };
}
