/**
 * Tree time as a live loop's clock reads it: each agent's calls and tool calls one after another, and a
 * sub-agent's time counted once. A coding agent's log records the tool call that ran a sub-agent (Claude
 * Code's Task call) from its start to its return, the sub-agent's whole run inside it, and a parent that
 * waited for a sub-agent it started in the background (Codex's `wait`) records the wait the same way; the
 * sub-agent's calls count their own time on the tree's clock, so such a tool call counts only its time
 * beyond theirs (kernel/subagentTime.ts toolOwnMs, the rule the real loop records a tool call's time by:
 * agent/loop.ts). Each sub-agent's recorded time is taken off once: off the call that started it in the
 * foreground, and what is left of it off the calls that wait for it by name, in order, each at most its own time.
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

/** Whether `run`'s recorded tool latencies are their own time already (a live recording: the real loop took its sub-agents' off). */
const ownTimeRecorded = (run: Trace): boolean => run.header.live === true;

/** The time an agent's recording shows it ran: its calls' and tool calls' recorded latencies (a tool call's with the sub-agents it ran). */
function recordedMs(agent: TreeAgent): number {
  let ms = 0;
  for (const run of agent.runs) {
    for (const call of replayedCalls(run)) {
      ms += call.latencyMs ?? 0;
      for (const tool of call.toolCalls ?? []) if (tool.unreached !== true) ms += tool.latencyMs ?? 0;
    }
  }
  return ms;
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

/** The sub-agents (indices) each tool call of `tree.agents[p]` started in the foreground, by `run:call:tool`. */
function foregroundStarts(tree: SessionTree, p: number): Map<string, number[]> {
  const started = new Map<string, number[]>();
  const parent = tree.agents[p]!;
  tree.agents.forEach((agent, a) => {
    if (a === p || agent.parentAgentId !== parent.agentId || agent.background === true) return;
    const owner = ownerCall(parent, agent.parentToolCallId);
    if (owner === undefined) return;
    const key = `${owner.run}:${owner.call}:${owner.tool}`;
    started.set(key, [...(started.get(key) ?? []), a]);
  });
  return started;
}

/** Agent `p`'s runs' calls, each tool call's latency its own time beyond the sub-agents it ran or waited for (`left`: each one's recorded time not yet taken off). */
function ownTimeCalls(tree: SessionTree, p: number, left: number[]): (readonly CallRecord[])[] {
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
        const waited = [...(started.get(`${r}:${c}:${t}`) ?? []), ...waitedIds(tool).flatMap((id) => (children.has(id) ? [children.get(id)!] : []))];
        if (waited.length === 0 || tool.latencyMs === undefined) return tool;
        let taken = 0;
        for (const a of new Set(waited)) {
          const take = Math.min(left[a]!, tool.latencyMs - taken);
          left[a] = left[a]! - take;
          taken += take;
        }
        changed = true;
        return { ...tool, latencyMs: toolOwnMs(tool.latencyMs, taken) };
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
    const left = tree.agents.map(recordedMs);
    calls = tree.agents.map((_, p) => ownTimeCalls(tree, p, left));
    worked.set(tree, calls);
  }
  return calls;
}
