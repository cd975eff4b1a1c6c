/**
 * `check --tree`: each scenario's recorded runs judged as session trees (src/check/treeRuns.ts), each tree
 * one run of every expectation. Refused where it means nothing: a scenario with no `traces:` (a synthetic
 * population has no session trees) and `--skip-bad` (a tree with a run in a bad file would be judged
 * without that run, under-counting its spend; check reads its traces file by file, not tree by tree).
 */
import type { CheckInput } from '../../check/inputs.js';
import type { CheckTree } from '../../check/treeRuns.js';
import { UserError } from '../../errors.js';
import { counted } from '../../plural.js';
import type { ReportWarning, UnrecordedInTree } from '../../report/warnings.js';
import { subagentLimitsFromFlags, type TreeFlags } from './treeFlags.js';

/** The --tree of a check (undefined without it), its per-agent limits read; the combinations it cannot judge refused. */
export function checkTreeOf(opts: TreeFlags & { skipBad?: boolean }, checks: readonly CheckInput[]): CheckTree | undefined {
  const subagent = subagentLimitsFromFlags(opts, 'check');
  if (opts.tree !== true) return undefined;
  if (opts.skipBad === true) {
    throw new UserError({
      file: '<command line>',
      field: '--skip-bad',
      code: 'bad_combination',
      message: "is not available with check --tree: a session tree with a run in a bad file would be judged without that run, its spend under-counted",
      hint: 'fix or remove the bad trace files and check again, or drop --tree to judge each run on its own',
    });
  }
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
