/**
 * `replay --tree --preset recorded`: each session tree replayed under the limits its recordings state, as
 * `replay --preset recorded` replays each run under its own. A real-loop tree's recordings state them all
 * (agent/treeRecording.ts): the root's header the brakes that bound the tree's totals (and each call), each
 * sub-agent's its per-agent limits as its step cap and budget (`subagentLimits`). So a tree's brakes are its
 * main agent's recorded ones and its per-agent limits those its sub-agents state; imported sessions (Claude
 * Code, Codex) state none, and replay unbraked. Flags given on top replace what they name, in every tree
 * (brakesForRun; `--subagent-max-steps`, `--subagent-max-cost`). Sub-agents of one tree that state different
 * per-agent limits (no loop gives them: one tree has one) are refused, naming the header that differs.
 */
import type { BrakeConfig } from '../../brakes/config.js';
import { UserError } from '../../errors.js';
import { picoToUsdString } from '../../money.js';
import { recordedBrakes } from '../../replay/whatif.js';
import type { SubagentLimits } from '../../tree/budget.js';
import type { SessionTree } from '../../tree/group.js';
import type { Trace } from '../../trace/types.js';

/** A tree's settings under --preset recorded: the brakes on its totals, its per-agent limits, and each run's own (its per-call brakes bind its calls). */
export interface RecordedTreeSettings {
  brakes: BrakeConfig;
  subagent?: SubagentLimits;
  runBrakesOf(run: Trace): BrakeConfig;
}

/** A sub-agent run's recorded per-agent limits (its step cap and budget: treeRecording.ts subagentRecordedBrakes). */
function statedLimits(run: Trace): SubagentLimits {
  const brakes = recordedBrakes(run);
  return { ...(brakes.maxSteps === undefined ? {} : { maxSteps: brakes.maxSteps }), ...(brakes.maxCostPico === undefined ? {} : { maxCostPico: brakes.maxCostPico }) };
}

const limitsText = (limits: SubagentLimits) =>
  [limits.maxSteps === undefined ? 'no step limit' : `max-steps ${limits.maxSteps}`, limits.maxCostPico === undefined ? 'no budget' : `max-cost $${picoToUsdString(limits.maxCostPico)}`].join(', ');

/** The per-agent limits of `tree`: those its sub-agents state (one set for the tree), `given` on top; refused when two sub-agents state different ones `given` does not replace. */
function treeLimits(tree: SessionTree, given: SubagentLimits | undefined): SubagentLimits {
  const runs = tree.agents.filter((agent) => agent.kind === 'subagent').flatMap((agent) => agent.runs);
  const first = runs[0];
  if (first === undefined) return { ...given };
  const stated = { ...statedLimits(first), ...given };
  const other = runs.find((run) => limitsText({ ...statedLimits(run), ...given }) !== limitsText(stated));
  if (other !== undefined) {
    throw new UserError({
      file: other.source,
      ...(other.headerLine === undefined ? {} : { line: other.headerLine }),
      field: 'header.recordedSettings',
      code: 'bad_combination',
      message: `states per-agent limits (${limitsText(statedLimits(other))}) other than ${first.source} of the same session ${tree.sessionId} (${limitsText(statedLimits(first))}): --preset recorded --tree replays every sub-agent of a tree under one set`,
      hint: 'give the per-agent limits with --subagent-max-steps / --subagent-max-cost (they replace the recorded ones), or drop --tree to replay each run under its own recorded limits',
    });
  }
  return stated;
}

/** A run's own brakes under --preset recorded: its recording's, the flags on top (`brakesFor`: brakesForRun); its per-call ones bind its calls in the tree. */
export function recordedRunBrakes(run: Trace, brakesFor: (recorded: BrakeConfig) => BrakeConfig): BrakeConfig {
  return brakesFor(recordedBrakes(run));
}

/**
 * `tree`'s settings under --preset recorded: its main agent's recorded brakes with the flags on top (`brakesFor`:
 * brakesForRun), and the per-agent limits its sub-agents state with those given as flags (`given`) on top.
 */
export function recordedTreeSettings(tree: SessionTree, brakesFor: (recorded: BrakeConfig) => BrakeConfig, given: SubagentLimits | undefined): RecordedTreeSettings {
  const main = tree.agents.find((agent) => agent.kind === 'main') ?? tree.agents[0]!;
  const subagent = treeLimits(tree, given);
  // Each run's per-call brakes its recording's (a sub-agent's own: SubagentSpec.brakes), the flags on top.
  const runBrakesOf = (run: Trace) => recordedRunBrakes(run, brakesFor);
  return { brakes: brakesFor(recordedBrakes(main.runs[0]!)), ...(Object.keys(subagent).length === 0 ? {} : { subagent }), runBrakesOf };
}
