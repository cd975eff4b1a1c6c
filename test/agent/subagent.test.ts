/** Sub-agent tools in the real loop: a nested agent whose every call is checked by the parent's tree budget. */
import { describe, expect, it } from 'vitest';
import { NO_BRAKES } from '../../src/brakes/config.js';
import { callCostPico } from '../../src/kernel/cost.js';
import { flattenPrices } from '../../src/kernel/prices.js';
import { MINI } from '../helpers.js';
import { delegateOnce } from './delegation.js';
import { answer, ScriptedModel, toolTurn } from './scripted.js';

const cost = (input: number, output: number) => callCostPico(flattenPrices(MINI).rows, 0, input, 0, 0, 0, output, 0);

/** main delegates once to `researcher` (six echo steps and an answer), then answers. */
function tree(maxCostPico?: number) {
  const researcher = new ScriptedModel([...Array.from({ length: 6 }, (_, i) => toolTurn('echo', { text: `finding ${i}` }, { inputTokens: 1000, outputTokens: 100 })), answer('found it', { inputTokens: 1000, outputTokens: 100 })]);
  const brakes = { ...NO_BRAKES, ...(maxCostPico === undefined ? {} : { maxCostPico }) };
  return { researcher, ...delegateOnce(researcher, brakes) };
}

describe('sub-agent tools under the parent’s budget', () => {
  it('with no budget the tree is every agent’s calls, the sub-agent’s answer the tool’s observation', async () => {
    const { main, run } = tree();
    const result = await run;
    expect(main.requests[1]!.messages.at(-1)).toMatchObject({ role: 'tool', content: 'found it' });
    expect(result.tree!.agents.map((a) => [a.agentId, a.parentAgentId, a.steps, a.stop.reason])).toEqual([
      ['main', undefined, 2, 'completed'],
      ['researcher', 'main', 7, 'completed'],
    ]);
    expect(result.tree!.totals.costPico).toBe(2 * cost(1000, 50) + 7 * cost(1000, 100));
    expect(result.tree!.stopped).toEqual([]);
  });

  it('a budget at a third of that: the tree spends at most the budget plus one call; the stopped sub-agent ends the tool call with the stop as an error', async () => {
    const full = (await tree().run).tree!.totals.costPico;
    const budget = Math.floor(full / 3);
    const { main, researcher, run } = tree(budget);
    const result = await run;
    expect(result.tree!.totals.costPico).toBeLessThanOrEqual(budget + cost(1000, 100));
    expect(result.tree!.totals.costPico).toBeGreaterThanOrEqual(budget);
    expect(researcher.requests.length).toBeLessThan(7);
    // In the order they stopped (as replayTree lists them): the sub-agent, then main at its next call.
    expect(result.tree!.stopped.map((s) => [s.agentId, s.reason, s.by])).toEqual([
      ['researcher', 'budget', 'tree'],
      ['main', 'budget', 'tree'],
    ]);
    // The parent saw the sub-agent's stop as the delegate call's error, then its next call met the tree's budget.
    expect(main.requests).toHaveLength(1);
    expect(result.stop.reason).toBe('budget');
    expect(result.messages.find((m) => m.role === 'tool')?.content).toMatch(/^sub-agent researcher stopped: budget \(/);
  });
});
