/**
 * The order a tree's calls happened in. A tree every call of which has a recorded start (`recordedAt` +
 * `startMs`) is merged by start (datedSchedule). Rules, so the order is total and deterministic:
 * - an agent's calls keep their own order (a call never starts before the agent's previous one);
 * - a sub-agent's calls never start before the parent's call that started it (clock skew is clamped);
 * - ties: the shallower agent first (a parent before the sub-agent it started), then the agent's place
 *   in the tree, then part and call order.
 * A tree none of whose calls has a recorded start (no `recordedAt`, or no `startMs`: a recorder that does
 * not date) has only its structure to go on, and is ordered as a loop runs a sub-agent, inside the tool
 * call that started it (structuralSchedule): the parent's call, the sub-agent's whole run, the parent's next.
 * A sub-agent that ran in the background (`agent.background`: Claude Code's `async_launched` Task result or `run_in_background`) is placed there too: the
 * earliest it can have run, so every later call of its parent is checked against all it spent.
 * A tree with some calls dated and some not (an undated parent with dated sub-agents, the reverse, an
 * undated part) falls back on the structure wherever a call has no date (partlyDatedSchedule): an undated
 * call goes after every call the structure puts before it, dated calls keep their dates' order among
 * themselves (with the two clamps above), and calls at one start go in the structure's order.
 * A run with no call (a sub-agent a brake stopped before its first call) has one entry, the check before
 * the call it never made, where the structure puts it (withNoCallRuns): the live tree listed its stop.
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
  /** When it starts (epoch ms, after the clamps above); 0 in a tree without dates, and for an undated call no dated call precedes. */
  atMs: number;
  /** The run has no call (`call` 0): its entry is the check before the first call it never made (withNoCallRuns). */
  noCall?: true;
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

