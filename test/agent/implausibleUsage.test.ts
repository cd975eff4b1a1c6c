/**
 * A usage no call can have (a whole number, so it passes isTokenCount, but past any model's window) is the
 * server's error: the adapter fails the call naming the field and value, the run ends there without
 * retrying, billed nothing, instead of stopping as "one run costs more than $9,007 … set --max-steps"
 * (costOutOfRange), which blames the run's settings. Many plausible calls adding past $9,007 still stop
 * with that message. Responses scripted over a fetch double (the SDK parses them as from a server).
 */
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/agent/clock.js';
import { openAIChatModel } from '../../src/agent/openaiChat.js';
import { MAX_CALL_TOKENS } from '../../src/agent/openaiUsage.js';
import { memoryRecorder } from '../../src/agent/recorder.js';
import { runAgentLoop } from '../../src/agent/run.js';
import { defineTool } from '../../src/agent/tools.js';
import { NO_BRAKES } from '../../src/brakes/config.js';
import { UserError } from '../../src/errors.js';
import { loadPriceTable } from '../../src/pricing/index.js';

const prices = loadPriceTable();
const echo = defineTool<{ text: string }>({ name: 'echo', description: 'says it back', parameters: { type: 'object' }, run: ({ text }) => text });
const toolCall = (n: number) => ({ role: 'assistant', content: null, tool_calls: [{ id: `c${n}`, type: 'function', function: { name: 'echo', arguments: '{"text":"x"}' } }] });

/** A client whose every response calls echo with `usage` as its raw JSON (or `status` with `body`). */
function client(answer: (n: number) => { status: number; body: string }): OpenAI {
  let n = 0;
  const fetchDouble: typeof fetch = async () => {
    const { status, body } = answer(++n);
    return new Response(body, { status, headers: { 'content-type': 'application/json' } });
  };
  return new OpenAI({ apiKey: 'k', baseURL: 'http://127.0.0.1:9/v1', maxRetries: 0, fetch: fetchDouble });
}
const completion = (n: number, usage: string) => ({
  status: 200,
  body: `{"id":"x","object":"chat.completion","created":0,"model":"m","choices":[{"index":0,"message":${JSON.stringify(toolCall(n))},"finish_reason":"tool_calls"}],"usage":${usage}}`,
});

async function run(model: string, answer: (n: number) => { status: number; body: string }, contextWindowTokens?: number) {
  const recorder = memoryRecorder();
  const chat = openAIChatModel({ model, client: client(answer), ...(contextWindowTokens === undefined ? {} : { contextWindowTokens }) });
  const result = await runAgentLoop({ model: chat, tools: [echo], brakes: { ...NO_BRAKES, maxSteps: 3 }, context: { system: 's', goal: 'g', countTokens: () => 1 }, pricing: prices.resolve(model), clock: new VirtualClock(), recorder });
  return { result, calls: recorder.trace().calls };
}

describe("a usage no call can have is the server's error, not the run's", () => {
  it.each([
    ['prompt_tokens', '{"prompt_tokens":1000000000000000,"completion_tokens":40}', 'usage.prompt_tokens = 1000000000000000'],
    ['completion_tokens', '{"prompt_tokens":400,"completion_tokens":1000000000000000}', 'usage.completion_tokens = 1000000000000000'],
  ])('a response reporting 10^15 %s ends the run there, named, not retried, billed nothing', async (_, usage, named) => {
    // Call 1 is plausible; call 2 reports the impossible figure.
    const { result, calls } = await run('gpt-4o-mini', (n) => completion(n, n === 1 ? '{"prompt_tokens":400,"completion_tokens":40}' : usage));
    expect(result.stop.reason).toBe('trace_end');
    expect(result.stop.detail).toBe(
      `model call failed: the server reported ${named}, more than any model's context window (10,000,000 tokens): no call has that usage, so the figure is the server's error, not the run's; the call is recorded as failed, billed nothing; not retried`,
    );
    expect(result.calls).toBe(2);
    expect(result.costPico).toBe(400 * 150_000 + 40 * 600_000);
    expect(calls[1]).toMatchObject({ outputTokens: 0, failed: { message: expect.stringContaining(named) } });
  });

  it('the bound is the largest window of any model, or the one the adapter is told', async () => {
    const big = `{"prompt_tokens":${MAX_CALL_TOKENS},"completion_tokens":40}`;
    // 10,000,000 prompt tokens: a call some model can have, billed as reported (the step cap ends the run).
    const plausible = await run('gpt-4o-mini', (n) => completion(n, big));
    expect(plausible.result.stop.reason).toBe('max_steps');
    expect(plausible.result.inputTokens).toBe(3 * MAX_CALL_TOKENS);
    // Past gpt-4o-mini's window of 128,000 when the adapter is told it.
    const windowed = await run('gpt-4o-mini', (n) => completion(n, '{"prompt_tokens":128001,"completion_tokens":40}'), 128_000);
    expect(windowed.result.stop.detail).toMatch(/^model call failed: the server reported usage\.prompt_tokens = 128001, more than the model's context window \(128,000 tokens\)/);
    expect(windowed.result.costPico).toBe(0);
  });

  it("a failed call's billed usage in loopcost serve's error body is checked too", async () => {
    const body = JSON.stringify({ error: { message: 'slow down', type: 'rate_limit_error', code: 'loopcost_recorded_failure', loopcost: { usage: { input: 1e15, cached: 0, cacheWrite: 0, cacheWrite1h: 0, output: 0, reasoning: 0 } } } });
    const { result, calls } = await run('gpt-4o-mini', () => ({ status: 429, body }));
    expect(calls).toHaveLength(1);
    expect(result.stop.detail).toMatch(/^model call failed: 429 the server reported error\.loopcost\.usage\.input = 1000000000000000, more than any model's context window .*; not retried$/);
    expect(result.costPico).toBe(0);
  });

  it('many plausible calls adding past $9,007 still stop as a run that costs too much, with its settings named', async () => {
    // o1-pro: $150 a million prompt tokens, $600 output; 9,000,000 of each: $6,750 a call, so the second passes $9,007.
    const usage = '{"prompt_tokens":9000000,"completion_tokens":9000000}';
    const error = await run('o1-pro', (n) => completion(n, usage)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UserError);
    expect((error as UserError).message).toBe("one run costs more than $9,007, beyond exact picodollar arithmetic (set brakes.maxSteps, brakes.maxCostPico or brakes.contextWindow in runAgentLoop's options to bound the run)");
  });
});
