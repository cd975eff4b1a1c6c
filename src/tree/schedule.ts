/**
 * The order a tree's calls happened in: every call of every agent at its recorded start
 * (`recordedAt` + `startMs`), merged. Rules, so the order is total and deterministic:
 * - an agent's calls keep their own order (a call never starts before the agent's previous one);
 * - a sub-agent's calls never start before the parent's call that started it (clock skew is clamped);
 * - a call without a recorded time takes the time of the agent's previous call (or its start);
 * - ties: the shallower agent first (a parent before the sub-agent it started), then the agent's place
 *   in the tree, then part and call order.
 * A tree none of whose calls has a recorded start (no `recordedAt`, or no `startMs`: a recorder that does
 * not date) has only its structure to go on, and is ordered as a loop runs a sub-agent, inside the tool
 * call that started it (structuralSchedule): the parent's call, the sub-agent's whole run, the parent's next.
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
  /** When it starts (epoch ms, after the clamps above); 0 in a tree without dates. */
  atMs: number;
}

/** Where a sub-agent was started: the parent's call holding the tool call with its `parentToolCallId`, and that tool call's place in it. */
export interface OwnerCall {
  run: number;
  call: number;
  tool: number;
}

export function ownerCall(parent: TreeAgent, toolCallId: string | undefined): OwnerCall | undefined {
  if (toolCallId === undefined) return undefined;
  for (let run = 0; run < parent.runs.length; run++) {
    const calls = parent.runs[run]!.calls;
    for (let call = 0; call < calls.length; call++) {
      const tool = calls[call]!.toolCalls?.findIndex((t) => t.id === toolCallId) ?? -1;
      if (tool >= 0) return { run, call, tool };
    }
  }
  return undefined;
}

function originMs(trace: Trace): number {
  const at = trace.header.recordedAt === undefined ? NaN : Date.parse(trace.header.recordedAt);
  return Number.isFinite(at) ? at : NaN;
}

/** Whether any call of the tree has a recorded start (its run's `recordedAt` + its `startMs`). */
function anyDated(tree: SessionTree): boolean {
  return tree.agents.some((agent) =>
    agent.runs.some((run) => {
      const origin = originMs(run);
      return run.calls.some((call) => Number.isFinite(origin + (call.startMs ?? NaN)));
    }),
  );
}

/**
 * The order of a tree without dates: each agent's calls in order; after a parent's call, the whole runs
 * of the sub-agents it started (in its tool calls' order, each with its own sub-agents inside), then the
 * parent's next call; a sub-agent whose starting call is not among its parent's calls after all of them.
 * The agents no agent of the tree started (the main agent first), and any in a loop of parents, one after
 * another in the tree's order.
 */
function structuralSchedule(tree: SessionTree): ScheduledCall[] {
  const index = new Map(tree.agents.map((agent, i) => [agent.agentId, i]));
  // Sub-agents by the parent's call that started them (`agent:run:call`, or `agent:end` when unknown).
  const started = new Map<string, { agent: number; tool: number }[]>();
  tree.agents.forEach((agent, i) => {
    const parent = agent.parentAgentId === undefined ? undefined : index.get(agent.parentAgentId);
    if (parent === undefined || parent === i) return;
    const owner = ownerCall(tree.agents[parent]!, agent.parentToolCallId);
    const key = owner ? `${parent}:${owner.run}:${owner.call}` : `${parent}:end`;
    const subs = started.get(key) ?? [];
    subs.push({ agent: i, tool: owner?.tool ?? 0 });
    started.set(key, subs);
  });
  const schedule: ScheduledCall[] = [];
  const placed = new Set<number>();
  const placeStarted = (key: string): void => {
    const subs = (started.get(key) ?? []).sort((x, y) => x.tool - y.tool || x.agent - y.agent);
    for (const { agent } of subs) place(agent);
  };
  function place(a: number): void {
    if (placed.has(a)) return;
    placed.add(a);
    tree.agents[a]!.runs.forEach((run, r) =>
      run.calls.forEach((_, c) => {
        schedule.push({ agent: a, run: r, call: c, atMs: 0 });
        placeStarted(`${a}:${r}:${c}`);
      }),
    );
    placeStarted(`${a}:end`);
  }
  tree.agents.forEach((agent, a) => {
    if (agent.parentAgentId === undefined || !index.has(agent.parentAgentId)) place(a);
  });
  tree.agents.forEach((_, a) => place(a));
  return schedule;
}

/** The merged order of the tree's calls. */
export function treeSchedule(tree: SessionTree): ScheduledCall[] {
  if (!anyDated(tree)) return structuralSchedule(tree);
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
