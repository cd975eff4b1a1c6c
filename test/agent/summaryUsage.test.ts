/**
 * The real loop bills a summary call (context `summary`/`hybrid`) as the model reported its usage, by the
 * meter every call goes through; by the estimate replay bills (the prompt it replaces in, S out) only when
 * the response reports no usage. Money by hand from the price table (`loopcost prices gpt-4o-mini`):
 * per token, input $0.15/M = 150,000 pico, cached input 75,000, cache writes as input, output $0.60/M =
 * 600,000, reasoning as output; no minimum cacheable prefix (the table's prices stating NO_CACHE_RULE, which
 * runAgentLoop keeps: it fills in OpenAI's 1,024 tokens only where the prices state no rule, cacheRuleEveryEngine.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/agent/clock.js';
import { memoryRecorder } from '../../src/agent/recorder.js';
import { runAgentLoop } from '../../src/agent/run.js';
import { defineTool } from '../../src/agent/tools.js';
import { ModelCallError, type ModelTurn, type ModelUsage } from '../../src/agent/types.js';
import { NO_BRAKES } from '../../src/brakes/config.js';
import type { ContextStrategy } from '../../src/context/strategy.js';
import { loadPriceTable } from '../../src/pricing/index.js';
import { NO_CACHE_RULE } from '../../src/pricing/cacheRules.js';
import { replayTrace } from '../../src/replay/replay.js';
import { call, toolCall, trace } from '../helpers.js';
import { ScriptedModel, type Step } from './scripted.js';

const prices = loadPriceTable();
const pricing = { ...prices.resolve('gpt-4o-mini'), cacheRule: NO_CACHE_RULE };
const words = (text: string) => text.split(/\s+/).filter(Boolean).length;
const echo = defineTool<{ text: string }>({ name: 'echo', description: 'says it back', parameters: { type: 'object' }, run: ({ text }) => text });
/** A step: 50 tokens out, and an echo whose result is 3 tokens (the prompt grows 53 a step). */
const step = (n: number): ModelTurn => ({ text: null, toolCalls: [{ id: `c${n}`, name: 'echo', arguments: JSON.stringify({ text: `r${n} a b` }) }], usage: { outputTokens: 50 } });
const done: ModelTurn = { text: 'done', toolCalls: [], usage: { outputTokens: 5 } };
/** A summary call's answer with `usage`, failing the test on any other request. */
const summary = (usage: ModelUsage): Step => (request) => {
  expect([request.purpose, request.maxOutputTokens]).toEqual(['summary', 30]);
  return { text: 'echoed', toolCalls: [], usage };
};
/** system + goal = 2 tokens: the prompts are 2, 55, 108, then 161 > 150 — a summary (the estimate: 161 in, the 108 the last call sent cached, 30 out). */
const strategy: ContextStrategy = { kind: 'summary', summary: { triggerTokens: 150, keepSteps: 1, summaryTokens: 30 } };
const run = (script: Step[], recorder = memoryRecorder()) =>
  runAgentLoop({ model: new ScriptedModel(script, 'gpt-4o-mini'), tools: [echo], brakes: NO_BRAKES, unbounded: true, context: { system: 's', goal: 'g', strategy, countTokens: words }, pricing, clock: new VirtualClock(), recorder });

/** An ordinary call with no usage reported: billed at the view, `input` in, `output` out. */
const ordinary = (input: number, output: number) => input * 150_000 + output * 600_000;
const STEPS_1_TO_3 = ordinary(2, 50) + ordinary(55, 50) + ordinary(108, 50); // 30,300,000 + 38,250,000 + 46,200,000
/** The estimate of the first summary: 53 uncached + 108 cached in, 30 out. */
const ESTIMATE = 53 * 150_000 + 108 * 75_000 + 30 * 600_000;
/** Reported: 400 in, of which 100 cached and 50 written; 40 out, of which 5 reasoning. */
const REPORTED: ModelUsage = { inputTokens: 400, cachedInputTokens: 100, cacheWriteTokens: 50, outputTokens: 40, reasoningTokens: 5 };
const REPORTED_PICO = 250 * 150_000 + 100 * 75_000 + 50 * 150_000 + 35 * 600_000 + 5 * 600_000;

