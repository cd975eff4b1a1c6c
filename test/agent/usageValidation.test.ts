/**
 * A usage figure that is not a whole number ≥ 0 (null, negative, fractional, non-finite, a string) is not
 * reported: a prompt not reported is billed by the estimate, as a response without usage is; cached and
 * cache writes are capped at the prompt, reasoning at the output (the meter already capped reasoning). The recording then reads back (the
 * native reader refuses negative counts and parts above their whole) and replays to the run's money.
 * Responses scripted over HTTP (raw text, so `1e400` reaches the SDK's parser); money by hand at
 * gpt-4o-mini's table prices: input 150,000 pico a token, cached 75,000, output 600,000; OpenAI's minimum cacheable
 * prefix (1,024 tokens: pricing/cacheRules.ts, which runAgentLoop fills in) caches none of these small prompts.
 */
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/agent/clock.js';
import { openAIChatModel } from '../../src/agent/openaiChat.js';
import { memoryRecorder } from '../../src/agent/recorder.js';
import { runAgentLoop } from '../../src/agent/run.js';
import { defineTool } from '../../src/agent/tools.js';
import { NO_BRAKES } from '../../src/brakes/config.js';
import type { ContextStrategy } from '../../src/context/strategy.js';
import { loadPriceTable } from '../../src/pricing/index.js';
import { replayTrace } from '../../src/replay/replay.js';
import { parseNativeTraces } from '../../src/trace/parseNative.js';
import { writeNativeTraces } from '../../src/trace/writeNative.js';

const prices = loadPriceTable();
const pricing = prices.resolve('gpt-4o-mini');
const words = (text: string) => text.split(/\s+/).filter(Boolean).length;
const echo = defineTool<{ text: string }>({ name: 'echo', description: 'says it back', parameters: { type: 'object' }, run: ({ text }) => text });
/** system + goal = 2 tokens: the prompts are 2, 55, 108, then 161 > 150 — a summary call (its estimate: 161 in, none cached below OpenAI's 1,024-token minimum, 30 out). */
const strategy: ContextStrategy = { kind: 'summary', summary: { triggerTokens: 150, keepSteps: 1, summaryTokens: 30 } };
const ESTIMATE = 161 * 150_000 + 30 * 600_000;
const ordinary = (input: number, output: number) => input * 150_000 + output * 600_000;

const message = (n: number) =>
  n < 4
    ? { role: 'assistant', content: null, tool_calls: [{ id: `c${n}`, type: 'function', function: { name: 'echo', arguments: JSON.stringify({ text: `r${n} a b` }) } }] }
    : { role: 'assistant', content: n === 4 ? 'echoed' : 'done' };
/** Response n (1-based): steps 1–3 call echo, 4 is the summary, 5 the answer; `usage` is the raw JSON of call `at`'s usage, the others report 50 out and no prompt. */
const body = (n: number, at: number, usage: string) =>
  `{"id":"x","object":"chat.completion","created":0,"model":"gpt-4o-mini","choices":[{"index":0,"message":${JSON.stringify(message(n))},"finish_reason":"stop"}],"usage":${n === at ? usage : '{"completion_tokens":50}'}}`;

async function runWith(at: number, usage: string) {
  let n = 0;
  const fetchDouble: typeof fetch = async () => new Response(body(++n, at, usage), { status: 200, headers: { 'content-type': 'application/json' } });
  const client = new OpenAI({ apiKey: 'k', baseURL: 'http://127.0.0.1:9/v1', maxRetries: 0, fetch: fetchDouble });
  const recorder = memoryRecorder();
  const model = openAIChatModel({ model: 'gpt-4o-mini', client });
  const result = await runAgentLoop({ model, tools: [echo], brakes: NO_BRAKES, unbounded: true, context: { system: 's', goal: 'g', strategy, countTokens: words }, pricing, clock: new VirtualClock(), recorder });
  // The recording as written and read back (the native reader checks every count), replayed as recorded.
  const [readBack] = parseNativeTraces(writeNativeTraces([recorder.trace()]), 'run.jsonl');
  const replayed = replayTrace(readBack!, { brakes: NO_BRAKES, strategy: { kind: 'full' }, prices });
  return { result, replayed, compaction: recorder.trace().calls.find((c) => c.compaction)! };
}

describe('usage figures a server reports that are not whole numbers ≥ 0 are not reported', () => {
  it.each([
    ['null', '{"prompt_tokens":null,"completion_tokens":40}'],
    ['negative', '{"prompt_tokens":-1000,"completion_tokens":40}'],
    ['fractional', '{"prompt_tokens":400.5,"completion_tokens":40}'],
    ['non-finite', '{"prompt_tokens":1e400,"completion_tokens":40}'],
    ['a string', '{"prompt_tokens":"400","completion_tokens":40}'],
  ])('a summary call whose prompt is %s is billed by its estimate, and its recording replays to the run', async (_, usage) => {
    const { result, replayed, compaction } = await runWith(4, usage);
    expect([result.stop.reason, result.summaryCalls]).toEqual(['completed', 1]);
    expect(result.summaryCostPico).toBe(ESTIMATE);
    expect(compaction).toMatchObject({ inputTokens: 161, outputTokens: 30 });
    expect(compaction.cachedInputTokens).toBeUndefined();
    expect(replayed.costPico).toBe(result.costPico);
  });

  it.each([
    // (Before the summary call counted an output not reported, liveSummary.ts: 0 out.)
    ['negative output: counted from its text (1 token)', '{"prompt_tokens":400,"completion_tokens":-40}', ordinary(400, 1), { inputTokens: 400, outputTokens: 1 }],
    ['negative cached: none cached', '{"prompt_tokens":400,"completion_tokens":40,"prompt_tokens_details":{"cached_tokens":-300}}', ordinary(400, 40), { inputTokens: 400, outputTokens: 40 }],
    ['cached above the prompt: capped at it', '{"prompt_tokens":100,"completion_tokens":40,"prompt_tokens_details":{"cached_tokens":400}}', 100 * 75_000 + 40 * 600_000, { inputTokens: 100, cachedInputTokens: 100, outputTokens: 40 }],
    ['cache writes above the prompt less its cached part: capped', '{"prompt_tokens":400,"completion_tokens":40,"prompt_tokens_details":{"cached_tokens":300},"cache_creation_input_tokens":900}', 300 * 75_000 + 100 * 150_000 + 40 * 600_000, { inputTokens: 400, cachedInputTokens: 300, cacheWriteTokens: 100 }],
  ])('a summary call with %s', async (_, usage, pico, recorded) => {
    const { result, replayed, compaction } = await runWith(4, usage);
    expect(result.summaryCostPico).toBe(pico);
    expect(compaction).toMatchObject(recorded);
    expect(replayed.costPico).toBe(result.costPico);
  });

  it('an ordinary call whose prompt is negative is billed at the prompt as sent (55 tokens), as one without usage', async () => {
    const { result, replayed } = await runWith(2, '{"prompt_tokens":-1000,"completion_tokens":40}');
    const clean = await runWith(2, '{"completion_tokens":40}');
    expect(result.costPico).toBe(clean.result.costPico);
    expect(result.inputTokens).toBe(clean.result.inputTokens);
    expect(result.costPico - clean.result.costPico).toBe(0);
    expect(clean.result.costPico - result.summaryCostPico!).toBe(ordinary(2, 50) + ordinary(55, 40) + ordinary(98, 50) + ordinary(85, 50));
    expect(replayed.costPico).toBe(result.costPico);
  });
});
