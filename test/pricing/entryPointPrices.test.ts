/**
 * Every library entry point that takes a model's prices (replayTrace's `pricing`, runAgentTree's and
 * runAgentLoop's `pricing` and `summaryPricing`, a sub-agent spec's `pricing`) checks them by one rule
 * (options/rules.ts pricingIssue): an object with a base, each price whole picodollars per token (input and
 * output given), its tiers a list of such prices. Before, only runAgentLoop checked the prices themselves:
 * replayTrace took `pricing: { base: {} }` to a TypeError ("Cannot read properties of undefined (reading
 * 'length')"), a negative input price to a run whose inputs were subtracted from its cost (179,998,800
 * picodollars for 180,000,000 of output), a NaN price to "one run costs more than $9,007" and a price of
 * 1e-15 picodollars to a run priced with it; runAgentTree alike. "No work" is seen by doubles that count:
 * a run whose calls are never read, a step source never asked for a step, a model never called.
 */
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/agent/clock.js';
import { runAgentLoop } from '../../src/agent/run.js';
import { defineSubagentTool } from '../../src/agent/subagent.js';
import type { Model, SubagentSpec } from '../../src/agent/types.js';
import { FULL_HISTORY } from '../../src/context/strategy.js';
import { UserError } from '../../src/errors.js';
import type { StepSource } from '../../src/loop/types.js';
import { replayTrace } from '../../src/replay/replay.js';
import { runAgentTree } from '../../src/tree/live.js';
import { distinctSteps, MINI, MINI_TABLE, trace } from '../helpers.js';

/** Counts what would be work: a recorded call read, a step asked of a source, a model call. */
const asked = { read: 0, next: 0, call: 0 };
const plain = trace(distinctSteps(3));
const run = { ...plain, calls: new Proxy(plain.calls, { get: (calls, key, receiver) => ((typeof key === 'string' && /^\d+$/.test(key) ? asked.read++ : 0), Reflect.get(calls, key, receiver)) }) };
const source: StepSource = { next: () => (asked.next++, null), exhaustedReason: () => 'trace_end' };
const model = (): Model => ({ name: 'mini', call: async () => (asked.call++, { text: 'done', toolCalls: [], usage: { inputTokens: 10, outputTokens: 5 } }) });
const loopOptions = { tools: [], brakes: {}, unbounded: true, context: { system: 's', goal: 'g' }, pricing: MINI, clock: new VirtualClock() };

/** The sub-agent a root run's only tool call starts, with `pricing` in its spec. */
function delegating(pricing: unknown): Promise<unknown> {
  const researcher = model();
  const tool = defineSubagentTool<{ task: string }>({
    name: 'delegate',
    description: 'hands a task to a researcher',
    parameters: { type: 'object' },
    agent: ({ task }) => ({ agentId: 'researcher', model: researcher, context: { system: 'You research.', goal: task }, pricing }) as SubagentSpec,
  });
  let turns = 0;
  const main: Model = { name: 'mini', call: async () => (turns++ === 0 ? { text: null, toolCalls: [{ id: 'c1', name: 'delegate', arguments: '{"task":"t"}' }], usage: { inputTokens: 10, outputTokens: 5 } } : { text: 'done', toolCalls: [], usage: { inputTokens: 10, outputTokens: 5 } }) };
  return runAgentLoop({ ...loopOptions, model: main, tools: [tool] });
}

