/**
 * The order a tree's calls happened in: every call of every agent at its recorded start
 * (`recordedAt` + `startMs`), merged. Rules, so the order is total and deterministic:
 * - an agent's calls keep their own order (a call never starts before the agent's previous one);
 * - a sub-agent's calls never start before the parent's call that started it (clock skew is clamped);
 * - a call without a recorded time takes the time of the agent's previous call (or its start);
 * - ties: the shallower agent first (a parent before the sub-agent it started), then the agent's place
 *   in the tree, then part and call order.
 */
import type { Trace } from '../trace/types.js';
import type { SessionTree, TreeAgent } from './group.js';

export interface ScheduledCall {
  /** Index into `tree.agents`. */
  agent: number;
  /** Index into that agent's `runs`. */
  run: number;
  /** Index into that run's `calls`. */
  call: number;
  /** When it starts (epoch ms, after the clamps above). */
  atMs: number;
}

/** Where a sub-agent was started: the parent's call holding the tool call with its `parentToolCallId`. */
export interface OwnerCall {
  run: number;
  call: number;
}

export function ownerCall(parent: TreeAgent, toolCallId: string | undefined): OwnerCall | undefined {
  if (toolCallId === undefined) return undefined;
  for (let run = 0; run < parent.runs.length; run++) {
    const calls = parent.runs[run]!.calls;
    for (let call = 0; call < calls.length; call++) if (calls[call]!.toolCalls?.some((tool) => tool.id === toolCallId)) return { run, call };
  }
  return undefined;
}

function originMs(trace: Trace): number {
  const at = trace.header.recordedAt === undefined ? NaN : Date.parse(trace.header.recordedAt);
  return Number.isFinite(at) ? at : NaN;
}

/** The merged order of the tree's calls. */
export function treeSchedule(tree: SessionTree): ScheduledCall[] {
  const index = new Map(tree.agents.map((agent, i) => [agent.agentId, i]));
  const times: number[][][] = [];
  const depth: number[] = [];
  const visiting = new Set<number>();

  function timesOf(i: number): number[][] {
    const known = times[i];
    if (known) return known;
    const agent = tree.agents[i]!;
    let floor = -Infinity;
    depth[i] = 0;
    const parent = agent.parentAgentId === undefined ? undefined : index.get(agent.parentAgentId);
    if (parent !== undefined && !visiting.has(parent) && parent !== i) {
      visiting.add(i);
      const parentTimes = timesOf(parent);
      visiting.delete(i);
      depth[i] = depth[parent]! + 1;
      const owner = ownerCall(tree.agents[parent]!, agent.parentToolCallId);
      if (owner) floor = parentTimes[owner.run]![owner.call]!;
    }
    let previous = floor;
    const result = agent.runs.map((run) => {
      const origin = originMs(run);
      return run.calls.map((call) => {
        const own = origin + (call.startMs ?? NaN);
        previous = Number.isFinite(own) ? Math.max(own, previous) : previous;
        return previous === -Infinity ? 0 : previous;
      });
    });
    times[i] = result;
    return result;
  }

  const schedule: ScheduledCall[] = [];
  tree.agents.forEach((agent, a) => {
    const agentTimes = timesOf(a);
    agent.runs.forEach((run, r) => run.calls.forEach((_, c) => schedule.push({ agent: a, run: r, call: c, atMs: agentTimes[r]![c]! })));
  });
  schedule.sort((x, y) => x.atMs - y.atMs || depth[x.agent]! - depth[y.agent]! || x.agent - y.agent || x.run - y.run || x.call - y.call);
  return schedule;
}
