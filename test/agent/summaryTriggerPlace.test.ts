/**
 * A summary trigger the run's context window makes unusable (above it, or a percentage of a window the prices do
 * not give), given to runAgentLoop, is refused before the model is called and named where it was given: the API
 * option (`<runAgentLoop options>` field `context.strategy`; a sub-agent's `<sub-agent X options>`), its hint naming
 * `brakes.contextWindow` there. Before: "<command line> field '--context'", a flag the caller never gave.
 */
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/agent/clock.js';
import { runAgentLoop } from '../../src/agent/run.js';
import { defineSubagentTool } from '../../src/agent/subagent.js';
import type { SubagentSpec } from '../../src/agent/types.js';
import { NO_BRAKES } from '../../src/brakes/config.js';
import type { ContextStrategy } from '../../src/context/strategy.js';
import { UserError } from '../../src/errors.js';
import { handPriced, MINI } from '../helpers.js';
import { answer, ScriptedModel, toolTurn } from './scripted.js';

const summary = (trigger: Partial<{ triggerTokens: number; triggerPercent: number }>): ContextStrategy => ({ kind: 'summary', summary: { keepSteps: 1, summaryTokens: 30, ...trigger } as never });

async function refusal(run: () => Promise<unknown>) {
  const error = await run().then(() => undefined, (thrown: unknown) => thrown);
  expect(error).toBeInstanceOf(UserError);
  return (error as UserError).issues;
}

const live = (strategy: ContextStrategy, extra: Record<string, unknown> = {}) => {
  const model = new ScriptedModel([answer('done')], MINI.model);
  return { model, run: () => runAgentLoop({ model, tools: [], brakes: NO_BRAKES, unbounded: true, context: { system: 's', goal: 'g', strategy, countTokens: () => 1 }, pricing: MINI, clock: new VirtualClock(), ...extra }) };
};

describe("a summary trigger runAgentLoop's context window makes unusable", () => {
  it('above the model’s window: named at <runAgentLoop options> context.strategy, before any call', async () => {
    const { model, run } = live(summary({ triggerTokens: 200_000 }));
    const issues = await refusal(run);
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatchObject({ file: '<runAgentLoop options>', field: 'context.strategy', code: 'bad_value', message: 'trigger=200000 is above the context window (128000 tokens): no summary could happen' });
    expect(model.requests).toHaveLength(0);
  });

  it('above the context-window brake: named so too', async () => {
    const { run } = live(summary({ triggerTokens: 5000 }), { brakes: { ...NO_BRAKES, contextWindow: 4000 } });
    expect((await refusal(run))[0]).toMatchObject({ file: '<runAgentLoop options>', field: 'context.strategy', message: 'trigger=5000 is above the context window (4000 tokens): no summary could happen' });
  });

  it('a percentage on a model without a window: the hint names brakes.contextWindow in runAgentLoop’s options, not --context-window', async () => {
    const windowless = handPriced('mini', { input: 0.15, output: 0.6 });
    const { run } = live(summary({ triggerPercent: 80 }), { pricing: windowless });
    const [issue] = await refusal(run);
    expect(issue).toMatchObject({ file: '<runAgentLoop options>', field: 'context.strategy', hint: 'give trigger in tokens, or set brakes.contextWindow in <runAgentLoop options>' });
  });

  it('a sub-agent’s: named at <sub-agent researcher options> context.strategy, its model never called', async () => {
    const researcher = new ScriptedModel([answer('found it')], MINI.model);
    const tool = defineSubagentTool<{ task: string }>({
      name: 'delegate',
      description: 'hands a task to a researcher',
      parameters: { type: 'object' },
      agent: ({ task }): SubagentSpec => ({ agentId: 'researcher', model: researcher, tools: [], context: { system: 'You research.', goal: task, strategy: summary({ triggerTokens: 200_000 }) } }),
    });
    const main = new ScriptedModel([toolTurn('delegate', { task: 'find it' }), answer('done')], MINI.model);
    const issues = await refusal(() => runAgentLoop({ model: main, tools: [tool], brakes: NO_BRAKES, unbounded: true, context: { system: 's', goal: 'g', countTokens: () => 1 }, pricing: MINI, clock: new VirtualClock() }));
    expect(issues[0]).toMatchObject({ file: '<sub-agent researcher options>', field: 'context.strategy', message: 'trigger=200000 is above the context window (128000 tokens): no summary could happen' });
    expect(researcher.requests).toHaveLength(0);
  });
});
