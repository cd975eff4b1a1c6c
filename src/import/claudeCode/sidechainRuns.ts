/**
 * The sub-agents of a session's own transcript's sidechain lines (older Claude Code wrote its sub-agents
 * there; sidechainKeys.ts tells which sub-agent made each line) → one agent each, with its own runs, as the
 * separate-file layout gives them: per-agent limits bind each sub-agent, not their sum. Each is linked to
 * the Task call whose prompt is its first prompt (a Task call linked to a sub-agent file is not taken);
 * one that no Task call asked is imported unlinked, with a note. A sub-agent its lines name (`agentId`) keeps
 * that id (`sidechain-<id>` when a sub-agent file of the tree has it); the others are `sidechain` (one) or
 * `sidechain-1`, `sidechain-2`, … in the order they started.
 */
import type { ToolCallRecord, Trace } from '../../trace/types.js';
import { agentRuns } from '../common/agentRuns.js';
import { isJsonObject } from '../common/jsonValue.js';
import { CLAUDE_CODE_FORMAT, MAIN, type Owners } from './subagentRuns.js';
import type { Transcript, TranscriptCall } from './transcriptTypes.js';

/** The tools that start a sub-agent (`Agent` is the Task tool's later name). */
const TASK_TOOLS = new Set(['Task', 'Agent']);

function promptOf(tool: ToolCallRecord): string | undefined {
  return isJsonObject(tool.arguments) && typeof tool.arguments.prompt === 'string' ? tool.arguments.prompt.trim() : undefined;
}

/** The sidechain calls by sub-agent key, in the order each sub-agent made its first call. */
function byAgent(calls: readonly TranscriptCall[]): Map<string, TranscriptCall[]> {
  const groups = new Map<string, TranscriptCall[]>();
  for (const call of calls) {
    const key = call.sidechainAgent ?? '#0';
    const group = groups.get(key) ?? [];
    group.push(call);
    groups.set(key, group);
  }
  return groups;
}

/** The agent id of the sidechain sub-agent `key`, the k-th (from 0) of `count`. */
function agentIdOf(key: string, k: number, count: number, fileAgents: ReadonlySet<string>): string {
  if (!key.startsWith('#')) return fileAgents.has(key) ? `sidechain-${key}` : key;
  return count === 1 ? 'sidechain' : `sidechain-${k + 1}`;
}

export interface SidechainSpec {
  path: string;
  sessionId: string;
  main: Transcript;
  /** The session's sidechain calls no sub-agent file holds too (dropCopies.ts sidechainNotInAgentFiles). */
  calls: readonly TranscriptCall[];
  /** The ids of the tree's sub-agent files. */
  fileAgents: ReadonlySet<string>;
  /** The tree's sub-agent links (subagentRuns.ts linkOwners): a sub-agent its sidechain lines name is linked by its own. */
  owners: Owners;
}

/** The sidechain sub-agents' ids their lines name (`agentId`) that no sub-agent file of the tree has: their transcript is those lines. */
export function namedSidechainAgents(calls: readonly TranscriptCall[], fileAgents: ReadonlySet<string>): Set<string> {
  return new Set(calls.flatMap((call) => (call.sidechainAgent === undefined || call.sidechainAgent.startsWith('#') || fileAgents.has(call.sidechainAgent) ? [] : [call.sidechainAgent])));
}

/** One run (or one per part) for each sub-agent of the session's sidechain lines. */
export function sidechainRuns({ path, sessionId, main, calls, fileAgents, owners }: SidechainSpec): Trace[] {
  const linked = new Set([...main.links.values()].flatMap((links) => links.map((link) => link.toolUseId)));
  const tasks = main.calls.flatMap((call) => call.record.toolCalls ?? []).filter((tool) => TASK_TOOLS.has(tool.name) && tool.id !== undefined && !linked.has(tool.id));
  const used = new Set<ToolCallRecord>();
  const groups = byAgent(calls);
  return [...groups].flatMap(([key, agentCalls], k) => {
    const agentId = agentIdOf(key, k, groups.size, fileAgents);
    const owner = agentId === key ? owners.get(key) : undefined;
    const prompt = main.sidechainPrompts.get(key)?.trim();
    const task = owner !== undefined || prompt === undefined ? undefined : tasks.find((tool) => !used.has(tool) && promptOf(tool) === prompt);
    if (task) used.add(task);
    const toolCallId = owner?.links[0]?.toolUseId ?? task?.id;
    const which = groups.size === 1 ? '' : ` (sub-agent ${k + 1} of ${groups.size} there)`;
    const link = owner ? `linked to tool call ${toolCallId}, which names it` : task ? `linked to Task call ${toolCallId}, whose prompt is its first prompt` : 'not linked to a Task call: no Task call of the session asked its first prompt';
    return agentRuns({
      format: CLAUDE_CODE_FORMAT,
      path,
      sourceBase: path,
      label: key.startsWith('#') ? agentId : `agent-${agentId}`,
      agent: { sessionId, agentId, kind: 'subagent', parentAgentId: owner?.parent ?? MAIN, ...(toolCallId !== undefined ? { parentToolCallId: toolCallId } : {}) },
      calls: agentCalls,
      notes: [`${agentCalls.length} calls of sidechain lines in the session transcript (older Claude Code wrote sub-agents there)${which}: one sub-agent, ${link}`],
    });
  });
}
