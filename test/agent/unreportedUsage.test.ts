/**
 * A provider that reports no usage, or zeros, or a prompt below what the loop knows it sent, no longer blinds
 * the budget, token and context brakes (agent/unreportedUsage.ts): an output not reported is counted from the
 * response's text and tool calls with the loop's token counter, a prompt of 0 (openAIChatModel) or below half
 * the system prompt and goal is billed at the loop's estimate, and the recording holds the figures billed, so its replay gives
 * the run's figures. Before, every output was billed 0: the tool calls' arguments sent back in every later
 * prompt were never counted, and a run under a 10,000-token context brake ran its 40 steps on ~72k prompts.
 */
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/agent/clock.js';
import { openAIChatModel } from '../../src/agent/openaiChat.js';
import { memoryRecorder } from '../../src/agent/recorder.js';
import { runAgentLoop } from '../../src/agent/run.js';
import type { AgentLoopOptions, Model, ModelTurn } from '../../src/agent/types.js';
import { usageAsCounted } from '../../src/agent/unreportedUsage.js';
import { NO_BRAKES, type BrakeConfig } from '../../src/brakes/config.js';
import { recordedBrakes } from '../../src/replay/whatif.js';
import { MINI } from '../helpers.js';
import { figures, replayFigures } from './traceDriven.js';

/** 4,000 characters of arguments: 1,000 tokens at the test's counter (a token per 4 characters). */
const ARGS = JSON.stringify({ patch: 'x'.repeat(3988) });
const countTokens = (text: string) => Math.ceil(text.length / 4);

/** A client answering every request with a call of `write` carrying ARGS, and `usage` (left out when undefined). */
function clientAnswering(usage: object | undefined, prompts: number[] = []): OpenAI {
  const fetchDouble: typeof fetch = async (_url, init) => {
    const body = JSON.parse(String(init?.body)) as { messages: { content: string | null; tool_calls?: { function: { arguments: string } }[] }[] };
    prompts.push(body.messages.reduce((sum, m) => sum + countTokens(m.content ?? '') + (m.tool_calls ?? []).reduce((s, c) => s + countTokens(c.function.arguments), 0), 0));
    const message = { role: 'assistant', content: null, tool_calls: [{ id: `c${prompts.length}`, type: 'function', function: { name: 'write', arguments: ARGS } }] };
    const completion = { id: 'x', object: 'chat.completion', created: 0, model: 'gpt-4o-mini', choices: [{ index: 0, message, finish_reason: 'tool_calls' }], ...(usage ? { usage } : {}) };
    return new Response(JSON.stringify(completion), { status: 200, headers: { 'content-type': 'application/json' } });
  };
  return new OpenAI({ apiKey: 'k', baseURL: 'http://127.0.0.1:9/v1', maxRetries: 0, fetch: fetchDouble });
}

const write = { name: 'write', description: 'writes a patch', parameters: { type: 'object' }, run: () => 'written' };

async function run(usage: object | undefined, brakes: Partial<BrakeConfig>, system = 'You patch files.') {
  const prompts: number[] = [];
  const recorder = memoryRecorder();
  const options: AgentLoopOptions = {
    model: openAIChatModel({ model: 'gpt-4o-mini', client: clientAnswering(usage, prompts) }),
    tools: [write],
    brakes: { ...NO_BRAKES, maxSteps: 40, ...brakes },
    context: { system, goal: 'Patch it.', countTokens },
    pricing: { ...MINI, requested: 'gpt-4o-mini' },
    clock: new VirtualClock(),
    recorder,
  };
  const result = await runAgentLoop(options);
  return { result, prompts, recording: recorder.trace() };
}

const replayed = (recording: ReturnType<typeof memoryRecorder>['trace'] extends () => infer T ? T : never) =>
  replayFigures(recording, { brakes: recordedBrakes(recording), strategy: { kind: 'full' as const, cache: 'recorded' as const }, pricing: { ...MINI, requested: 'gpt-4o-mini' } });

