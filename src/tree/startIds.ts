/**
 * How a tree names its agents' starts, the one rule of the live tree (src/agent/subagent.ts LiveTree),
 * the simulated tree (live.ts runAgentTree) and the replay of live recordings (liveRuns.ts): each start
 * of a sub-agent is an agent of its own, and an id the tree already has becomes `<id>#2` (`#3`, …, the
 * first the tree does not have) — across the whole tree, so a `helper` started by `researcher#2` is
 * `helper#2` when `researcher` started one before. A sub-agent a brake stopped is named by that start
 * in the error its parent's tool call ends with.
 */
import type { StopReason } from '../brakes/stopReasons.js';

/** The id a new start of `agentId` takes in a tree whose ids are `taken` (it joins them): `agentId` while free, else the first free `<agentId>#n`, n ≥ 2. */
export function startId(agentId: string, taken: Set<string>): string {
  let id = agentId;
  for (let n = 2; taken.has(id); n++) id = `${agentId}#${n}`;
  taken.add(id);
  return id;
}

/** The error of the parent's tool call that started `agentId` (its start's id) when a brake stopped it: `sub-agent researcher#2 stopped: max_steps`. */
export function subagentStopError(agentId: string, reason: StopReason): string {
  return `sub-agent ${agentId} stopped: ${reason}`;
}
