/**
 * Under --skip-bad, a session tree with a run past $9,007 (one run's spend, or its agents' together:
 * tree/budget.ts) is left out WHOLE, in `replay --tree`, `whatif --tree` and `sweep --tree` alike: the
 * run's file is a bad file as in every other command (sweepDrop.ts dropOverflowing), and the tree's runs in
 * other files go with it, named by the tree's session. A tree without that run would under-count its spend
 * by more than $9,007 and tell its brakes of a tree that never ran (a budget the missing sub-agent would
 * have used up seems to hold), so no figure of it is shown rather than a wrong one.
 */
import { UserError } from '../../errors.js';
import { counted } from '../../plural.js';
import { someNames } from '../../someNames.js';
import { runsOfTree, treeOfRun, type SessionTree } from '../../tree/group.js';
import type { Trace } from '../../trace/types.js';
import { tracesOf, type AllRuns } from './sweepRead.js';

/** A tree left out: its session, the run past $9,007 that left it out (`file#k`, or its file) and its agent, the files its runs came from. */
interface LeftOutTree {
  sessionId: string;
  place: string;
  agentId: string | undefined;
  files: string[];
}

/** The trees of a read left out, and the good runs left. */
export class TreesLeftOut {
  private readonly runs = new Set<Trace>();
  private readonly left: LeftOutTree[] = [];

  constructor(private readonly read: AllRuns) {}

  /** The good runs of the read (its bad files' dropped), without the runs of the trees left out, in the order read. */
  traces(): Trace[] {
    return tracesOf(this.read).filter((trace) => !this.runs.has(trace));
  }

  /** Leaves out the tree among `trees` that holds the run `place` (a run past $9,007, as blameRun.ts placed it), if one does. */
  leave(trees: readonly SessionTree[], place: string): void {
    const tree = treeOfRun(trees, place);
    if (tree === undefined) return;
    const runs = new Set(runsOfTree(tree));
    for (const run of runs) this.runs.add(run);
    const agentId = [...runs].find((run) => run.source === place)?.header.agent?.agentId;
    const files = [...new Set(this.read.runs.filter((run) => runs.has(run.trace)).map((run) => run.file))];
    this.left.push({ sessionId: tree.sessionId, place, agentId, files });
  }

  /** Refuses a read whose every tree was left out (`trees`: how many are left): --skip-bad left nothing to work on. */
  checkSomeLeft(trees: number): void {
    if (trees > 0 || this.left.length === 0) return;
    throw new UserError({
      code: 'bad_inputs',
      message: `every session tree has a run past $9,007 (${counted(this.left.length, 'session')}: ${someNames(this.left.map((tree) => tree.sessionId))}): --skip-bad left no tree to work on; nothing was written`,
      hint: 'bound the runs with --max-steps, --max-cost or --context-window, or name inputs that hold other trees',
    });
  }

  /**
   * The note for standard error on the trees left out beyond their bad files, each named by its session
   * (said after the list of bad files; a tree whose runs are all in bad files is told by that list alone).
   */
  message(): string {
    let text = '';
    for (const tree of this.left) {
      const others = tree.files.filter((file) => !this.read.set.isBad(file));
      if (others.length === 0) continue;
      const agent = tree.agentId === undefined ? '' : ` (agent ${tree.agentId})`;
      text += `loopcost: warning: left out session ${tree.sessionId} whole: its run ${tree.place}${agent} passed $9,007, so its runs in other files (${counted(others.length, 'file')}: ${someNames(others)}) are left out too: the tree without that run would under-count its spend (--skip-bad)\n`;
    }
    return text;
  }
}
