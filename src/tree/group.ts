/**
 * Imported runs → session trees, by `header.agent` (src/trace/types.ts AgentRef): the runs of one
 * `sessionId` form one tree (a session named by another's sub-agent joins it); an agent's parts (`part`)
 * are its runs in order; each sub-agent names the agent and the tool call that started it, or the
 * parent's call names the sub-agents it started (`startedAgentId`, `startedAgentIds`). What cannot be linked inside the given
 * runs is kept, with a note: a sub-agent whose parent is not among the inputs still spends under the
 * tree's budget, but no tool call of a parent ends when it stops; a sub-agent whose parent's runs hold no
 * call of its `parentToolCallId` replays unlinked, with a note. Live recordings (runAgentLoop's) that
 * share a session and agent id are separate starts, told apart first (liveRuns.ts).
 */
import { startedAgentIds } from '../trace/startedAgents.js';
import type { AgentRef, Trace } from '../trace/types.js';
import { separateLiveRuns } from './liveRuns.js';
import { partNumber, unrecordedParts } from './partNumbers.js';
import { ownerCall } from './schedule.js';
import { traceList } from './treeArguments.js';
import { refuseImpossibleTrees } from './treeIssues.js';

/** One agent of a tree: its runs (parts) in order. */
export interface TreeAgent {
  agentId: string;
  kind: AgentRef['kind'];
  /** Set only when that agent is in the same tree. */
  parentAgentId?: string;
  /** The parent's tool call that started this agent (a Task call), when recorded. */
  parentToolCallId?: string;
  /** It ran in the background (AgentRef.background): that tool call returned at launch, so its stop ends none. */
  background?: true;
  runs: Trace[];
}

/** One session: its agents, the main agent first, then the others in the order their first runs came. */
export interface SessionTree {
  sessionId: string;
  agents: TreeAgent[];
  /** What could not be linked (a sub-agent without its parent among the inputs, a tree without its main agent). */
  notes: string[];
  /** Agents the tree's tool calls started (`startedAgentId`, `startedAgentIds`) that have no run among the inputs, then agents' parts no input holds: its totals leave them out (set only when some). */
  unrecorded?: UnrecordedAgent[];
}

/** A sub-agent a tool call of the tree started (`startedAgentId`) with no recording among the inputs, or (`parts`) the parts of an agent no input holds. */
export interface UnrecordedAgent {
  agentId: string;
  /** The agent whose tool call started it (of missing parts: the agent itself). */
  startedBy: string;
  /** The starting run was a live recording (runAgentLoop's): the sub-agent spec's `recorder` records it. */
  live: boolean;
  /** Set when the agent is among the inputs but these parts of it (`agent.part`, below its last) are not: partNumbers.ts. */
  parts?: number[];
}

export interface GroupedRuns {
  trees: SessionTree[];
  /** Runs without `header.agent`: no tree to put them in. */
  loose: Trace[];
}

function treeNotes(tree: SessionTree): string[] {
  const notes: string[] = [];
  const ids = new Set(tree.agents.map((agent) => agent.agentId));
  if (!tree.agents.some((agent) => agent.kind === 'main')) notes.push(`session ${tree.sessionId}: no main agent among the inputs; its sub-agents are replayed as one tree without it`);
  for (const agent of tree.agents) {
    if (agent.kind !== 'subagent') continue;
    const parent = agent.parentAgentId;
    if (parent === undefined) notes.push(`session ${tree.sessionId}: sub-agent ${agent.agentId} is not linked to a parent tool call: its calls count toward the tree, no tool call of its parent ends when it stops`);
    else if (!ids.has(parent)) {
      notes.push(`session ${tree.sessionId}: sub-agent ${agent.agentId}'s parent ${parent} is not among the inputs: its calls count toward the tree, no tool call of its parent ends when it stops`);
      delete agent.parentAgentId;
      delete agent.parentToolCallId;
    }
  }
  return [...notes, ...unmatchedCallNote(tree)];
}

/**
 * The sub-agents whose `parentToolCallId` is no tool call of their parent's runs (a header edited by hand,
 * the parent's runs cut short before that call), told once per tree: each replays unlinked, tied to no call
 * of its parent (in a tree without dates, after all of them; schedule.ts).
 */
function unmatchedCallNote(tree: SessionTree): string[] {
  const unmatched = unlinkedAgents(tree);
  if (unmatched.length === 0) return [];
  const said = unmatched.map((agent) => `sub-agent ${agent.agentId}'s parentToolCallId ${agent.parentToolCallId} is no tool call of ${agent.parentAgentId}`);
  const each = unmatched.length === 1 ? 'it replays' : 'each replays';
  return [`session ${tree.sessionId}: ${said.join('; ')}: ${each} unlinked, its start tied to no call of its parent (its calls count toward the tree)`];
}

/**
 * The sub-agents of `tree` whose `parentToolCallId` is no tool call of their parent's runs (the parent
 * among the tree's agents): each is unlinked, its start unknown — tied to no call, so its stop ends none.
 * The rule unmatchedCallNote tells and the tree's result holds (engine.ts: AgentResult.unlinked).
 */
