/**
 * Importer for mini-swe-agent trajectories (`*.traj.json`, `trajectory_format: "mini-swe-agent-1.1"`).
 *
 * One assistant message is one model call; its `extra.response.usage` is the provider's usage as LiteLLM
 * returned it and `extra.cost` the USD LiteLLM computed for it. Tool messages answer tool calls by
 * `tool_call_id`. The run ends with an `exit` message; `info` holds the exit status and run totals.
 *
 * The work is split by job under miniSweAgent/: readTrajectory.ts validates the document (chatMessages.ts
 * walks the chat, assistantMessage.ts reads one call, commandResult.ts a command's result), and
 * buildTrace.ts turns the valid run into a Trace (runEnd.ts: how the run ended).
 */
import type { Trace } from '../trace/types.js';
import { buildMiniSweAgentTrace, type MiniSweAgentImportOptions } from './miniSweAgent/buildTrace.js';
import { readMiniSweAgentTrajectory } from './miniSweAgent/readTrajectory.js';

export { MINI_SWE_AGENT_SUBMIT_MARKERS } from './miniSweAgent/assistantMessage.js';
export { MINI_SWE_AGENT_FORMAT, type MiniSweAgentImportOptions } from './miniSweAgent/buildTrace.js';
export { miniSweAgentOutcome } from './miniSweAgent/runEnd.js';

export { looksLikeMiniSweAgent } from './formats.js';

export function importMiniSweAgent(content: string, path: string, opts: MiniSweAgentImportOptions = {}): Trace[] {
  return [buildMiniSweAgentTrace(readMiniSweAgentTrajectory(content, path), path, opts)];
}
