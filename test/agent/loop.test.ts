/** runAgentLoop with a scripted model: the loop's order, billing, tools, retries, abort and validation. */
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/agent/clock.js';
import { memoryRecorder } from '../../src/agent/recorder.js';
import { runAgentLoop } from '../../src/agent/run.js';
import { defineTool } from '../../src/agent/tools.js';
import { ModelCallError, type AgentLoopOptions } from '../../src/agent/types.js';
import { NO_BRAKES, type BrakeConfig } from '../../src/brakes/config.js';
import { UserError } from '../../src/errors.js';
import { callCostPico } from '../../src/kernel/cost.js';
import { flattenPrices } from '../../src/kernel/prices.js';
import { replayTrace } from '../../src/replay/replay.js';
import { MINI, MINI_TABLE } from '../helpers.js';
import { answer, ScriptedModel, toolTurn } from './scripted.js';

const words = (text: string) => text.split(/\s+/).filter(Boolean).length;
const echo = defineTool<{ text: string }>({ name: 'echo', description: 'says it back', parameters: { type: 'object', properties: { text: { type: 'string' } } }, run: ({ text }) => text });
const broken = defineTool({ name: 'broken', description: 'always fails', parameters: { type: 'object' }, run: () => { throw new Error('disk full'); } });

function options(model: ScriptedModel, brakes: Partial<BrakeConfig> = {}, extra: Partial<AgentLoopOptions> = {}): AgentLoopOptions {
  return {
    model,
    tools: [echo, broken],
    brakes: { ...NO_BRAKES, ...brakes },
    unbounded: true,
    context: { system: 'You are terse.', goal: 'Say hello twice.', countTokens: words },
    pricing: MINI,
    clock: new VirtualClock(),
    retry: { maxRetries: 2, backoffMs: (n) => 1000 * n },
    ...extra,
  };
}
const cost = (input: number, output: number, cached = 0) => callCostPico(flattenPrices(MINI).rows, 0, input, cached, 0, 0, output, 0);