/** Each call's recorded start (its run's `recordedAt` + its `startMs`, epoch ms), NaN when it has none. */
function recordedStarts(tree: SessionTree): number[][][] {
  return tree.agents.map((agent) =>
    agent.runs.map((run) => {
      const origin = originMs(run);
      return run.calls.map((call) => origin + (call.startMs ?? NaN));
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
    tree.agents[a]!.runs.forEach((run, r) => {
      if (run.calls.length === 0) schedule.push({ agent: a, run: r, call: 0, atMs: 0, noCall: true });
      run.calls.forEach((_, c) => {
        schedule.push({ agent: a, run: r, call: c, atMs: 0 });
        placeStarted(`${a}:${r}:${c}`);
      });
    });
    placeStarted(`${a}:end`);
  }
  tree.agents.forEach((agent, a) => {
    if (agent.parentAgentId === undefined || !index.has(agent.parentAgentId)) place(a);
  });
  tree.agents.forEach((_, a) => place(a));
  return schedule;
}

/** Each agent's parent in the tree (index into `tree.agents`, never itself) and, when known, the parent's call that started it. */
function starters(tree: SessionTree): ({ parent: number; owner?: OwnerCall } | undefined)[] {
  const index = new Map(tree.agents.map((agent, i) => [agent.agentId, i]));
  return tree.agents.map((agent, i) => {
    const parent = agent.parentAgentId === undefined ? undefined : index.get(agent.parentAgentId);
    if (parent === undefined || parent === i) return undefined;
    const owner = ownerCall(tree.agents[parent]!, agent.parentToolCallId);
    return owner ? { parent, owner } : { parent };
  });
}

/** The order of a tree every call of which is dated: by start, after the clamps and with the ties of the module's rules. */
function datedSchedule(tree: SessionTree, starts: number[][][]): ScheduledCall[] {
  const starter = starters(tree);
  const times: number[][][] = [];
  const depth: number[] = [];
  const visiting = new Set<number>();

  function timesOf(i: number): number[][] {
    const known = times[i];
    if (known) return known;
    let previous = -Infinity;
    depth[i] = 0;
    const start = starter[i];
    if (start !== undefined && !visiting.has(start.parent)) {
      visiting.add(i);
      const parentTimes = timesOf(start.parent);
      visiting.delete(i);
      depth[i] = depth[start.parent]! + 1;
      if (start.owner) previous = parentTimes[start.owner.run]![start.owner.call]!;
    }
    const result = starts[i]!.map((run) => run.map((own) => (previous = Math.max(own, previous))));
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

/**
 * The order of a tree some of whose calls are dated and some not. Walking the structural order, a call
 * starts no earlier than the agent's previous call and, an agent's first, than the parent's call that
 * started it; a dated call at its date (or that floor), an undated one at the latest start of the calls
 * before it in the structure. Sorted by start, calls at one start keep the structure's order: an undated
 * call never goes before a call the structure puts before it, nor after an undated one it puts after it.
 */
function partlyDatedSchedule(tree: SessionTree, starts: number[][][], structure: readonly ScheduledCall[]): ScheduledCall[] {
  const starter = starters(tree);
  const startAt: number[][][] = starts.map((runs) => runs.map((calls) => calls.map(() => NaN)));
  const previous: number[] = tree.agents.map(() => -Infinity);
  let latest = -Infinity;
  const walked = structure.filter((at) => !at.noCall).map((at, rank) => {
    const { agent: a, run: r, call: c } = at;
    const start = starter[a];
    const parentStart = start?.owner === undefined ? NaN : startAt[start.parent]![start.owner.run]![start.owner.call]!;
    const floor = Math.max(previous[a]!, Number.isNaN(parentStart) ? -Infinity : parentStart);
    const own = starts[a]![r]![c]!;
    const ms = Number.isFinite(own) ? Math.max(own, floor) : Math.max(latest, floor);
    startAt[a]![r]![c] = previous[a] = ms;
    latest = Math.max(latest, ms);
    return { at, ms, rank };
  });
  walked.sort((x, y) => (x.ms < y.ms ? -1 : x.ms > y.ms ? 1 : x.rank - y.rank));
  return walked.map(({ at, ms }) => ({ ...at, atMs: ms === -Infinity ? 0 : ms }));
}

/**
 * `schedule` (of a tree with dates) with an entry for each run that has no call — a sub-agent a brake
 * stopped before its first call (its recording: a header and an end), a run aborted before it — so it
 * takes the step a lone replay takes, the check before the call it never made (its stop listed as the
 * live tree listed it). It goes where the structure puts it: after the parent's call that started it and
 * the starts of that call before it (the latest of them, by date), else after every call the structure
 * puts before it.
 */
function withNoCallRuns(tree: SessionTree, schedule: ScheduledCall[], structure: readonly ScheduledCall[]): ScheduledCall[] {
  const key = (at: ScheduledCall) => `${at.agent}:${at.run}:${at.call}`;
  const rankOf = new Map(structure.map((at, rank) => [key(at), rank]));
  const starter = starters(tree);
  const merged = [...schedule];
  structure.forEach((at, rank) => {
    if (!at.noCall) return;
    const start = starter[at.agent];
    const owner = start?.owner;
    const from = owner === undefined ? 0 : rankOf.get(key({ agent: start!.parent, run: owner.run, call: owner.call, atMs: 0 }))!;
    let after = -1;
    merged.forEach((call, i) => {
      const r = rankOf.get(key(call))!;
      if (r >= from && r < rank) after = i;
    });
    merged.splice(after + 1, 0, { ...at, atMs: after >= 0 ? merged[after]!.atMs : 0 });
  });
  return merged;
}

/** The merged order of the tree's calls, a run with no call taking one entry (`noCall`: withNoCallRuns). */
export function treeSchedule(tree: SessionTree): ScheduledCall[] {
  const starts = recordedStarts(tree);
  const dated = starts.flat(2).filter(Number.isFinite).length;
  const noCall = tree.agents.some((agent) => agent.runs.some((run) => run.calls.length === 0));
  if (dated === 0) return structuralSchedule(tree);
  if (dated === starts.flat(2).length) return noCall ? withNoCallRuns(tree, datedSchedule(tree, starts), structuralSchedule(tree)) : datedSchedule(tree, starts);
  const structure = structuralSchedule(tree);
  return noCall ? withNoCallRuns(tree, partlyDatedSchedule(tree, starts, structure), structure) : partlyDatedSchedule(tree, starts, structure);
}
