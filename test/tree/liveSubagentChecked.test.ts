/**
 * A sub-agent that `subagentFor` gives (runAgentTree, src/tree/live.ts) is checked as a LiveAgent as the
 * root is (options/given.ts requireLiveAgent), before it is asked for a step: a UserError at `<runAgentTree
 * arguments>` field `<parent>.subagentFor(<tool>)` and the field it lacks (`.source`), naming the sub-agent and
 * the tool call that started it.
 * Before, only its prices were checked: one without a `source` (or not an object at all) ran into a TypeError
 * mid-tree ("Cannot read properties of undefined (reading 'cacheWrites')").
 */
import { describe, expect, it } from 'vitest';
import { UserError } from '../../src/errors.js';
import { NO_BRAKES } from '../../src/brakes/config.js';
import { FULL_HISTORY } from '../../src/context/strategy.js';
import type { StepSource } from '../../src/loop/types.js';
import type { CallRecord } from '../../src/trace/types.js';
import { runAgentTree, type LiveAgent } from '../../src/tree/live.js';
import { call, MINI, toolCall, userErrorOf } from '../helpers.js';

const options = { brakes: NO_BRAKES, strategy: FULL_HISTORY, cache: 'off' as const, pricing: MINI };

/** A scripted source that counts the steps it was asked for. */
function counted(script: CallRecord[], asked: { next: number }): StepSource {
  let i = 0;
  return { next: () => (asked.next++, script[i++] ?? null), exhaustedReason: () => 'trace_end' };
}

/** An agent that reads, starts what `child` gives with its Task call `id`, then answers. */
function agent(agentId: string, id: string, child: () => unknown, asked = { next: 0 }): LiveAgent {
  const script = [call(80, [toolCall('read', { f: 1 }, 500)]), call(60, [toolCall('Task', { prompt: 'search' }, 300, { id })]), call(40)];
  return { agentId, source: counted(script, asked), systemTokens: 300, goalTokens: 50, subagentFor: (tool) => (tool.name === 'Task' ? (child() as LiveAgent) : undefined) };
}

describe('runAgentTree checks a sub-agent subagentFor gives as a LiveAgent, as it checks the root', () => {
  it('one without a source: a UserError naming it, the tool call and the field, not a TypeError; it is never asked', () => {
    const asked = { next: 0 };
    const error = userErrorOf(() => runAgentTree(agent('main', 'T1', () => ({ agentId: 'worker', systemTokens: 100, goalTokens: 10 }), asked), options));
    expect(error.issues).toMatchObject([{ file: '<runAgentTree arguments>', field: 'main.subagentFor(Task).source', code: 'invalid_input' }]);
    expect(error.message).toContain("<runAgentTree arguments> field 'main.subagentFor(Task).source': sub-agent worker (started by main's tool call T1): its source is missing: it is not a LiveAgent");
    expect(error.message).toContain('subagentFor returns the LiveAgent a tool call starts');
    // The parent was asked for its read and its Task call, nothing after.
    expect(asked.next).toBe(2);
  });

  it('not an object (a name): refused the same way, the start said without an id', () => {
    const error = userErrorOf(() => runAgentTree(agent('main', 'T1', () => 'worker'), options));
    expect(error.issues).toMatchObject([{ field: 'main.subagentFor(Task)', code: 'invalid_input' }]);
    expect(error.message).toContain(`sub-agent (started by main's tool call T1): "worker": it is not a LiveAgent`);
    const noId = userErrorOf(() => runAgentTree(agent('main', 'T1', () => ({ agentId: 7, source: counted([], { next: 0 }), systemTokens: 1, goalTokens: 1 })), options));
    expect(noId.issues).toMatchObject([{ field: 'main.subagentFor(Task).agentId' }]);
    expect(noId.message).toContain("sub-agent (started by main's tool call T1): its agentId is 7: it is not a LiveAgent");
  });

  it("a sub-agent's own sub-agent: named at its parent's subagentFor", () => {
    const bad = { agentId: 'deep', source: { next: 'not a function' }, systemTokens: 1, goalTokens: 1 };
    const error = userErrorOf(() => runAgentTree(agent('main', 'T1', () => agent('worker', 'W1', () => bad)), options));
    expect(error.issues).toMatchObject([{ field: 'worker.subagentFor(Task).source.next' }]);
    expect(error.message).toContain(`sub-agent deep (started by worker's tool call W1): its source.next is "not a function"`);
  });

  it('a good sub-agent runs as before; an ordinary tool (undefined) starts none', () => {
    const worker = (): LiveAgent => ({ agentId: 'worker', source: counted([call(20)], { next: 0 }), systemTokens: 100, goalTokens: 10 });
    const result = runAgentTree(agent('main', 'T1', worker), options);
    expect(result.agents.map((a) => [a.agentId, a.parentToolCallId, a.stop?.reason])).toEqual([
      ['main', undefined, 'completed'],
      ['worker', 'T1', 'completed'],
    ]);
    expect(() => runAgentTree(agent('main', 'T1', () => undefined), options)).not.toThrow(UserError);
  });
});