describe('runAgentLoop', () => {
  it('calls the model, runs its tool, sends the result back, and stops on the final answer with the bill', async () => {
    const model = new ScriptedModel([toolTurn('echo', { text: 'hello hello' }), answer('done', { inputTokens: 1200, outputTokens: 20 })]);
    const run = await runAgentLoop(options(model, { maxOutputTokens: 777 }));
    expect(run.stop).toEqual({ reason: 'completed', detail: 'final answer after 2 steps' });
    expect([run.steps, run.calls, run.toolCalls, run.inputTokens, run.outputTokens]).toEqual([2, 2, 1, 2200, 70]);
    expect(run.costPico).toBe(cost(1000, 50) + cost(1200, 20));
    expect(model.requests.map((r) => r.maxOutputTokens)).toEqual([777, 777]);
    expect(model.requests[1]!.messages.at(-1)).toEqual({ role: 'tool', toolCallId: expect.any(String), content: 'hello hello' });
    expect(model.requests[0]!.tools.map((t) => t.name)).toEqual(['echo', 'broken']);
    expect(run.finalText).toBe('done');
  });

  it('an unknown tool gets a refusal, a throwing tool an error observation; the same error twice stops the run', async () => {
    const model = new ScriptedModel([toolTurn('nope', {}), toolTurn('broken', {}), toolTurn('broken', { again: true })]);
    const run = await runAgentLoop(options(model, { maxSameError: 2 }));
    expect(model.requests[1]!.messages.at(-1)).toMatchObject({ role: 'tool', content: 'refused: unknown tool "nope"; the tools are: echo, broken' });
    expect(model.requests[2]!.messages.at(-1)).toMatchObject({ role: 'tool', content: 'error: disk full' });
    expect(run.stop).toEqual({ reason: 'error_limit', detail: 'tool broken failed the same way 2 times in a row, limit 2' });
  });

  it('a 429 is recorded and billed at zero, waited on and retried behind the brakes (each attempt a step, as replay counts it); a 400 is not retried', async () => {
    const rateLimited = new ModelCallError('rate limited', { status: 429, retryable: true });
    const recorder = memoryRecorder();
    const model = new ScriptedModel([rateLimited, rateLimited, answer('hi')]);
    const run = await runAgentLoop(options(model, {}, { recorder }));
    expect([run.stop.reason, run.calls, run.failedCalls, run.steps, run.costPico, run.elapsedMs]).toEqual(['completed', 3, 2, 3, cost(1200, 20), 3000]);
    expect(recorder.trace().calls.map((c) => c.failed?.status ?? 'ok')).toEqual([429, 429, 'ok']);

    const timeout = await runAgentLoop(options(new ScriptedModel([rateLimited, rateLimited]), { timeoutMs: 500 }));
    expect(timeout.stop.reason).toBe('timeout');
    const bad = await runAgentLoop(options(new ScriptedModel([new ModelCallError('bad request', { status: 400, retryable: false })])));
    expect(bad.stop).toEqual({ reason: 'trace_end', detail: 'model call failed: 400 bad request; not retried' });
    const spent = await runAgentLoop(options(new ScriptedModel([rateLimited, rateLimited, rateLimited])));
    expect(spent.stop.detail).toBe('model call failed: 429 rate limited; gave up after 2 retries');
  });

  it('a failed call that returned usage is billed for it', async () => {
    const model = new ScriptedModel([new ModelCallError('cut off', { status: 500, retryable: true, usage: { inputTokens: 900, outputTokens: 30 } }), answer('ok')]);
    const run = await runAgentLoop(options(model));
    expect(run.costPico).toBe(cost(900, 30) + cost(1200, 20));
  });

  it('stops with its own reason when the AbortSignal fires: before a call (the model is not called) or during a tool', async () => {
    const before = new AbortController();
    before.abort();
    const idle = new ScriptedModel([]);
    expect((await runAgentLoop(options(idle, {}, { signal: before.signal }))).stop).toEqual({ reason: 'aborted', detail: 'stopped by its AbortSignal after 0 steps' });
    expect(idle.requests).toHaveLength(0);

    const during = new AbortController();
    const stopper = defineTool({ name: 'stopper', description: 'aborts', parameters: { type: 'object' }, run: () => { during.abort(); return 'ok'; } });
    const model = new ScriptedModel([toolTurn('stopper', {})]);
    const run = await runAgentLoop(options(model, {}, { tools: [stopper], signal: during.signal }));
    expect([run.stop.reason, run.steps, run.toolCalls]).toEqual(['aborted', 1, 1]);
  });

  it('decides the context window before the call on the prompt estimate (view + last overhead), never on the answer', async () => {
    // View before call 2: system 3 + goal 3 + output 50 + result 200 = 256 words; overhead of call 1: 1000 − 6.
    const long = defineTool({ name: 'echo', description: '', parameters: {}, run: () => 'w '.repeat(200) });
    const model = new ScriptedModel([toolTurn('echo', {})]);
    const run = await runAgentLoop(options(model, { contextWindow: 1249 }, { tools: [long] }));
    expect(run.stop).toEqual({ reason: 'context_overflow', detail: 'next prompt holds 1250 tokens, context window 1249' });
    expect(model.requests).toHaveLength(1);
  });

  it('never calls the model when the options are invalid, and names every problem', async () => {
    const model = new ScriptedModel([]);
    const error = await runAgentLoop(options(model, { maxSteps: 0, maxCostPico: -1 }, { tools: [echo, echo, { ...echo, name: 'bad name' }] })).catch((e) => e);
    expect(error).toBeInstanceOf(UserError);
    expect((error as UserError).issues.map((i) => i.field)).toEqual(['tools[1].name', 'tools[2].name', 'brakes.maxSteps', 'brakes.maxCostPico']);
    expect(model.requests).toHaveLength(0);
  });

  it('the scripted double fails loudly on a call it did not expect', async () => {
    await expect(runAgentLoop(options(new ScriptedModel([toolTurn('echo', { text: 'x' })])))).rejects.toThrow('unexpected model call #2 (the script has 1)');
  });

  it("a run's recording replays to the figures it reported", async () => {
    const recorder = memoryRecorder();
    const rateLimited = new ModelCallError('rate limited', { status: 429, retryable: true });
    const model = new ScriptedModel([toolTurn('echo', { text: 'a b c' }), rateLimited, toolTurn('broken', {}, { inputTokens: 1500, outputTokens: 40 }), toolTurn('echo', { text: 'a b c' }), answer('ok')]);
    const brakes = { maxRepeat: 1, repeatMode: 'total' as const };
    const run = await runAgentLoop(options(model, brakes, { recorder }));
    expect(run.stop.reason).toBe('repeat');
    const replayed = replayTrace(recorder.trace(), { brakes: { ...NO_BRAKES, ...brakes }, strategy: { kind: 'full' }, prices: MINI_TABLE });
    expect([replayed.stopReason, replayed.stopDetail, replayed.steps, replayed.modelCalls, replayed.inputTokens, replayed.outputTokens, replayed.costPico, replayed.elapsedMs]).toEqual([run.stop.reason, run.stop.detail, run.steps, run.calls, run.inputTokens, run.outputTokens, run.costPico, run.elapsedMs]);
  });
});
