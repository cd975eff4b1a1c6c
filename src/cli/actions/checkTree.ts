/**
 * `check --tree`: each scenario's recorded runs judged as session trees (src/check/treeRuns.ts), each tree
 * one run of every expectation. Refused where it means nothing: a scenario with no `traces:` (a synthetic
 * population has no session trees). Under `--skip-bad` a tree with a run in a bad file is left out whole and
 * named on stderr (CheckTreesLeftOut), as replay --tree leaves it out: judged without that run, its spend
 * would be under-counted.
 */
import type { CheckInput } from '../../check/inputs.js';
import type { CheckTree } from '../../check/treeRuns.js';
import { UserError } from '../../errors.js';
import { counted } from '../../plural.js';
import type { ReportWarning, UnrecordedInTree } from '../../report/warnings.js';
import { recordedPresetRefused, subagentLimitsFromFlags, type TreeFlags } from './treeFlags.js';
import { RECORDED_PRESET } from '../../flags/settingsFlags.js';
import type { AllRuns } from './sweepRead.js';
import { TreesLeftOut } from './treesLeftOut.js';

/**
 * The --tree of a check (undefined without it), its per-agent limits read; the combinations it cannot judge
 * refused: `--preset recorded` too (a scenario's brakes bind each of its trees alike, treeFlags.ts).
 */
export function checkTreeOf(opts: TreeFlags & { preset?: string }, checks: readonly CheckInput[]): CheckTree | undefined {
  const subagent = subagentLimitsFromFlags(opts, 'check');
  if (opts.preset === RECORDED_PRESET && opts.tree !== true) throw recordedPresetRefusedByCheck();
  if (opts.tree !== true) return undefined;
  if (opts.preset === RECORDED_PRESET) throw recordedPresetRefused(true, "check judges each scenario's trees under its file's brakes (the flags given on top), every tree alike");
  const untraced = checks.filter((input) => input.traceFiles.length === 0 && (input.unread ?? []).length === 0);
  if (untraced.length > 0) {
    throw new UserError(
      untraced.map((input) => ({
        file: input.scenario.source,
        field: 'traces',
        code: 'bad_combination',
        message: 'names no recorded runs (no `traces:`): check --tree judges session trees of recorded runs, and a synthetic population has none',
        hint: 'check this scenario without --tree, or add a `traces:` entry naming session logs (Claude Code, Codex) to it',
      })),
    );
  }
  return subagent === undefined ? {} : { subagent };
}

/**
 * `--preset recorded` without --tree: each recorded run's own limits are no brakes a scenario's expectations can be
 * written against (its runs, recorded and synthetic, are held to its file's brakes), and taken as the file's brakes
 * it would change nothing while reading as if it did: refused, as sweep and project refuse it, saying what to do.
 */
function recordedPresetRefusedByCheck(): UserError {
  return new UserError({
    file: '<command line>',
    field: '--preset',
    code: 'bad_value',
    message: "'recorded' (each recorded run under its own recorded limits) is not taken by check: each scenario's runs, recorded and synthetic, are held to its file's `brakes:` (the flags given on top), which its expectations are written against",
    hint: "drop --preset recorded (the files' brakes apply), or give the brakes as flags or a named preset; to replay recorded runs under their own limits: loopcost replay TRACES --preset recorded (loopcost whatif compares settings with them)",
  });
}

/** Recorded session trees replay open loop, as replay --tree's report says (report/treeReport.ts treeOpenLoopWarning). */
export function treeOpenLoopWarning(trees: number): ReportWarning[] {
  return [
    {
      code: 'open_loop',
      message:
        `${counted(trees, 'recorded session tree')} ${trees === 1 ? 'is' : 'are'} replayed as recorded (open loop): brakes decide where each agent stops, but calls made after a stop elsewhere in the tree are the recorded ones; ` +
        'completions and false stops are what the recordings did',
    },
  ];
}

/** Each session's unrecorded agents once, however many scenarios name its logs. */
export function onePerSession(trees: readonly UnrecordedInTree[]): UnrecordedInTree[] {
  return [...new Map(trees.map((tree) => [tree.sessionId, tree])).values()];
}

/**
 * `check --tree --skip-bad`: in each read of check's trace files, the session trees with a run in a bad file
 * (found bad on reading, or by a run past $9,007) left out whole, with their runs in other files, each named by
 * its session on stderr (treesLeftOut.ts), as replay --tree, whatif --tree and sweep --tree leave them out.
 */
export class CheckTreesLeftOut {
  private readonly byRead = new Map<AllRuns, TreesLeftOut>();

  /** Leaves out, in every read, the trees with a run in a file now bad (`passed`: the run past $9,007 that made its file bad, if one did). */
  leaveBad(reads: readonly AllRuns[], passed?: string): void {
    for (const read of reads) {
      let trees = this.byRead.get(read);
      if (trees === undefined) this.byRead.set(read, (trees = new TreesLeftOut(read)));
      trees.leaveBad(passed);
    }
  }

  /** The runs of `read` kept (its good runs, the trees left out taken away), by source. */
  kept(read: AllRuns): ReadonlySet<string> | undefined {
    const trees = this.byRead.get(read);
    return trees === undefined ? undefined : new Set(trees.traces().map((trace) => trace.source));
  }

  /** What standard error says of the trees left out beyond their bad files (after the list of bad files). */
  message(): string {
    return [...this.byRead.values()].map((trees) => trees.message()).join('');
  }
}
