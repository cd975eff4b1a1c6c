/**
 * Every model a run calls is billed at its own prices (agent/validate.ts pricedModelIssue, one rule for the
 * run's `pricing`, a sub-agent's and the summary model's `summaryPricing`): prices that name another model are
 * a UserError naming the field, before any model is called. Before, gpt-4o called with gpt-4o-mini's prices
 * ran with its $0.05 budget never firing (10 steps billed $0.018 against $0.30 at gpt-4o's), while a replay of
 * its recording priced gpt-4o and stopped at step 2; a sub-agent on gpt-4o whose spec gave no prices was
 * silently billed at its parent's gpt-4o-mini.
 */
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/agent/clock.js';
import { runAgentLoop } from '../../src/agent/run.js';
import { defineSubagentTool } from '../../src/agent/subagent.js';
import type { AgentLoopOptions, SubagentSpec } from '../../src/agent/types.js';
import { NO_BRAKES } from '../../src/brakes/config.js';
import { UserError } from '../../src/errors.js';
import { usdToPico } from '../../src/money.js';
import { loadPriceTable } from '../../src/pricing/index.js';
import { answer, ScriptedModel, toolTurn } from './scripted.js';

const prices = loadPriceTable();
const MINI_PRICES = prices.resolve('gpt-4o-mini');
const echo = { name: 'echo', description: 'says it back', parameters: { type: 'object' }, run: () => 'echoed' };

/** A run of `model` looping on echo under a $0.05 budget, priced `pricing`. */
function looping(model: ScriptedModel, pricing: AgentLoopOptions['pricing']): AgentLoopOptions {
  return { model, tools: [echo], brakes: { ...NO_BRAKES, maxSteps: 10, maxCostPico: usdToPico(0.05) }, context: { system: 's', goal: 'g', countTokens: (text) => text.length }, pricing, clock: new VirtualClock() };
}

const steps = (n: number) => Array.from({ length: n }, () => toolTurn('echo', {}, { inputTokens: 10_000, outputTokens: 500 }));

async function refusal(run: Promise<unknown>): Promise<UserError> {
  const error = await run.then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(UserError);
  return error as UserError;
}

describe("the run's prices are its model's", () => {
  it("gpt-4o priced as gpt-4o-mini: a UserError naming pricing and both models, before the model is called", async () => {
    const model = new ScriptedModel(steps(10), 'gpt-4o');
    const error = await refusal(runAgentLoop(looping(model, MINI_PRICES)));
    expect(error.issues.map((i) => [i.file, i.field, i.code])).toEqual([['<runAgentLoop options>', 'pricing', 'model_mismatch']]);
    expect(error.issues[0]!.message).toMatch(/prices gpt-4o-mini, but the model called is gpt-4o/);
    expect(error.issues[0]!.hint).toContain("loadPriceTable().resolve('gpt-4o')");
    expect(model.requests).toHaveLength(0);
  });

  it("priced as its own, the same run's budget holds: stopped before the call that would pass $0.05", async () => {
    const run = await runAgentLoop(looping(new ScriptedModel(steps(10), 'gpt-4o'), prices.resolve('gpt-4o')));
    expect(run.stop.reason).toBe('budget');
    expect(run.steps).toBeLessThan(3);
  });

  it("a provider's prefix, the case, or prices named for the model on purpose are its own", async () => {
    for (const [name, pricing] of [
      ['openai/gpt-4o-mini', MINI_PRICES],
      ['GPT-4o-mini', MINI_PRICES],
      ['my-llama', { ...MINI_PRICES, requested: 'my-llama' }],
    ] as const) {
      const run = await runAgentLoop(looping(new ScriptedModel([answer('done')], name), pricing));
      expect(run.stop.reason).toBe('completed');
    }
  });
});

describe("a sub-agent's prices are its model's", () => {
  /** main (gpt-4o-mini) hands one task to a searcher on `searcherModel` started with `spec`. */
  async function delegate(searcherModel: string, spec: Partial<SubagentSpec>) {
    const searcher = new ScriptedModel([answer('found it')], searcherModel);
    const tool = defineSubagentTool<{ task: string }>({
      name: 'delegate',
      description: 'hands a task to a searcher',
      parameters: { type: 'object' },
      agent: ({ task }) => ({ agentId: 'searcher', model: searcher, context: { system: 'You search.', goal: task }, ...spec }),
    });
    const main = new ScriptedModel([toolTurn('delegate', { task: 'find it' }), answer('done')], 'gpt-4o-mini');
    const outcome = await runAgentLoop({ ...looping(main, MINI_PRICES), tools: [tool] }).then(
      (run) => ({ run, error: undefined }),
      (error: unknown) => ({ run: undefined, error }),
    );
    return { ...outcome, searcherCalls: searcher.requests.length };
  }

  it("on gpt-4o with no prices of its own: refused (it would take its parent's gpt-4o-mini prices), its model never called", async () => {
    const { error, searcherCalls } = await delegate('gpt-4o', {});
    expect(error).toBeInstanceOf(UserError);
    expect((error as UserError).issues.map((i) => [i.file, i.field, i.code])).toEqual([['<sub-agent searcher options>', 'pricing', 'model_mismatch']]);
    expect((error as UserError).issues[0]!.message).toMatch(/is left out, so it would take the prices of the run that started it \(gpt-4o-mini's\), but its calls go to gpt-4o/);
    expect(searcherCalls).toBe(0);
  });

  it('on gpt-4o with prices of another model: refused; with its own, or on its parent\'s model without any, it runs', async () => {
    expect((await delegate('gpt-4o', { pricing: prices.resolve('gpt-4.1') })).error).toBeInstanceOf(UserError);
    expect((await delegate('gpt-4o', { pricing: prices.resolve('gpt-4o') })).run?.stop.reason).toBe('completed');
    expect((await delegate('gpt-4o-mini', {})).run?.stop.reason).toBe('completed');
  });
});

describe('the summary model, by the same rule', () => {
  const strategy = (model: string) => ({ kind: 'summary' as const, summary: { triggerTokens: 1000, keepSteps: 1, summaryTokens: 100, model } });

  it('summary calls to gpt-4o with no summaryPricing (as before), or with gpt-4o-mini\'s: refused, naming summaryPricing', async () => {
    for (const summaryPricing of [undefined, MINI_PRICES]) {
      const options = { ...looping(new ScriptedModel([answer('done')], 'gpt-4o-mini'), MINI_PRICES), ...(summaryPricing ? { summaryPricing } : {}) };
      const error = await refusal(runAgentLoop({ ...options, context: { ...options.context, strategy: strategy('gpt-4o') } }));
      expect(error.issues.map((i) => [i.field, i.code])).toEqual([['summaryPricing', summaryPricing ? 'model_mismatch' : 'missing_field']]);
    }
  });
});
