/**
 * The tool calls of one transcript's agent that started a sub-agent, by sub-agent (transcript.ts keeps
 * them). A sub-agent can be run more than once: Claude Code continues it in the same `agent-<id>.jsonl`
 * when a later call resumes it (`Task({resume: id})`, later `SendMessage`), so each sub-agent has a list of
 * links, one per tool call that started or resumed it, in the order they were made: a progress line
 * (`agent_progress`, its `parentToolUseID`) or a Task result (`toolUseResult.agentId`) names each. A Task
 * result's usage and background launch belong to the link of its own tool call, never to another run's.
 */
import type { ReportedUsage, SubagentLink } from './transcriptTypes.js';

export class SubagentLinks {
  readonly byAgent = new Map<string, SubagentLink[]>();

  /** The link of `agentId` by the tool call `toolUseId`, added after the others when new. */
  link(agentId: string, toolUseId: string, at: { line: number; atMs: number | undefined }): SubagentLink {
    const links = this.byAgent.get(agentId) ?? [];
    let link = links.find((known) => known.toolUseId === toolUseId);
    if (link === undefined) {
      link = { toolUseId, line: at.line, ...(at.atMs === undefined ? {} : { atMs: at.atMs }) };
      links.push(link);
      this.byAgent.set(agentId, links);
    }
    return link;
  }

  /** What a Task result says of the run its tool call started: the usage of its final response, a background launch. */
  taskResult(agentId: string, toolUseId: string, at: { line: number; atMs: number | undefined }, task: { reported?: Omit<ReportedUsage, 'line'>; background?: boolean }): void {
    const link = this.link(agentId, toolUseId, at);
    if (task.reported !== undefined) link.reported = { ...task.reported, line: at.line };
    if (task.background !== undefined) link.background = task.background;
  }

  /** Links no Task result said the launch of: background when the call that started them asked for it. */
  markAskedBackground(asked: ReadonlySet<string>): void {
    for (const links of this.byAgent.values()) for (const link of links) if (link.background === undefined && asked.has(link.toolUseId)) link.background = true;
  }
}
