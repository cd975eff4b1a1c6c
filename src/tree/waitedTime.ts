/**
 * Tree time as a live loop's clock reads it: each agent's calls and tool calls one after another, and a
 * sub-agent's time counted once. A coding agent's log records the tool call that ran a sub-agent (Claude
 * Code's Task call) from its start to its return, the sub-agent's whole run inside it, and a parent that
 * waited for a sub-agent it started in the background (Codex's `wait`) records the wait the same way; the
 * sub-agent's calls count their own time on the tree's clock, so such a tool call counts only its time
 * beyond theirs (kernel/subagentTime.ts toolOwnMs, the rule the real loop records a tool call's time by:
 * agent/loop.ts). Each sub-agent's recorded time is taken off once, part by part: each part's off the call that
 * started or resumed that part in the foreground (partToolCallId.ts: its run's `parentToolCallId`: a Claude Code sub-agent resumed by
 * a later Task call runs a part inside each), and what is left of it off the calls that wait for it by name, in
 * order, each at most its own time.
 *
 * A live recording (runAgentLoop's, `header.live`) wrote its tool calls' own time already: its calls are
 * replayed as they are. A sub-agent in the background that no call waited for, or unlinked, ran beside its
 * parent: its time is added to the parent's (the tree's clock counts one thing at a time, as the real loop
 * runs its sub-agents one after another).
 */
import { toolOwnMs } from '../kernel/subagentTime.js';
import { replayedCalls } from '../trace/replayedCalls.js';
import type { CallRecord, ToolCallRecord, Trace } from '../trace/types.js';
import type { SessionTree, TreeAgent } from './group.js';
import { ownerCall } from './schedule.js';
import { partToolCallId } from './partToolCallId.js';

/** Whether `run`'s recorded tool latencies are their own time already (a live recording: the real loop took its sub-agents' off). */
const ownTimeRecorded = (run: Trace): boolean => run.header.live === true;

/** The time each part (run) of an agent's recording shows it ran: its calls' and tool calls' recorded latencies (a tool call's with the sub-agents it ran). */
function recordedPartMs(agent: TreeAgent): number[] {
  return agent.runs.map((run) => {
    let ms = 0;
    for (const call of replayedCalls(run)) {
      ms += call.latencyMs ?? 0;
      for (const tool of call.toolCalls ?? []) if (tool.unreached !== true) ms += tool.latencyMs ?? 0;
    }
    return ms;
  });
}

/** A part of a sub-agent: `tree.agents[agent].runs[part]`. */
interface Part {
  agent: number;
  part: number;
}

/** The sub-agents a tool call waits for by name: Codex's `wait` (`ids`: the threads it waits for, codex-rs multi_agents.rs). */
export function waitedIds(tool: ToolCallRecord): readonly string[] {
  if (tool.name !== 'wait') return [];
  let args = tool.arguments;
  if (typeof args === 'string') {
    try {
      args = JSON.parse(args) as unknown;
    } catch {
      return [];
    }
  }
  const ids = typeof args === 'object' && args !== null ? (args as { ids?: unknown }).ids : undefined;
  return Array.isArray(ids) ? ids.filter((id): id is string => typeof id === 'string') : [];
}

/** The sub-agents' parts each tool call of `tree.agents[p]` started or resumed in the foreground, by `run:call:tool`. */
function foregroundStarts(tree: SessionTree, p: number): Map<string, Part[]> {
  const started = new Map<string, Part[]>();
  const parent = tree.agents[p]!;
  tree.agents.forEach((agent, a) => {
    if (a === p || agent.parentAgentId !== parent.agentId || agent.background === true) return;
    agent.runs.forEach((_, part) => {
      const owner = ownerCall(parent, partToolCallId(agent, part));
      if (owner === undefined) return;
      const key = `${owner.run}:${owner.call}:${owner.tool}`;
      started.set(key, [...(started.get(key) ?? []), { agent: a, part }]);
    });
  });
  return started;
}

/** Every part of `tree.agents[a]`, in order. */
const partsOf = (tree: SessionTree, a: number): Part[] => tree.agents[a]!.runs.map((_, part) => ({ agent: a, part }));

/** Takes `parts`' recorded time not yet taken off (`left[agent][part]`) off a tool call of `latencyMs`, in order, at most its time: how much it took. */
function takeOff(left: number[][], parts: readonly Part[], latencyMs: number): number {
  let taken = 0;
  // A part named twice takes nothing the second time: all of it was taken, or the call's time was.
  for (const { agent, part } of parts) {
    const take = Math.min(left[agent]![part]!, latencyMs - taken);
    left[agent]![part] = left[agent]![part]! - take;
    taken += take;
  }
  return taken;
}

/** Agent `p`'s runs' calls, each tool call's latency its own time beyond the sub-agents it ran or waited for (`left`: each one's parts' recorded time not yet taken off). */
function ownTimeCalls(tree: SessionTree, p: number, left: number[][]): (readonly CallRecord[])[] {
  const parent = tree.agents[p]!;
  const started = foregroundStarts(tree, p);
  const children = new Map(tree.agents.map((agent, a) => [agent.agentId, a] as const).filter(([, a]) => a !== p && tree.agents[a]!.parentAgentId === parent.agentId));
  return parent.runs.map((run, r) => {
    const calls = replayedCalls(run);
    if (ownTimeRecorded(run)) return calls;
    return calls.map((call, c) => {
      if (call.toolCalls === undefined) return call;
      let changed = false;
      const toolCalls = call.toolCalls.map((tool, t) => {
        const named = waitedIds(tool).flatMap((id) => (children.has(id) ? partsOf(tree, children.get(id)!) : []));
        const waited = [...(started.get(`${r}:${c}:${t}`) ?? []), ...named];
        if (waited.length === 0 || tool.latencyMs === undefined) return tool;
        changed = true;
        return { ...tool, latencyMs: toolOwnMs(tool.latencyMs, takeOff(left, waited, tool.latencyMs)) };
      });
      return changed ? { ...call, toolCalls } : call;
    });
  });
}

/** Each tree's calls once worked out (a sweep replays one tree under many settings); the copies are never written to. */
const worked = new WeakMap<SessionTree, (readonly CallRecord[])[][]>();

/** Each agent's runs' calls as the tree replays them (`[agent][run]`): replayedCalls, each tool call's time its own (see the module comment). */
export function treeCalls(tree: SessionTree): (readonly CallRecord[])[][] {
  let calls = worked.get(tree);
  if (calls === undefined) {
    const left = tree.agents.map(recordedPartMs);
    calls = tree.agents.map((_, p) => ownTimeCalls(tree, p, left));
    worked.set(tree, calls);
  }
  return calls;
}
