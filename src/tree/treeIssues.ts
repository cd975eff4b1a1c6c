/**
 * Session trees no loop can have made, refused rather than replayed (sessionTrees, and a tree a library
 * caller hands treeReplayer or replaySessionTree): agents that are each other's parent (`a` → `b` → `a`,
 * or `a` its own parent: no start of the loop was ever made, and its stops would be blamed on the other
 * agent), and two runs of one agent that are the same part (`agent.part`; a run without one is part 1):
 * merged they read as a longer agent (`part 2 of 2`), its calls counted twice — a file given twice (a
 * copy under another name), or a header edited by hand. No importer writes either (Claude Code's and
 * Codex's number an agent's parts 1, 2, … once, and link each sub-agent to the agent that started it;
 * runAgentLoop's live recordings of one agent id are separate starts, told apart first: liveRuns.ts).
 * Nor do they write an agent its runs contradict: parts of one agent that say different kinds or parents
 * (merged, the first run's would win unsaid), a main agent with a parent, a sub-agent named `main`.
 * Every problem of the trees is one issue at the offending run's header (its file, and its line when the
 * run is a native one), told together as one UserError, zod style.
 */
import { MAX_REPORTED_ISSUES, UserError, type InputIssue } from '../errors.js';
import type { AgentRef, Trace } from '../trace/types.js';
import type { SessionTree, TreeAgent } from './group.js';
import { partNumber } from './partNumbers.js';

const PARENT_HINT = "each sub-agent's parentAgentId names the agent whose tool call started it, never itself nor an agent it started; the main agent has none";
const PART_HINT = 'give each run once (not the same file under two names), its parts numbered 1, 2, … in order';

/** Where a run's header is: its source, and its line when it is a native run's header (an importer's run names the line its model was read from). */
function headerPlace(run: Trace | undefined): Pick<InputIssue, 'file' | 'line'> {
  if (run === undefined) return {};
  const native = run.header.importedFrom === undefined && run.headerLine !== undefined;
  return { file: run.source, ...(native ? { line: run.headerLine } : {}) };
}

/** `source line N` (or `source`): a run's header in a message. */
function placeText(run: Trace | undefined): string {
  const { file, line } = headerPlace(run);
  return file === undefined ? 'no run' : line === undefined ? file : `${file} line ${line}`;
}

/** The run whose header names the agent's parent (the first that does; its first run else; none for an agent of no run, built by hand). */
function parentRun(agent: TreeAgent): Trace | undefined {
  return agent.runs.find((run) => run.header.agent?.parentAgentId === agent.parentAgentId) ?? agent.runs[0];
}

/** The loops of parent links among the tree's agents, each as the indexes of its agents from the first of it in the tree's order. */
function parentLoops(tree: SessionTree): number[][] {
  const index = new Map(tree.agents.map((agent, a) => [agent.agentId, a]));
  const parentOf = (a: number) => {
    const parent = tree.agents[a]!.parentAgentId;
    return parent === undefined ? undefined : index.get(parent);
  };
  const done = new Set<number>();
  const loops: number[][] = [];
  tree.agents.forEach((_, start) => {
    const path: number[] = [];
    let at: number | undefined = start;
    while (at !== undefined && !done.has(at) && !path.includes(at)) {
      path.push(at);
      at = parentOf(at);
    }
    if (at !== undefined && path.includes(at)) loops.push(path.slice(path.indexOf(at)));
    for (const a of path) done.add(a);
  });
  return loops;
}

/** Ids as a message lists them: `a`, `a and b`, `a, b and c`. */
function listed(ids: readonly string[]): string {
  return ids.length <= 1 ? ids.join('') : `${ids.slice(0, -1).join(', ')} and ${ids[ids.length - 1]}`;
}

function loopIssue(tree: SessionTree, loop: readonly number[]): InputIssue {
  const agents = loop.map((a) => tree.agents[a]!);
  const first = agents[0]!;
  const ids = agents.map((agent) => agent.agentId);
  const chain = [...ids, first.agentId].join(' → ');
  const others = agents.slice(1).map((agent) => `${agent.agentId}'s at ${placeText(parentRun(agent))}`);
  const what =
    agents.length === 1
      ? `agent ${first.agentId} names itself as its parent: an agent cannot have started itself`
      : `agents ${listed(ids)} are ${agents.length === 2 ? "each other's parents" : 'one another’s parents in a loop'} (${chain}; ${others.join(', ')}): an agent cannot have started the agent that started it`;
  return {
    ...headerPlace(parentRun(first)),
    field: 'agent.parentAgentId',
    code: 'parent_loop',
    message: `session ${tree.sessionId}: ${what}`,
    hint: PARENT_HINT,
  };
}

/** The part a run says it is, in words: `part 2`, or `no part (part 1)`. */
function partText(run: Trace): string {
  const part = run.header.agent?.part;
  return part === undefined ? 'no part (read as part 1)' : `part ${part}`;
}

