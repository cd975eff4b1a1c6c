/**
 * The sub-agents a tool call started, as a recording names them: `startedAgentId` (one, as the Codex
 * importer and live recordings of a tool that started one write it) and `startedAgentIds` (every one, as a
 * live recording writes a tool call that started several). Every reader of the link takes it from here.
 */
import type { ToolCallRecord } from './types.js';

/** The agents `tool` started, in the order started: `startedAgentId`, then `startedAgentIds` (each once). */
export function startedAgentIds(tool: Pick<ToolCallRecord, 'startedAgentId' | 'startedAgentIds'>): readonly string[] {
  const many = tool.startedAgentIds;
  if (many === undefined) return tool.startedAgentId === undefined ? [] : [tool.startedAgentId];
  if (tool.startedAgentId === undefined || many.includes(tool.startedAgentId)) return many;
  return [tool.startedAgentId, ...many];
}

/** `tool` naming `agentIds` as the agents it started: `startedAgentId` for one, `startedAgentIds` for several (none: `tool` as it is). */
export function withStartedAgents<T extends ToolCallRecord>(tool: T, agentIds: readonly string[]): T {
  if (agentIds.length === 0) return tool;
  return agentIds.length === 1 ? { ...tool, startedAgentId: agentIds[0]! } : { ...tool, startedAgentIds: [...agentIds] };
}
