/**
 * The tool call of its parent that started or resumed a sub-agent's part (Claude Code's Task call), written
 * once for the tree's clock (waitedTime.ts: whose time that call's holds) and its results (result.ts: which
 * call a sub-agent's stop ends).
 */
import type { TreeAgent } from './group.js';

/**
 * The id of the parent's tool call that ran `agent`'s part `part` (0-based): the part's own (its run's
 * `header.agent.parentToolCallId`: a Claude Code sub-agent resumed by a later Task({resume}) runs a part
 * inside each), else the agent's (the call that started it) — also for a part not there (−1: none started
 * yet, result.ts); undefined when neither is recorded.
 */
export function partToolCallId(agent: Pick<TreeAgent, 'runs' | 'parentToolCallId'>, part: number): string | undefined {
  return agent.runs[part]?.header.agent?.parentToolCallId ?? agent.parentToolCallId;
}
