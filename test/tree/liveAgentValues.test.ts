/**
 * runAgentTree holds a LiveAgent's prompt sizes to the rule a recorded header's are held to (whole numbers of
 * tokens, 0 or more, at most 2^53 − 1: options/rules.ts tokensIssue, as runAgentLoop's context.systemTokens)
 * and its `subagentFor` to being a function, the root before it is asked for a step and a sub-agent when
 * `subagentFor` gives it (options/given.ts requireLiveAgent): a UserError at the field.
 * Before, `systemTokens: 'x'` ran silently (the tree's inputTokens NaN, its cost leaving the input out), and
 * a `subagentFor: 'x'` failed at the first tool call with a TypeError.
 */
import { describe, expect, it } from 'vitest';
import { NO_BRAKES } from '../../src/brakes/config.js';
import { FULL_HISTORY } from '../../src/context/strategy.js';
import type { StepSource } from '../../src/loop/types.js';
import type { CallRecord } from '../../src/trace/types.js';
import { runAgentTree, type LiveAgent } from '../../src/tree/live.js';
import { call, MINI, toolCall, userErrorOf } from '../helpers.js';

const options = { brakes: NO_BRAKES, strategy: FULL_HISTORY, cache: 'off' as const, pricing: MINI };

function counted(script: CallRecord[], asked = { next: 0 }): StepSource {
  let i = 0;
  return { next: () => (asked.next++, script[i++] ?? null), exhaustedReason: () => 'trace_end' };
}

/** main: a Task call (T1) that starts what `child` gives, then an answer. */
function main(fields: Record<string, unknown>, asked = { next: 0 }): LiveAgent {
  const script = [call(60, [toolCall('Task', { prompt: 'search' }, 300, { id: 'T1' })]), call(40)];
  return { agentId: 'main', source: counted(script, asked), systemTokens: 300, goalTokens: 50, ...fields } as LiveAgent;
}

const worker = (fields: Record<string, unknown> = {}) => ({ agentId: 'worker', source: counted([call(20)]), systemTokens: 100, goalTokens: 10, ...fields });

describe("runAgentTree: a LiveAgent's systemTokens and goalTokens are whole token counts, its subagentFor a function", () => {
  it.each([
    ['systemTokens', 'x', '"x" is not a whole number of tokens, 0 or more'],
    ['systemTokens', -1, '-1 is not a whole number of tokens, 0 or more'],
    ['goalTokens', 12.5, '12.5 is not a whole number of tokens, 0 or more'],
    ['goalTokens', 2 ** 53, '9007199254740992 is not a whole number of tokens, 0 or more'],
    ['goalTokens', undefined, 'is missing'],
  ])('root %s %s: refused at root.<field> before it is asked for a step', (field, value, said) => {
    const asked = { next: 0 };
    const error = userErrorOf(() => runAgentTree(main({ [field]: value }, asked), options));
    expect(error.issues).toMatchObject([{ file: '<runAgentTree arguments>', field: `root.${field}`, code: 'invalid_input' }]);
    expect(error.message).toContain(`its ${field} ${said}: it is not a LiveAgent`);
    expect(asked.next).toBe(0);
  });

  it("a sub-agent's: refused at the subagentFor that gave it, the start named", () => {
    const asked = { next: 0 };
    const error = userErrorOf(() => runAgentTree(main({ subagentFor: () => worker({ systemTokens: '100' }) }, asked), options));
    expect(error.issues).toMatchObject([{ field: 'main.subagentFor(Task).systemTokens', code: 'invalid_input' }]);
    expect(error.message).toContain(`sub-agent worker (started by main's tool call T1): its systemTokens "100" is not a whole number of tokens`);
    expect(asked.next).toBe(1);
  });

  it('a subagentFor that is not a function: a UserError naming it, not a TypeError', () => {
    const root = userErrorOf(() => runAgentTree(main({ subagentFor: 'worker' }), options));
    expect(root.issues).toMatchObject([{ field: 'root.subagentFor', code: 'invalid_input' }]);
    expect(root.message).toContain('its subagentFor is "worker", not a function');
    const child = userErrorOf(() => runAgentTree(main({ subagentFor: () => worker({ subagentFor: {} }) }), options));
    expect(child.issues).toMatchObject([{ field: 'main.subagentFor(Task).subagentFor' }]);
  });

  it('whole counts (0 too) and a function or no subagentFor run as before', () => {
    const result = runAgentTree(main({ systemTokens: 0, subagentFor: () => worker({ goalTokens: 0 }) }), options);
    expect(result.agents.map((a) => [a.agentId, a.stop?.reason])).toEqual([
      ['main', 'completed'],
      ['worker', 'completed'],
    ]);
    // worker's one call sent its prompt alone (100 + 0 tokens).
    expect(result.agents[1]!.inputTokens).toBe(100);
    expect(runAgentTree(main({}), options).agents.map((a) => a.agentId)).toEqual(['main']);
  });
});
