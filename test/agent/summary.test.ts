/** The summary strategy in the real loop: the summary call goes through the model, is billed as the model reported it, and is recorded. */
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/agent/clock.js';
import { memoryRecorder } from '../../src/agent/recorder.js';
import { runAgentLoop } from '../../src/agent/run.js';
import { defineTool } from '../../src/agent/tools.js';
import type { ModelRequest, ModelTurn } from '../../src/agent/types.js';
import { NO_BRAKES } from '../../src/brakes/config.js';
import type { ContextStrategy } from '../../src/context/strategy.js';
import { callCostPico } from '../../src/kernel/cost.js';
import { flattenPrices } from '../../src/kernel/prices.js';
import { replayTrace } from '../../src/replay/replay.js';
import { MINI, MINI_TABLE } from '../helpers.js';
import { ScriptedModel } from './scripted.js';

const words = (text: string) => text.split(/\s+/).filter(Boolean).length;
const echo = defineTool<{ text: string }>({ name: 'echo', description: 'says it back', parameters: { type: 'object' }, run: ({ text }) => text });
const step = (n: number): ModelTurn => ({ text: null, toolCalls: [{ id: `c${n}`, name: 'echo', arguments: JSON.stringify({ text: `r${n} a b` }) }], usage: { outputTokens: 50 } });
const cost = (input: number, output: number, cached = 0) => callCostPico(flattenPrices(MINI).rows, 0, input, cached, 0, 0, output, 0);

describe('the real loop under a summary strategy', () => {
  it('makes the summary call through the model when the prompt passes the trigger, sends system + goal + summary + the last K steps after it, and its recording replays to the run’s figures', async () => {
    // system + goal = 2 tokens; each step = 50 out + 3 of tool result: the prompt is 2, 55, 108, 161 (> 150: summary).
    const strategy: ContextStrategy = { kind: 'summary', summary: { triggerTokens: 150, keepSteps: 1, summaryTokens: 30 } };
    const summaryCall = (request: ModelRequest): ModelTurn => {
      // The run's one tool sent, with a tool choice of none (summaryRequestTools.test.ts).
      expect([request.purpose, request.maxOutputTokens, request.tools.length, request.toolChoice, request.messages.length]).toEqual(['summary', 30, 1, 'none', 2 + 3 * 2 + 1]);
      return { text: 'echoed r1 and r2', toolCalls: [], usage: { inputTokens: 170, outputTokens: 12 } };
    };
    const afterSummary = (request: ModelRequest): ModelTurn => {
      expect(request.messages.map((m) => m.content)).toEqual(['s', 'g', 'Summary of the earlier steps: echoed r1 and r2', null, 'r3 a b']);
      return { text: 'done', toolCalls: [], usage: { outputTokens: 5 } };
    };
    const model = new ScriptedModel([step(1), step(2), step(3), summaryCall, afterSummary]);
    const recorder = memoryRecorder();
    const brakes = { ...NO_BRAKES, maxSteps: 10 };
    const run = await runAgentLoop({ model, tools: [echo], brakes, context: { system: 's', goal: 'g', strategy, countTokens: words }, pricing: MINI, clock: new VirtualClock(), recorder });
    expect(model.requests).toHaveLength(5);
    // Billed as the model reported it (170 in, none cached, 12 out), not by the estimate replay bills (the
    // prompt it replaces, 161, of which 108 cached, and S = 30 out); not a step. The context holds the
    // summary at the 12 tokens it reported: the next prompt is 2 + 12 + 53 (summaryUsage.test.ts holds the rule in full).
    const summaryCost = cost(170, 12);
    // A summary call is a model call: among the run's calls, as its compaction record is in the recording's replay.
    expect([run.stop.reason, run.steps, run.calls, run.summaryCalls, run.summaryCostPico]).toEqual(['completed', 4, 5, 1, summaryCost]);
    expect(run.costPico).toBe(cost(2, 50) + cost(55, 50) + cost(108, 50) + summaryCost + cost(67, 5));
    const recording = recorder.trace();
    expect(recording.calls.filter((call) => call.compaction)).toHaveLength(run.summaryCalls!);
    const replayed = replayTrace(recording, { brakes, strategy: { kind: 'full' }, prices: MINI_TABLE });
    expect([replayed.stopReason, replayed.steps, replayed.modelCalls, replayed.inputTokens, replayed.outputTokens, replayed.costPico]).toEqual([
      run.stop.reason,
      run.steps,
      run.calls,
      run.inputTokens,
      run.outputTokens,
      run.costPico,
    ]);
  });

  it('sends the summary call to summary:…,model=X, priced as that model, and refuses to run without its prices', async () => {
    const strategy: ContextStrategy = { kind: 'summary', summary: { triggerTokens: 150, keepSteps: 1, summaryTokens: 30, model: 'cheap' } };
    const cheap = { ...MINI, requested: 'cheap', model: 'cheap', base: { ...MINI.base, input: MINI.base.input / 2, output: MINI.base.output / 2 } };
    const run = (summaryPricing?: typeof MINI) => {
      const model = new ScriptedModel([step(1), step(2), step(3), (request) => ({ text: `from ${request.model}`, toolCalls: [], usage: { outputTokens: 30 } }), { text: 'done', toolCalls: [], usage: { outputTokens: 5 } }]);
      return runAgentLoop({ model, tools: [echo], brakes: NO_BRAKES, unbounded: true, context: { system: 's', goal: 'g', strategy, countTokens: words }, pricing: MINI, ...(summaryPricing ? { summaryPricing } : {}), clock: new VirtualClock() });
    };
    await expect(run()).rejects.toThrow(/summaryPricing.*cheap/s);
    const result = await run(cheap);
    expect(result.messages.some((m) => m.content === 'Summary of the earlier steps: from cheap')).toBe(true);
    expect(result.summaryCostPico).toBe(callCostPico(flattenPrices(cheap).rows, 0, 161, 108, 0, 0, 30, 0));
  });

  it('masks tool results older than the last M steps in the prompt it sends', async () => {
    const model = new ScriptedModel([step(1), step(2), (request) => {
      expect(request.messages.filter((m) => m.role === 'tool').map((m) => m.content)).toEqual(['Old tool output omitted.', 'r2 a b']);
      return { text: 'done', toolCalls: [], usage: { outputTokens: 5 } };
    }]);
    const run = await runAgentLoop({ model, tools: [echo], brakes: NO_BRAKES, unbounded: true, context: { system: 's', goal: 'g', strategy: { kind: 'mask', maskSteps: 1, placeholderTokens: 4 }, countTokens: words }, pricing: MINI, clock: new VirtualClock() });
    expect(run.stop.reason).toBe('completed');
  });
});
