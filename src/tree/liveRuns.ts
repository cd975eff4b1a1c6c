/**
 * Live recordings (runAgentLoop's, `header.live`) that share an agent: each such run is one whole start
 * of its agent (a live run is never a part), so two of them under one session and agent id are two
 * agents — two trees recorded under one session id (two processes in one millisecond, recordings made
 * before session ids were unique), or one sub-agent id started twice in a tree (before the recorder
 * named the later starts `<id>#2`, `#3`, …). They are told apart as the recorder now tells them: each
 * sub-agent's start is linked to the parent run whose tool call started it (its `parentToolCallId`,
 * naming it among its `startedAgentId`/`startedAgentIds`); each `main` run is a tree of its own (the first keeps the session id,
 * the next are `<sessionId>#2`, …), and within a tree the later runs of one agent id are `<id>#2`, … in
 * input order, as the recorder numbers them (startIds.ts). A start no parent run can be told for is a UserError.
 */
import { UserError } from '../errors.js';
import { startedAgentIds } from '../trace/startedAgents.js';
import type { AgentRef, Trace } from '../trace/types.js';
import { startId } from './startIds.js';

interface Start {
  run: Trace;
  ref: AgentRef;
  parent?: Start;
  tree?: number;
  id?: string;
}

function isWholeLiveRun(run: Trace): boolean {
  return run.header.live === true && run.header.agent !== undefined && run.header.agent.part === undefined;
}

/** Whether a tool call that names `started` (none: it does not say) may have started `agentId`. */
function named(started: readonly string[], agentId: string): boolean {
  return started.length === 0 || started.includes(agentId);
}

/** Whether `parent`'s run holds the tool call that started `child` (by its id, naming it when it says). */
function started(parent: Start, child: Start): boolean {
  const callId = child.ref.parentToolCallId;
  if (callId === undefined) return false;
  return parent.run.calls.some((call) => call.toolCalls?.some((tool) => tool.id === callId && named(startedAgentIds(tool), child.ref.agentId)));
}

/** The start of `child`'s parent among `starts`: the only run of the parent's id, else the one whose tool call started it. */
function parentOf(child: Start, starts: readonly Start[]): Start | undefined {
  const { parentAgentId } = child.ref;
  const named = starts.filter((start) => start !== child && start.ref.agentId === parentAgentId);
  if (named.length <= 1) return named[0];
  const linked = named.filter((start) => started(start, child));
  if (linked.length === 1) return linked[0];
  const call = child.ref.parentToolCallId === undefined ? 'no tool call id' : `tool call ${child.ref.parentToolCallId}`;
  throw new UserError({
    file: child.run.source,
    field: 'header.agent',
    code: 'ambiguous_live_tree',
    message: `session ${child.ref.sessionId}: ${linked.length === 0 ? 'none' : linked.length} of the ${named.length} live runs of ${parentAgentId} started sub-agent ${child.ref.agentId} (${call}): two trees recorded under one session id with the same tool call ids, or one recording given twice`,
    hint: 'give each tree’s recordings once; replay trees that share a session id one at a time',
  });
}

/** The tree a start belongs to: its root's (a `main` run, numbered in input order). */
function treeOf(start: Start, mains: readonly Start[], count: number): number {
  let at: Start = start;
  for (let hops = 0; at.parent !== undefined && hops < count; hops++) at = at.parent;
  return Math.max(0, mains.indexOf(at));
}

/** Gives each start of one session an agent id unique in its tree; notes what was told apart. */
function separateSession(sessionId: string, starts: Start[], notes: Map<string, string[]>): void {
  for (const start of starts) if (start.ref.kind === 'subagent') start.parent = parentOf(start, starts);
  const mains = starts.filter((start) => start.ref.kind === 'main' && start.parent === undefined);
  const sessionIds = mains.length <= 1 ? [sessionId] : mains.map((_, i) => (i === 0 ? sessionId : `${sessionId}#${i + 1}`));
  for (const start of starts) start.tree = treeOf(start, mains, starts.length);
  sessionIds.forEach((id, tree) => {
    const members = starts.filter((start) => start.tree === tree);
    const taken = new Set(members.map((start) => start.ref.agentId));
    const seen = new Set<string>();
    const renamed: string[] = [];
    for (const start of members) {
      const agentId = seen.has(start.ref.agentId) ? startId(start.ref.agentId, taken) : start.ref.agentId;
      if (agentId !== start.ref.agentId) renamed.push(`${start.ref.agentId} → ${agentId}`);
      seen.add(start.ref.agentId);
      start.id = agentId;
    }
    const said: string[] = [];
    if (sessionIds.length > 1) said.push(`session ${sessionId}: ${sessionIds.length} trees recorded live under one session id (each with its main agent), replayed as ${sessionIds.join(', ')}`);
    if (renamed.length > 0) said.push(`session ${id}: a sub-agent id started more than once, each start replayed as an agent of its own (${renamed.join(', ')})`);
    if (said.length > 0) notes.set(id, said);
  });
  for (const start of starts) {
    const ref: AgentRef = { ...start.ref, sessionId: sessionIds[start.tree!]!, agentId: start.id! };
    if (start.parent !== undefined) ref.parentAgentId = start.parent.id!;
    start.run = { ...start.run, header: { ...start.run.header, agent: ref } };
  }
}

/**
 * The runs, live runs that share a session and agent id told apart (see above); other runs as they
 * are. `notes`: by (new) session id, what was told apart.
 */
export function separateLiveRuns(traces: readonly Trace[]): { runs: Trace[]; notes: Map<string, string[]> } {
  const notes = new Map<string, string[]>();
  const bySession = new Map<string, Start[]>();
  const startOf = new Map<Trace, Start>();
  for (const run of traces) {
    if (!isWholeLiveRun(run)) continue;
    const start: Start = { run, ref: run.header.agent! };
    startOf.set(run, start);
    const starts = bySession.get(start.ref.sessionId);
    if (starts === undefined) bySession.set(start.ref.sessionId, [start]);
    else starts.push(start);
  }
  let any = false;
  for (const [sessionId, starts] of bySession) {
    if (new Set(starts.map((start) => start.ref.agentId)).size === starts.length) continue;
    separateSession(sessionId, starts, notes);
    any = true;
  }
  if (!any) return { runs: [...traces], notes };
  return { runs: traces.map((run) => startOf.get(run)?.run ?? run), notes };
}