/** A run of each agent that is a part an earlier run of it already is. */
function partIssues(tree: SessionTree): InputIssue[] {
  const issues: InputIssue[] = [];
  for (const agent of tree.agents) {
    const first = new Map<number, Trace>();
    for (const run of agent.runs) {
      const part = partNumber(run);
      const earlier = first.get(part);
      if (earlier === undefined) {
        first.set(part, run);
        continue;
      }
      issues.push({
        ...headerPlace(run),
        field: 'agent.part',
        code: 'duplicate_part',
        message: `session ${tree.sessionId}: this run of agent ${agent.agentId} says ${partText(run)}, as its run at ${placeText(earlier)} says ${partText(earlier)}: one part cannot be two runs (merged, its calls would count twice)`,
        hint: PART_HINT,
      });
    }
  }
  return issues;
}

const AGENT_HINT = "an agent is one kind, with one parent, in every run of it: the main agent (id main) has no parent; each sub-agent names the agent whose tool call started it";

/** An agent as a run's header says it (the agent's own fields for a run without one, or no run: a tree built by hand). */
function saidBy(agent: TreeAgent, run: Trace | undefined): Pick<AgentRef, 'kind' | 'parentAgentId'> {
  return run?.header.agent ?? agent;
}

const parentText = (said: Pick<AgentRef, 'parentAgentId'>): string => (said.parentAgentId === undefined ? 'no parent' : `parent ${said.parentAgentId}`);

/** What one run's header says of its agent that no loop can have made, on its own: a sub-agent named main, a main agent with a parent. */
function selfContradiction(tree: SessionTree, agent: TreeAgent, run: Trace | undefined): InputIssue | undefined {
  const said = saidBy(agent, run);
  const at = { ...headerPlace(run), hint: AGENT_HINT };
  if (said.kind === 'subagent' && agent.agentId === 'main') {
    return { ...at, field: 'agent.agentId', code: 'subagent_named_main', message: `session ${tree.sessionId}: this run says sub-agent main: main is the main agent's id, never a sub-agent's` };
  }
  if (said.kind === 'main' && said.parentAgentId !== undefined) {
    return { ...at, field: 'agent.parentAgentId', code: 'main_with_parent', message: `session ${tree.sessionId}: main agent ${agent.agentId} names ${said.parentAgentId} as its parent: the main agent is the one no agent started` };
  }
  return undefined;
}

/** A run of an agent that says another kind or parent than its first run (merged, the first run's would win unsaid). */
function partsDisagree(tree: SessionTree, agent: TreeAgent, run: Trace): InputIssue | undefined {
  const first = agent.runs[0]!;
  const [said, firstSaid] = [saidBy(agent, run), saidBy(agent, first)];
  const what = (words: string, firstWords: string) => `session ${tree.sessionId}: this run of agent ${agent.agentId} says ${words}, its run at ${placeText(first)} ${firstWords}: one agent's runs are one agent`;
  if (said.kind !== firstSaid.kind) return { ...headerPlace(run), field: 'agent.kind', code: 'conflicting_agent', message: what(`kind ${said.kind}`, `kind ${firstSaid.kind}`), hint: AGENT_HINT };
  if (said.parentAgentId !== firstSaid.parentAgentId) {
    return { ...headerPlace(run), field: 'agent.parentAgentId', code: 'conflicting_agent', message: what(parentText(said), parentText(firstSaid)), hint: AGENT_HINT };
  }
  return undefined;
}

/** Each agent's runs that contradict themselves or its first run (the first run's own contradiction told once, not again by each part). */
function agentIssues(tree: SessionTree): InputIssue[] {
  return tree.agents.flatMap((agent) => {
    if (agent.runs.length === 0) return [selfContradiction(tree, agent, undefined) ?? []].flat();
    const firstIssue = selfContradiction(tree, agent, agent.runs[0]);
    const later = agent.runs.slice(1).map((run) => selfContradiction(tree, agent, run) ?? (firstIssue ? undefined : partsDisagree(tree, agent, run)));
    return [firstIssue, ...later].filter((issue): issue is InputIssue => issue !== undefined);
  });
}

/** What makes each tree one no loop can have made (see above): parent loops, an agent's repeated parts, then what its runs say of it. */
export function impossibleTreeIssues(trees: readonly SessionTree[]): InputIssue[] {
  return trees.flatMap((tree) => [...parentLoops(tree).map((loop) => loopIssue(tree, loop)), ...partIssues(tree), ...agentIssues(tree)]);
}

/** Refuses trees no loop can have made, every problem told (up to MAX_REPORTED_ISSUES, with how many more). */
export function refuseImpossibleTrees(trees: readonly SessionTree[]): void {
  const issues = impossibleTreeIssues(trees);
  if (issues.length === 0) return;
  const shown = issues.slice(0, MAX_REPORTED_ISSUES);
  if (issues.length > shown.length) shown.push({ code: 'more_issues', message: `and ${issues.length - shown.length} more problems of the same kind in these session trees` });
  throw new UserError(shown);
}
