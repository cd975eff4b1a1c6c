/**
 * Imported runs → session trees, by `header.agent` (src/trace/types.ts AgentRef): the runs of one
 * `sessionId` form one tree; an agent's parts (`part`) are its runs in order; each sub-agent names the
 * agent and the tool call that started it. What cannot be linked inside the given runs is kept, with a
 * note: a sub-agent whose parent is not among the inputs still spends under the tree's budget, but no
 * tool call of a parent ends when it stops.
 */
import type { AgentRef, Trace } from '../trace/types.js';

/** One agent of a tree: its runs (parts) in order. */
export interface TreeAgent {
  agentId: string;
  kind: AgentRef['kind'];
  /** Set only when that agent is in the same tree. */
  parentAgentId?: string;
  /** The parent's tool call that started this agent (a Task call), when recorded. */
  parentToolCallId?: string;
  runs: Trace[];
}

/** One session: its agents, the main agent first, then the others in the order their first runs came. */
export interface SessionTree {
  sessionId: string;
  agents: TreeAgent[];
  /** What could not be linked (a sub-agent without its parent among the inputs, a tree without its main agent). */
  notes: string[];
}

export interface GroupedRuns {
  trees: SessionTree[];
  /** Runs without `header.agent`: no tree to put them in. */
  loose: Trace[];
}

function partOf(trace: Trace): number {
  return trace.header.agent?.part ?? 1;
}

function treeNotes(tree: SessionTree): string[] {
  const notes: string[] = [];
  const ids = new Set(tree.agents.map((agent) => agent.agentId));
  if (!tree.agents.some((agent) => agent.kind === 'main')) notes.push(`session ${tree.sessionId}: no main agent among the inputs; its sub-agents are replayed as one tree without it`);
  for (const agent of tree.agents) {
    if (agent.kind !== 'subagent') continue;
    const parent = agent.parentAgentId;
    if (parent === undefined) notes.push(`session ${tree.sessionId}: sub-agent ${agent.agentId} is not linked to a parent tool call: its calls count toward the tree, no Task call ends when it stops`);
    else if (!ids.has(parent)) {
      notes.push(`session ${tree.sessionId}: sub-agent ${agent.agentId}'s parent ${parent} is not among the inputs: its calls count toward the tree, no Task call ends when it stops`);
      delete agent.parentAgentId;
      delete agent.parentToolCallId;
    }
  }
  return notes;
}

/** Groups runs into session trees (input order kept within each agent's parts by part number). */
export function sessionTrees(traces: Iterable<Trace>): GroupedRuns {
  const bySession = new Map<string, Map<string, TreeAgent>>();
  const loose: Trace[] = [];
  for (const trace of traces) {
    const ref = trace.header.agent;
    if (ref === undefined) {
      loose.push(trace);
      continue;
    }
    let agents = bySession.get(ref.sessionId);
    if (agents === undefined) bySession.set(ref.sessionId, (agents = new Map()));
    let agent = agents.get(ref.agentId);
    if (agent === undefined) {
      agent = { agentId: ref.agentId, kind: ref.kind, runs: [] };
      if (ref.parentAgentId !== undefined) agent.parentAgentId = ref.parentAgentId;
      if (ref.parentToolCallId !== undefined) agent.parentToolCallId = ref.parentToolCallId;
      agents.set(ref.agentId, agent);
    }
    agent.runs.push(trace);
  }
  const trees: SessionTree[] = [];
  for (const [sessionId, agents] of bySession) {
    const list = [...agents.values()];
    for (const agent of list) agent.runs.sort((a, b) => partOf(a) - partOf(b));
    // The main agent first; the others keep the order they came in (stable sort).
    list.sort((a, b) => (a.kind === 'main' ? 0 : 1) - (b.kind === 'main' ? 0 : 1));
    const tree: SessionTree = { sessionId, agents: list, notes: [] };
    tree.notes = treeNotes(tree);
    trees.push(tree);
  }
  return { trees, loose };
}

/** A run with no session (no `header.agent`) as a tree of one main agent. */
export function loneTree(trace: Trace): SessionTree {
  return { sessionId: trace.source, agents: [{ agentId: 'main', kind: 'main', runs: [trace] }], notes: [] };
}

/** Every run in a tree: the session trees, then each run without a session as a tree of its own. */
export function allTrees(grouped: GroupedRuns): SessionTree[] {
  return [...grouped.trees, ...grouped.loose.map(loneTree)];
}