describe('a provider that reports no usage', () => {
  it('the context brake holds: each output counted from its tool call (1,000+ tokens), stopped before a prompt past 10,000 tokens', async () => {
    const { result, prompts, recording } = await run(undefined, { contextWindow: 10_000 });
    expect(result.stop.reason).toBe('context_overflow');
    expect(result.steps).toBeLessThanOrEqual(10);
    expect(Math.max(...prompts)).toBeLessThanOrEqual(10_000);
    expect(result.outputTokens).toBe(result.calls * (countTokens('write') + countTokens(ARGS)));
    expect(recording.calls.every((call) => call.outputTokens === countTokens('write') + countTokens(ARGS) && call.inputTokens === undefined)).toBe(true);
    expect(result.notes).toEqual([expect.stringMatching(/reported no output tokens .* counted from the response's text and tool calls/)]);
    expect(replayed(recording)).toEqual(figures(result));
  });

  it('the budget holds: $0.0005 stops it once the outputs counted reach it (before: 40 steps billed for prompts alone)', async () => {
    const { result, recording } = await run(undefined, { maxCostPico: 500_000_000 });
    expect(result.stop.reason).toBe('budget');
    expect(result.steps).toBeLessThan(20);
    expect(replayed(recording)).toEqual(figures(result));
  });
});

describe('a provider that reports zeros, or a prompt below what the loop knows it sent', () => {
  it('prompt_tokens 0 and completion_tokens 0: billed at the estimate and the count, as with no usage at all', async () => {
    const zeros = await run({ prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 }, { contextWindow: 10_000 });
    const none = await run(undefined, { contextWindow: 10_000 });
    expect(figures(zeros.result)).toEqual(figures(none.result));
    expect(zeros.recording.calls.map((call) => [call.inputTokens, call.outputTokens])).toEqual(none.recording.calls.map((call) => [call.inputTokens, call.outputTokens]));
    expect(replayed(zeros.recording)).toEqual(figures(zeros.result));
  });

  it('a prompt below half the system prompt and goal is not reported; one above it is billed as reported', async () => {
    const system = 's'.repeat(4000); // 1,000 tokens: every prompt holds at least these
    const below = await run({ prompt_tokens: 400, completion_tokens: 1001 }, { maxSteps: 2 }, system);
    expect(below.recording.calls.map((call) => call.inputTokens)).toEqual([undefined, undefined]);
    expect(below.result.inputTokens).toBeGreaterThan(2 * 1000);
    expect(below.result.notes).toEqual([expect.stringMatching(/reported a prompt of 0 tokens, or fewer than the system prompt and goal hold/)]);
    const above = await run({ prompt_tokens: 600, completion_tokens: 1001 }, { maxSteps: 2 }, system);
    expect(above.recording.calls.map((call) => call.inputTokens)).toEqual([600, 600]);
    expect(above.result.notes).toBeUndefined();
  });
});

describe('usageAsCounted (a Model of your own may say so too)', () => {
  const turn = (usage: ModelTurn['usage']): ModelTurn => ({ text: 'four', toolCalls: [{ id: 'a', name: 'ab', arguments: '{"k":1}' }], usage });
  const counting = () => ({ countTokens: (t: string) => t.length, knownPromptTokens: 100, notes: [] as string[] });

  it('counts text, names and arguments; drops a prompt (and its cache parts) below the floor; leaves a reported turn as it is', () => {
    expect(usageAsCounted(turn({ inputTokens: 500, cachedInputTokens: 100, outputTokens: 0, outputNotReported: true }), counting()).usage).toEqual({ inputTokens: 500, cachedInputTokens: 100, outputTokens: 4 + 2 + 7 });
    expect(usageAsCounted(turn({ inputTokens: 49, cachedInputTokens: 40, outputTokens: 3 }), counting()).usage).toEqual({ outputTokens: 3 });
    const reported = turn({ inputTokens: 50, outputTokens: 3 });
    expect(usageAsCounted(reported, counting())).toBe(reported);
  });

  it('through runAgentLoop: a Model that marks its output not reported is billed the count', async () => {
    const model: Model = { name: 'mini', call: async () => ({ text: 'done and done', toolCalls: [], usage: { inputTokens: 100, outputTokens: 0, outputNotReported: true } }) };
    const result = await runAgentLoop({ model, tools: [], brakes: { maxSteps: 2 }, context: { system: 's', goal: 'g', countTokens: (t) => t.length }, pricing: MINI, clock: new VirtualClock() });
    expect([result.stop.reason, result.outputTokens]).toEqual(['completed', 'done and done'.length]);
  });
});
