/**
 * The parent's tool call that ran a sub-agent's part (tree/partToolCallId.ts), the one rule the tree's clock
 * (waitedTime.ts) and its results (result.ts: the call a sub-agent's stop ends) read: the part's own id (a Claude
 * Code sub-agent resumed by a later Task({resume}) names the resuming call in that part's header), else the agent's.
 */
import { describe, expect, it } from 'vitest';
import { partToolCallId } from '../../src/tree/partToolCallId.js';
import type { AgentRef, Trace } from '../../src/trace/types.js';
import { call, trace } from '../helpers.js';

/** A part whose header names the sub-agent (`parentToolCallId`: the call that ran this part, when it names one). */
function part(parentToolCallId?: string): Trace {
  const run = trace([call(10)]);
  const agent: AgentRef = { sessionId: 's', agentId: 'sub', kind: 'subagent', parentAgentId: 'main', ...(parentToolCallId === undefined ? {} : { parentToolCallId }) };
  return { ...run, header: { ...run.header, agent } };
}

describe('partToolCallId: the Task call that ran a part', () => {
  it("is the part's own id, else the agent's (a part not there, −1 or past the last, too); undefined when neither is recorded", () => {
    const agent = { parentToolCallId: 'task-1', runs: [part(), part('task-2'), part()] };
    expect([0, 1, 2].map((p) => partToolCallId(agent, p))).toEqual(['task-1', 'task-2', 'task-1']);
    expect([partToolCallId(agent, 3), partToolCallId(agent, -1)]).toEqual(['task-1', 'task-1']);
    expect(partToolCallId({ runs: [part(), part('task-2')] }, 0)).toBeUndefined();
    expect(partToolCallId({ runs: [part(), part('task-2')] }, 1)).toBe('task-2');
  });
});