export function unlinkedAgents(tree: Pick<SessionTree, 'agents'>): TreeAgent[] {
  const byId = new Map(tree.agents.map((agent) => [agent.agentId, agent]));
  return tree.agents.filter((agent) => {
    const parent = agent.parentAgentId === undefined ? undefined : byId.get(agent.parentAgentId);
    return parent !== undefined && parent !== agent && agent.parentToolCallId !== undefined && ownerCall(parent, agent.parentToolCallId) === undefined;
  });
}

/**
 * A session named by a sub-agent of another session joins that session: a sub-agent's own sub-agents,
 * whose logs name only the agent that started them (Codex's `thread_spawn` names the parent thread, and
 * a sub-agent's thread is its agent id), belong to the tree their parent is in. Repeated for chains.
 */
function joinNestedSessions(bySession: Map<string, Map<string, TreeAgent>>): void {
  for (let joined = true; joined; ) {
    joined = false;
    const sessionOfAgent = new Map<string, string>();
    for (const [sessionId, agents] of bySession) for (const agent of agents.values()) if (agent.kind === 'subagent') sessionOfAgent.set(agent.agentId, sessionId);
    for (const [sessionId, agents] of bySession) {
      const into = sessionOfAgent.get(sessionId);
      if (into === undefined || into === sessionId) continue;
      const target = bySession.get(into)!;
      for (const [agentId, agent] of agents) {
        const known = target.get(agentId);
        if (known) known.runs.push(...agent.runs);
        else target.set(agentId, agent);
      }
      bySession.delete(sessionId);
      joined = true;
      break;
    }
  }
}

/** A sub-agent without its starting call's id: the parent's tool call that names it as the agent it started (`startedAgentId`). */
function linkStartedAgents(agents: readonly TreeAgent[]): void {
  const byId = new Map(agents.map((agent) => [agent.agentId, agent]));
  for (const agent of agents) {
    if (agent.kind !== 'subagent' || agent.parentToolCallId !== undefined || agent.parentAgentId === undefined) continue;
    const parent = byId.get(agent.parentAgentId);
    const call = parent?.runs.flatMap((run) => run.calls.flatMap((c) => c.toolCalls ?? [])).find((tool) => tool.id !== undefined && startedAgentIds(tool).includes(agent.agentId));
    if (call) agent.parentToolCallId = call.id!;
  }
}

/** The agents the tree's tool calls name as started (`startedAgentId`, `startedAgentIds`: trace/startedAgents.ts) that are not agents of the tree, in the order first named. */
export function unrecordedAgents(tree: Pick<SessionTree, 'agents'>): UnrecordedAgent[] {
  const known = new Set(tree.agents.map((agent) => agent.agentId));
  const missing: UnrecordedAgent[] = [];
  for (const agent of tree.agents) {
    for (const run of agent.runs) {
      for (const tool of run.calls.flatMap((call) => call.toolCalls ?? [])) {
        for (const id of startedAgentIds(tool)) {
          if (known.has(id)) continue;
          known.add(id);
          missing.push({ agentId: id, startedBy: agent.agentId, live: run.header.live === true });
        }
      }
    }
  }
  return missing;
}

/**
 * Groups runs into session trees (input order kept within each agent's parts by part number). Runs that
 * are not runs are refused as its argument (treeArguments.ts), trees no loop can have made (agents each
 * other's parent, one part in two runs) as a UserError naming every offending header (treeIssues.ts).
 */
export function sessionTrees(traces: Iterable<Trace>): GroupedRuns {
  const bySession = new Map<string, Map<string, TreeAgent>>();
  const loose: Trace[] = [];
  // Live recordings of one agent id in one session are separate starts (liveRuns.ts), not parts.
  const { runs, notes } = separateLiveRuns(traceList('sessionTrees', traces));
  for (const trace of runs) {
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
      if (ref.background === true && ref.kind === 'subagent') agent.background = true;
      agents.set(ref.agentId, agent);
    }
    agent.runs.push(trace);
  }
  joinNestedSessions(bySession);
  const trees: SessionTree[] = [];
  for (const [sessionId, agents] of bySession) {
    const list = [...agents.values()];
    for (const agent of list) agent.runs.sort((a, b) => partNumber(a) - partNumber(b));
    linkStartedAgents(list);
    // The main agent first; the others keep the order they came in (stable sort).
    list.sort((a, b) => (a.kind === 'main' ? 0 : 1) - (b.kind === 'main' ? 0 : 1));
    const tree: SessionTree = { sessionId, agents: list, notes: [] };
    tree.notes = [...(notes.get(sessionId) ?? []), ...treeNotes(tree)];
    const unrecorded = [...unrecordedAgents(tree), ...unrecordedParts(tree)];
    if (unrecorded.length > 0) tree.unrecorded = unrecorded;
    trees.push(tree);
  }
  refuseImpossibleTrees(trees);
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

/** Every run of a tree, agent by agent, each agent's parts in order. */
export function runsOfTree(tree: SessionTree): Trace[] {
  return tree.agents.flatMap((agent) => agent.runs);
}
