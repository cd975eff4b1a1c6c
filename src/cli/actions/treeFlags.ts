/** The flags of `--tree` (replay, whatif), checked before any work. */
import { UserError } from '../../errors.js';
import type { SubagentLimits } from '../../tree/engine.js';
import { maxCostPico } from '../../flags/settingsFlags.js';
import { positiveInt } from '../../flags/numberFlags.js';
import { RECORDED_NOT_ONE_CONFIGURATION } from '../../flags/modesWithoutBrake.js';

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

/**
 * `--preset recorded` where every run (every session tree under --tree) is held to one set of brakes: a sweep's
 * grid, a projection, a check (a scenario's brakes). Refused; under --tree, saying where each tree replays under
 * the limits its recordings state (`replay --tree --preset recorded`: cli/actions/treeRecorded.ts).
 */
export function recordedPresetRefused(tree: boolean, holds: string): UserError {
  if (!tree) return new UserError({ file: '<command line>', field: '--preset', code: 'bad_value', message: RECORDED_NOT_ONE_CONFIGURATION, hint: 'use a named preset or brake flags' });
  return new UserError({
    file: '<command line>',
    field: '--preset',
    code: 'bad_combination',
    message: `'recorded' (each session tree under the limits its recordings state) is not taken with --tree here: ${holds}`,
    hint: 'give the brakes as flags or a named preset (--subagent-max-steps / --subagent-max-cost for the sub-agents); to replay each tree under its recordings\' limits: loopcost replay --tree --preset recorded',
  });
}

/** Refuses what --tree cannot do with the rest of the command line. */
export function checkTreeInputs(scenarioCount: number, unsupported: [string, boolean][]): void {
  if (scenarioCount > 0) throw new UserError({ file: '<command line>', field: '--tree', code: 'bad_combination', message: 'scenario files have no session trees', hint: 'give scenario files without --tree (a synthetic run is one agent, no session tree)' });
  for (const [flag, given] of unsupported) {
    if (given) throw new UserError({ file: '<command line>', field: flag, code: 'bad_combination', message: 'is not available with --tree', hint: `drop ${flag}, or --tree` });
  }
}
