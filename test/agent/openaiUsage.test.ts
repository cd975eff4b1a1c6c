/** What the Chat Completions adapter reads beyond the standard usage: cache writes, a failed call's billed usage; and a failure's status said once. */
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/agent/clock.js';
import { openAIChatModel } from '../../src/agent/openaiChat.js';
import { runAgentLoop } from '../../src/agent/run.js';
import type { ModelRequest } from '../../src/agent/types.js';
import { NO_BRAKES } from '../../src/brakes/config.js';
import { MINI } from '../helpers.js';

function clientAnswering(status: number, body: unknown): OpenAI {
  const fetchDouble: typeof fetch = async () => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  return new OpenAI({ apiKey: 'k', baseURL: 'http://127.0.0.1:9/v1', maxRetries: 0, fetch: fetchDouble });
}

const request: ModelRequest = { messages: [{ role: 'user', content: 'g' }], tools: [], maxOutputTokens: 100 };
const completion = (usage: object, extra: object = {}) => ({ id: 'x', object: 'chat.completion', created: 0, model: 'm', choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }], usage, ...extra });
const standard = { prompt_tokens: 25_882, completion_tokens: 40, total_tokens: 25_922, prompt_tokens_details: { cached_tokens: 17_842 } };
const usageOf = async (body: object) => (await openAIChatModel({ model: 'm', client: clientAnswering(200, body) }).call(request)).usage;

describe('openAIChatModel: usage beyond the standard fields', () => {
  it("reads cache writes by lifetime from loopcost serve's extension", async () => {
    const serve = { usage: { input: 25_882, cached: 17_842, cacheWrite: 3, cacheWrite1h: 8_037, output: 40, reasoning: 0 } };
    expect(await usageOf(completion(standard, { loopcost: serve }))).toEqual({ inputTokens: 25_882, cachedInputTokens: 17_842, cacheWriteTokens: 3, cacheWrite1hTokens: 8_037, outputTokens: 40 });
  });

  it("reads OpenRouter's prompt_tokens_details.cache_write_tokens and LiteLLM's cache_creation_input_tokens as 5-minute writes", async () => {
    const openRouter = { ...standard, prompt_tokens_details: { cached_tokens: 17_842, cache_write_tokens: 8_040 } };
    expect(await usageOf(completion(openRouter))).toEqual({ inputTokens: 25_882, cachedInputTokens: 17_842, cacheWriteTokens: 8_040, outputTokens: 40 });
    expect(await usageOf(completion({ ...standard, cache_creation_input_tokens: 8_040 }))).toEqual({ inputTokens: 25_882, cachedInputTokens: 17_842, cacheWriteTokens: 8_040, outputTokens: 40 });
    // No write reported, or a malformed one: none billed.
    expect(await usageOf(completion({ ...standard, cache_creation_input_tokens: -1 }))).toEqual({ inputTokens: 25_882, cachedInputTokens: 17_842, outputTokens: 40 });
  });

  it("bills a failed call the usage serve's error body gives (error.loopcost.usage), and says its status once", async () => {
    const usage = { input: 1_000, cached: 0, cacheWrite: 200, cacheWrite1h: 0, output: 0, reasoning: 0 };
    const error = await openAIChatModel({ model: 'm', client: clientAnswering(429, { error: { message: 'recorded provider failure (call 1): slow down', type: 'rate_limit_error', code: 'loopcost_recorded_failure', loopcost: { call: 1, usage } } }) })
      .call(request)
      .catch((e) => e);
    expect(error.message).toBe('recorded provider failure (call 1): slow down');
    expect(error.options).toMatchObject({ status: 429, retryable: true, usage: { inputTokens: 1_000, cacheWriteTokens: 200, outputTokens: 0 } });
    const plain = await openAIChatModel({ model: 'm', client: clientAnswering(429, { error: { message: 'slow down' } }) }).call(request).catch((e) => e);
    expect(plain.options.usage).toBeUndefined();
  });

  it('a run that gives up names the status once in its stop detail', async () => {
    const model = openAIChatModel({ model: 'mini', client: clientAnswering(400, { error: { message: 'bad request body', type: 'invalid_request_error' } }) });
    const run = await runAgentLoop({ model, tools: [], brakes: NO_BRAKES, unbounded: true, context: { system: 's', goal: 'g', countTokens: () => 1 }, pricing: MINI, clock: new VirtualClock() });
    expect(run.stop).toEqual({ reason: 'trace_end', detail: 'model call failed: 400 bad request body; not retried' });
  });
});
