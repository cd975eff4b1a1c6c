/**
 * runAgentTree's agents' own prices (`LiveAgent.pricing`: the root's, and each sub-agent's `subagentFor`
 * gives) are checked by the rule every entry point's prices are (options/rules.ts pricingIssue): a bad one
 * is a UserError naming `<runAgentTree options>` field `root.pricing.…` (a sub-agent's by the agent and
 * the tool call that started it) before that agent is asked for a step. Before, only `options.pricing` was
 * checked: a root priced without a base ran to a TypeError mid-run ("reading 'cacheWrite'"), one priced
 * `{ base: {} }` to "one run costs more than $9,007", and a negative input price gave a two-call tree a
 * cost of −120,000,000 picodollars.
 */
import { describe, expect, it } from 'vitest';
import { NO_BRAKES } from '../../src/brakes/config.js';
import { FULL_HISTORY } from '../../src/context/strategy.js';
import type { StepSource } from '../../src/loop/types.js';
import type { ModelPricing } from '../../src/pricing/types.js';
import type { CallRecord } from '../../src/trace/types.js';
import { runAgentTree, type LiveAgent } from '../../src/tree/live.js';
import { call, MINI, toolCall, userErrorOf } from '../helpers.js';

/** A scripted source that counts the steps it was asked for. */
function counted(script: CallRecord[], asked: { next: number }): StepSource {
  let i = 0;
  return { next: () => (asked.next++, script[i++] ?? null), exhaustedReason: () => 'trace_end' };
}

const options = { brakes: NO_BRAKES, strategy: FULL_HISTORY, cache: 'off' as const, pricing: MINI };
const NEGATIVE_INPUT = { ...MINI, base: { ...MINI.base, input: -150_000 } } as ModelPricing;

/** main: a read, a Task call (T1) that starts `worker` priced `workerPricing`, an answer. */
function tree(asked: { main: { next: number }; worker: { next: number } }, pricing: { main?: unknown; worker?: unknown }): LiveAgent {
  const worker = (): LiveAgent => ({ agentId: 'worker', source: counted([call(50), call(20)], asked.worker), systemTokens: 100, goalTokens: 10, ...(pricing.worker === undefined ? {} : { pricing: pricing.worker as ModelPricing }) });
  const script = [call(80, [toolCall('read', { f: 1 }, 500)]), call(60, [toolCall('Task', { prompt: 'search' }, 300, { id: 'T1' })]), call(40)];
  return {
    agentId: 'main',
    source: counted(script, asked.main),
    systemTokens: 300,
    goalTokens: 50,
    ...(pricing.main === undefined ? {} : { pricing: pricing.main as ModelPricing }),
    subagentFor: (tool) => (tool.name === 'Task' ? worker() : undefined),
  };
}

const fresh = () => ({ main: { next: 0 }, worker: { next: 0 } });

describe("runAgentTree checks each agent's own prices before that agent is asked for a step", () => {
  it("the root's: a price that is not whole picodollars, named as root.pricing…, no source asked", () => {
    const asked = fresh();
    const error = userErrorOf(() => runAgentTree(tree(asked, { main: { ...MINI, base: { ...MINI.base, input: 0.5 } } }), options));
    expect(error.issues).toMatchObject([{ file: '<runAgentTree options>', field: 'root.pricing.base.input', code: 'invalid_number' }]);
    expect(error.message).toContain("<runAgentTree options> field 'root.pricing.base.input': 0.5 is not a price in whole picodollars per token");
    expect(asked).toEqual(fresh());
  });

  it("the root's: no base, and a negative price, each named (not a TypeError mid-run, not inputs subtracted from the cost)", () => {
    const asked = fresh();
    expect(userErrorOf(() => runAgentTree(tree(asked, { main: { model: 'x', base: undefined, tiers: [] } }), options)).issues).toMatchObject([{ field: 'root.pricing', code: 'missing_field' }]);
    expect(userErrorOf(() => runAgentTree(tree(asked, { main: NEGATIVE_INPUT }), options)).issues).toMatchObject([{ field: 'root.pricing.base.input' }]);
    expect(asked).toEqual(fresh());
  });

  it("a sub-agent's: refused when subagentFor gives it, naming it and the tool call that started it, before its first step", () => {
    const asked = fresh();
    const error = userErrorOf(() => runAgentTree(tree(asked, { worker: NEGATIVE_INPUT }), options));
    expect(error.issues).toMatchObject([{ file: '<runAgentTree options>', field: 'main.subagentFor(Task).pricing.base.input', code: 'invalid_number' }]);
    expect(error.message).toContain("sub-agent worker (started by main's tool call T1): -150000 is not a price in whole picodollars per token");
    expect(asked.worker.next).toBe(0);
  });

  it('good prices of its own: the agent is priced with them, as before', () => {
    const asked = fresh();
    const big = { ...MINI, model: 'big', base: { ...MINI.base, input: 10 * MINI.base.input } };
    const result = runAgentTree(tree(asked, { worker: big }), options);
    expect(result.agents.map((agent) => [agent.agentId, agent.models, agent.stop?.reason])).toEqual([
      ['main', ['mini'], 'completed'],
      ['worker', ['big'], 'completed'],
    ]);
    expect(asked.worker.next).toBe(1); // its first call, without tool calls, is its answer
  });
});