describe('the real loop bills a summary call', () => {
  it('as the model reported its usage, not by its estimate: summaryCostPico and the total are the reported usage priced', async () => {
    expect([ESTIMATE, REPORTED_PICO]).toEqual([34_050_000, 76_500_000]);
    const recorder = memoryRecorder();
    const result = await run([step(1), step(2), step(3), summary(REPORTED), done], recorder);
    // 4 steps and the summary call: a model call too (summaryCallWords.test.ts).
    expect([result.stop.reason, result.steps, result.calls, result.summaryCalls]).toEqual(['completed', 4, 5, 1]);
    expect(result.summaryCostPico).toBe(REPORTED_PICO);
    // After it the prompt is system + goal + the summary at the 40 tokens its model reported less its 5 of
    // reasoning, which the loop's messages do not carry back (not S = 30) + the last step: 2 + 35 + 53 — what a
    // live loop knows of the summary it holds (kernel/stepTokens.ts outputEnteringContext).
    expect(result.costPico).toBe(STEPS_1_TO_3 + REPORTED_PICO + ordinary(90, 5));
    expect(result.costPico).toBe(207_750_000);
    expect([result.inputTokens, result.cachedInputTokens, result.cacheWriteTokens, result.outputTokens, result.reasoningTokens]).toEqual([2 + 55 + 108 + 400 + 90, 100, 50, 150 + 40 + 5, 5]);
    // Recorded as billed: the recording replays (full history) to the run's money.
    const compaction = recorder.trace().calls.find((c) => c.compaction)!;
    expect(compaction).toMatchObject({ inputTokens: 400, cachedInputTokens: 100, cacheWriteTokens: 50, outputTokens: 40, reasoningTokens: 5 });
    expect(replayTrace(recorder.trace(), { brakes: NO_BRAKES, strategy: { kind: 'full' }, prices }).costPico).toBe(result.costPico);
  });

  it('by its estimate, as replay bills it, when its response reports no usage — beside one that does, in the same run', async () => {
    // Summary A (no usage: what the OpenAI adapter reads from a response without a usage block: held at S),
    // then 85, 138, 191 > 150: summary B (reported: held at its 40 tokens less its 5 of reasoning), then 90.
    const result = await run([step(1), step(2), step(3), summary({ outputTokens: 0 }), step(4), step(5), summary(REPORTED), done]);
    expect([result.stop.reason, result.summaryCalls]).toEqual(['completed', 2]);
    expect(result.summaryCostPico).toBe(ESTIMATE + REPORTED_PICO);
    expect(result.costPico).toBe(STEPS_1_TO_3 + ESTIMATE + ordinary(85, 50) + ordinary(138, 50) + REPORTED_PICO + ordinary(90, 5));
    // Replay of the same run, at the same prices (the table's, stating no cache rule, as the loop's),
    // bills both summary calls by the estimate: A at what the loop billed it.
    const steps = [1, 2, 3, 4, 5].map((n) => call(50, [toolCall('echo', { text: `r${n} a b` }, 3)]));
    const replayed = replayTrace(trace([...steps, call(5)], { system: 1, goal: 1, model: 'gpt-4o-mini', outcome: 'completed', origin: 'recorded' }), { brakes: NO_BRAKES, strategy: { ...strategy, cache: 'recorded' }, prices, pricing, keepSteps: true });
    const summaries = replayed.rows.filter((row) => row.summary).map((row) => row.costPico);
    expect(summaries).toHaveLength(2);
    expect(summaries[0]).toBe(ESTIMATE);
    // After B, replay holds it at S (30), the real loop at what it reported less its reasoning (35): its last prompt 5 tokens more.
    expect(replayed.costPico - summaries[1]!).toBe(result.costPico - REPORTED_PICO - ordinary(5, 0));
  });

  it('that failed: as a failed call is, at what its error reported, else nothing; the run ends as a model that gave up', async () => {
    const failed = (usage?: ModelUsage) => run([step(1), step(2), step(3), new ModelCallError('overloaded', { status: 529, retryable: true, ...(usage ? { usage } : {}) })]);
    const bare = await failed();
    expect([bare.stop.reason, bare.stop.detail, bare.summaryCalls, bare.summaryCostPico ?? 0, bare.costPico]).toEqual(['trace_end', 'summary call failed: overloaded; not retried', 1, 0, STEPS_1_TO_3]);
    const billed = await failed({ inputTokens: 300, outputTokens: 0 });
    expect([billed.summaryCalls, billed.summaryCostPico, billed.costPico]).toEqual([1, 300 * 150_000, STEPS_1_TO_3 + 300 * 150_000]);
  });
});
