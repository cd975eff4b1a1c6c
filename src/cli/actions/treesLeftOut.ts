/**
 * Under --skip-bad, a session tree with a run in a bad file is left out WHOLE, in `replay --tree`,
 * `whatif --tree` and `sweep --tree` alike, whatever made the file bad: a problem found on reading it (a
 * malformed line, an unknown model, a rule broken) or a run past $9,007 found at the tally (one run's
 * spend, or its agents' together: tree/budget.ts; sweepDrop.ts dropOverflowing). The tree's runs in other
 * files go with it, named by the tree's session. A tree without that run would under-count its spend (by
 * more than $9,007 for a run past it) and tell its brakes of a tree that never ran (a budget the missing
 * sub-agent would have used up seems to hold), so no figure of it is shown rather than a wrong one. A run
 * of a bad file is placed by its header (treeHeaders.ts); a file bad before any header of it was read
 * places none: it is a bad file alone.
 */
import { MAX_BAD_FILES } from '../../import/inputSet.js';
import { UserError, type InputIssue } from '../../errors.js';
import { counted } from '../../plural.js';
import { someNames } from '../../someNames.js';
import { runsOfTree, sessionTrees } from '../../tree/group.js';
import type { Trace } from '../../trace/types.js';
import { tracesOf, type AllRuns } from './sweepRead.js';
import { treeLeftOutWarning } from './inputWarnings.js';
import type { ReportWarning } from '../../report/warnings.js';

/**
 * A tree left out: its session, its run in a bad file named in the note (`file#k`, or its file; the run
 * past $9,007 when one left it out) and that run's agent, whether it passed $9,007, the files its runs came from.
 */
interface LeftOutTree {
  sessionId: string;
  place: string;
  agentId: string | undefined;
  passed: boolean;
  files: string[];
}

/** A run of a bad file as placed in a tree: a live run as a run of its agent (never a start to tell apart: liveRuns.ts needs the calls a bad file may not have given). */
function placed(trace: Trace, bad: boolean): Trace {
  return bad && trace.header.live === true ? { ...trace, header: { ...trace.header, live: undefined } } : trace;
}

/** The trees of a read left out, and the good runs left. */
export class TreesLeftOut {
  /** The runs (by source) of the trees left out. */
  private readonly gone = new Set<string>();
  private readonly left: LeftOutTree[] = [];

  constructor(private readonly read: AllRuns) {}

  /** The good runs of the read (its bad files' dropped), without the runs of the trees left out, in the order read. */
  traces(): Trace[] {
    const traces = tracesOf(this.read);
    return this.gone.size === 0 ? traces : traces.filter((trace) => !this.gone.has(trace.source));
  }

  /**
   * Leaves out every session tree with a run in a bad file (each run of the read placed by its header, the
   * bad files' too), not left out already; `passed`: the run past $9,007 that made its file bad, if one
   * did (named in the note for its tree). Nothing is grouped while no file is bad. Whether a tree was left out.
   */
  leaveBad(passed?: string): boolean {
    const { set } = this.read;
    const runs = [...this.read.runs, ...this.read.badRead].filter((run) => !this.gone.has(run.trace.source));
    if (!runs.some((run) => set.isBad(run.file))) return false;
    const before = this.gone.size;
    const fileOf = new Map(runs.map((run) => [run.trace.source, run.file]));
    const isBad = (source: string) => set.isBad(fileOf.get(source)!);
    for (const tree of sessionTrees(runs.map((run) => placed(run.trace, set.isBad(run.file)))).trees) {
      const treeRuns = runsOfTree(tree);
      const bad = treeRuns.filter((run) => isBad(run.source));
      if (bad.length === 0) continue;
      for (const run of treeRuns) this.gone.add(run.source);
      const files = [...new Set(treeRuns.map((run) => fileOf.get(run.source)!))];
      // A tree wholly in bad files is told by the list of bad files alone.
      if (files.every((file) => set.isBad(file))) continue;
      const run = bad.find((run) => run.source === passed) ?? bad[0]!;
      this.left.push({ sessionId: tree.sessionId, place: run.source, agentId: run.header.agent?.agentId, passed: run.source === passed, files });
    }
    return this.gone.size > before;
  }

  /** Refuses a read whose every tree was left out (`trees`: how many are left): --skip-bad left nothing to work on. */
  checkSomeLeft(trees: number): void {
    if (trees > 0 || this.left.length === 0) return;
    const sessions = `${counted(this.left.length, 'session')}: ${someNames(this.left.map((tree) => tree.sessionId))}`;
    const summary: InputIssue = this.left.every((tree) => tree.passed)
      ? { code: 'bad_inputs', message: `every session tree has a run past $9,007 (${sessions}): --skip-bad left no tree to work on; nothing was written`, hint: 'bound the runs with --max-steps, --max-cost or --context-window, or name inputs that hold other trees' }
      : { code: 'bad_inputs', message: `every session tree has a run in a bad file (${sessions}): --skip-bad left no tree to work on; nothing was written`, hint: 'fix the bad files, or name inputs that hold other trees' };
    // The bad files are named first (not listed otherwise: nothing is worked on).
    const bad = this.read.set.badInputs.slice(0, MAX_BAD_FILES).map((input): InputIssue => ({ ...input.issues[0]!, file: input.issues[0]!.file ?? input.file }));
    throw new UserError([...bad, summary]);
  }

  /**
   * The note for standard error on the trees left out beyond their bad files, each named by its session
   * (said after the list of bad files; a tree whose runs are all in bad files is told by that list alone).
   */
  message(): string {
    return this.said().map(({ text }) => text).join('');
  }

  /** Each tree left out beyond its bad files: its line for standard error and its report warning (`trees_left_out`: inputWarnings.ts). */
  said(): { warning: ReportWarning; text: string }[] {
    return this.left.flatMap((tree) => {
      const others = tree.files.filter((file) => !this.read.set.isBad(file));
      return others.length === 0 ? [] : [treeLeftOutWarning({ ...tree, others })];
    });
  }
}