/** Each entry point and option that takes a model's prices: its options' file, and a run with `pricing` as that option. */
const ENTRIES: Record<string, { file: string; field: string; run: (pricing: unknown) => unknown }> = {
  'replayTrace pricing': { file: '<replayTrace options>', field: 'pricing', run: (pricing) => replayTrace(run, { brakes: {}, strategy: FULL_HISTORY, prices: MINI_TABLE, pricing } as never) },
  'runAgentTree pricing': { file: '<runAgentTree options>', field: 'pricing', run: (pricing) => runAgentTree({ agentId: 'main', source, systemTokens: 10, goalTokens: 0 }, { brakes: {}, strategy: FULL_HISTORY, cache: 'off', pricing } as never) },
  'runAgentTree summaryPricing': { file: '<runAgentTree options>', field: 'summaryPricing', run: (summaryPricing) => runAgentTree({ agentId: 'main', source, systemTokens: 10, goalTokens: 0 }, { brakes: {}, strategy: FULL_HISTORY, cache: 'off', pricing: MINI, summaryPricing } as never) },
  'runAgentLoop pricing': { file: '<runAgentLoop options>', field: 'pricing', run: (pricing) => runAgentLoop({ ...loopOptions, model: model(), pricing } as never) },
  'runAgentLoop summaryPricing': { file: '<runAgentLoop options>', field: 'summaryPricing', run: (summaryPricing) => runAgentLoop({ ...loopOptions, model: model(), summaryPricing } as never) },
  'a sub-agent spec pricing': { file: '<sub-agent researcher options>', field: 'pricing', run: delegating },
};

const tierOf = (prices: Record<string, unknown>) => ({ ...MINI, tiers: [{ aboveInputTokens: 200_000, prices: { ...MINI.base, ...prices } }] });

/** Bad prices, and the issues (field below the option, code) each is refused with. */
const BAD: [string, unknown, [string, string][]][] = [
  ['{}', {}, [['', 'missing_field']]],
  ['{ base: {} }', { base: {} }, [['.base.input', 'missing_field'], ['.base.output', 'missing_field'], ['.tiers', 'invalid_value']]],
  ['a negative input price', { ...MINI, base: { ...MINI.base, input: -1 } }, [['.base.input', 'invalid_number']]],
  ['a NaN output price', { ...MINI, base: { ...MINI.base, output: NaN } }, [['.base.output', 'invalid_number']]],
  ['1e-15 per token in a tier', tierOf({ cachedInput: 1e-15 }), [['.tiers[0].prices.cachedInput', 'invalid_number']]],
  ['a string', 'gpt-4o-mini', [['', 'missing_field']]],
];

/** What `work` threw (sync or async), with what the doubles were asked before it. */
async function refusal(work: () => unknown): Promise<{ error: unknown; asked: typeof asked }> {
  Object.assign(asked, { read: 0, next: 0, call: 0 });
  let error: unknown;
  try {
    await work();
  } catch (thrown) {
    error = thrown;
  }
  return { error, asked: { ...asked } };
}

describe("every entry point that takes a model's prices checks them before any work", () => {
  it('runs with good prices (the harness)', async () => {
    for (const [name, entry] of Object.entries(ENTRIES)) {
      const { error, asked: seen } = await refusal(() => entry.run(entry.field === 'summaryPricing' ? undefined : MINI));
      expect(error, name).toBeUndefined();
      expect(seen.read + seen.next + seen.call, name).toBeGreaterThan(0);
    }
  });

  const cases = Object.entries(ENTRIES).flatMap(([name, entry]) => BAD.map(([bad, pricing, issues]) => [`${name}: ${bad}`, entry, pricing, issues] as const));
  it.each(cases)('%s: a UserError naming the option, nothing read or called', async (_, entry, pricing, issues) => {
    const { error, asked: seen } = await refusal(() => entry.run(pricing));
    expect(error).toBeInstanceOf(UserError);
    const said = (error as UserError).issues.map((issue) => [issue.file, issue.field, issue.code]);
    expect(said).toEqual(issues.map(([below, code]) => [entry.file, `${entry.field}${below}`, code]));
    expect((error as Error).message).toContain(`field '${entry.field}`);
    // A sub-agent's spec is checked when the root's tool call starts it (the root's calls are not counted): its model never called.
    expect(seen).toEqual({ read: 0, next: 0, call: 0 });
  });

  it('says what a bad price is and how to give one', async () => {
    const { error } = await refusal(() => ENTRIES['replayTrace pricing']!.run(tierOf({ output: 1e-15 })));
    expect((error as UserError).issues[0]).toMatchObject({
      field: 'pricing.tiers[0].prices.output',
      message: '1e-15 is not a price in whole picodollars per token, 0 or more',
      hint: expect.stringContaining('150000 for $0.15 per million tokens'),
    });
  });
});
