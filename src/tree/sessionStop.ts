/**
 * A session tree's stop as one run of a population: the one rule replay --tree's summary, whatif --tree,
 * sweep --tree, project --tree and check --tree count a session by. It is the main agent's stop
 * (TreeResult.stopReason), except that a session whose main agent completed while a brake stopped one of its
 * sub-agents that completes in its recording counts as stopped with that sub-agent's stop reason: a brake
 * stop, and against the tree with no brakes (which completes) a false stop. A recorded tree replays open
 * loop, so its main agent's calls after the sub-agent's stop are the recorded ones, made after the sub-agent's
 * whole result: its completion is not one the stop leaves known. Whether the sub-agent completes in its
 * recording is decided as every false stop is (metrics/groundTruth.ts isFalseStop: a brake stop of a run that
 * completes with no brakes), against the same sub-agent in the tree replayed with no brakes and no per-agent
 * limits. A sub-agent a brake stopped that does not complete in its recording (it ran out, or failed) leaves
 * the session's stop the main agent's. Pure: no node:*, no clock.
 */
import type { StopReason } from '../brakes/stopReasons.js';
import { stopCodeOf } from '../kernel/stopCodes.js';
import { isFalseStop } from '../metrics/groundTruth.js';
import type { StoppedBy, TreeResult } from './result.js';

/** A sub-agent a brake stopped whose recording completes, in a session whose main agent completed: what the session counts as. */
export interface SubagentFalseStop {
  agentId: string;
  /** Its stop reason: the session's, as a run of a population. */
  reason: StopReason;
  /** Which check stopped it (`subagent`: the per-agent limits; `tree`, `own`). */
  by: StoppedBy | undefined;
  /** The predictive budget bound refused its call (its stop's flag). */
  byPredictiveBound?: true;
}

/** The sub-agents a brake stopped, in the order it happened (a stop by a parent's stop is none: TreeResult.stopped). */
function stoppedSubagents(result: TreeResult): TreeResult['stopped'] {
  const subagents = new Set(result.agents.filter((agent) => agent.kind === 'subagent').map((agent) => agent.agentId));
  return result.stopped.filter((stop) => subagents.has(stop.agentId));
}

/** Whether a brake stopped any sub-agent of the tree (whatever its recording does). */
export function stoppedASubagent(result: TreeResult): boolean {
  return stoppedSubagents(result).length > 0;
}

/**
 * The first sub-agent (in the order the stops happened) a brake stopped that completes in its recording, when
 * the main agent completed; undefined otherwise. `unbraked`: the tree with no brakes and no per-agent limits
 * (asked for only when the main agent completed and a brake stopped a sub-agent).
 */
export function subagentFalseStopOf(result: TreeResult, unbraked: () => TreeResult): SubagentFalseStop | undefined {
  if (result.stopReason !== 'completed') return undefined;
  const stops = stoppedSubagents(result);
  if (stops.length === 0) return undefined;
  const free = unbraked();
  for (const stop of stops) {
    const recorded = free.agents.find((agent) => agent.agentId === stop.agentId)?.stop?.reason;
    if (recorded === undefined) continue;
    const agent = result.agents.find((a) => a.agentId === stop.agentId)!;
    if (!isFalseStop(stopCodeOf(stop.reason), agent.steps, { stop: stopCodeOf(recorded) })) continue;
    return { agentId: stop.agentId, reason: stop.reason, by: stop.by, ...(stop.byPredictiveBound === true ? { byPredictiveBound: true as const } : {}) };
  }
  return undefined;
}

/** The session's stop as a run of a population: the main agent's, or that of a sub-agent a brake stopped that completes in its recording (subagentFalseStopOf). */
export function sessionStopOf(result: TreeResult, unbraked: () => TreeResult): { stopReason: StopReason; byPredictiveBound: boolean } {
  const sub = subagentFalseStopOf(result, unbraked);
  return sub === undefined ? { stopReason: result.stopReason, byPredictiveBound: result.stopByPredictiveBound === true } : { stopReason: sub.reason, byPredictiveBound: sub.byPredictiveBound === true };
}
