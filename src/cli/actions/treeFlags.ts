/** The flags of `--tree` (replay, whatif), checked before any work. */
import { UserError } from '../../errors.js';
import type { SubagentLimits } from '../../tree/engine.js';
import { maxCostPico } from '../../flags/settingsFlags.js';
import { positiveInt } from '../../flags/numberFlags.js';

export interface TreeFlags {
  tree?: boolean;
  subagentMaxSteps?: string;
  subagentMaxCost?: string;
}

/** The per-agent limits the flags give; refused without --tree (they would do nothing). */
export function subagentLimitsFromFlags(flags: TreeFlags, command: string): SubagentLimits | undefined {
  const limits: SubagentLimits = {};
  if (flags.subagentMaxSteps !== undefined) limits.maxSteps = positiveInt('--subagent-max-steps', flags.subagentMaxSteps);
  if (flags.subagentMaxCost !== undefined) limits.maxCostPico = maxCostPico('--subagent-max-cost', flags.subagentMaxCost);
  const given = Object.keys(limits).length > 0;
  if (given && flags.tree !== true) {
    const flag = flags.subagentMaxSteps !== undefined ? '--subagent-max-steps' : '--subagent-max-cost';
    throw new UserError({ file: '<command line>', field: flag, code: 'flag_without_effect', message: 'has no effect without --tree', hint: `add --tree; run 'loopcost ${command} --help'` });
  }
  return given ? limits : undefined;
}

/** Refuses what --tree cannot do with the rest of the command line. */
export function checkTreeInputs(scenarioCount: number, unsupported: [string, boolean][]): void {
  if (scenarioCount > 0) throw new UserError({ file: '<command line>', field: '--tree', code: 'bad_combination', message: 'scenario files have no session trees', hint: 'give scenario files without --tree (a synthetic run is one agent, no session tree)' });
  for (const [flag, given] of unsupported) {
    if (given) throw new UserError({ file: '<command line>', field: flag, code: 'bad_combination', message: 'is not available with --tree', hint: `drop ${flag}, or --tree` });
  }
}
