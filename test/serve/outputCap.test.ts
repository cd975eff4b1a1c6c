/**
 * A request's output cap (`max_completion_tokens`, or `max_tokens`) cuts a longer answer as a provider
 * cuts it: billed at the cap (reasoning first), no tool calls, finish_reason "length", and the session's
 * loop counts it as a step that made no progress. An answer within the cap is untouched.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadTraceFile } from '../../src/import/index.js';
import { loadPriceTable } from '../../src/pricing/index.js';
import { cutAtCap } from '../../src/synthetic/outputCap.js';
import { startServer, type RunningServer } from '../../src/serve/index.js';
import type { Trace } from '../../src/trace/types.js';
import { post, sseData } from './client.js';

/** A real DeepSeek run (pydantic-ai test cassette): outputs 116 (60 reasoning, 1 tool call), 79 (26, 2 tool calls), 61 (25, final). */
const REAL_RUN = '../shared/traces/cassettes/models__test_deepseek__test_deepseek_deferred_capability_with_thinking.yaml';
let trace: Trace;
let server: RunningServer;

beforeAll(async () => {
  [trace] = (await loadTraceFile(REAL_RUN)) as [Trace];
  server = await startServer({ sources: { traces: [trace] }, prices: loadPriceTable(), port: 0 });
});
afterAll(() => server.close());

const ask = (session: string, extra: Record<string, unknown>) => post(server.url, { model: 'deepseek-reasoner', messages: [{ role: 'user', content: 'roll' }], ...extra }, { 'x-loopcost-session': session });

describe('serve: the output cap of a request', () => {
  it('max_completion_tokens 100 cuts the 116-token first answer: 100 billed (60 reasoning), no tool call, finish_reason length; the next answer (79) is untouched', async () => {
    const cut = await ask('cap-100', { max_completion_tokens: 100 });
    expect(cut.json.usage).toMatchObject({ completion_tokens: 100, completion_tokens_details: { reasoning_tokens: 60 } });
    expect(cut.json.choices[0].finish_reason).toBe('length');
    expect(cut.json.choices[0].message.tool_calls).toBeUndefined();
    expect(cut.json.loopcost.record).toMatchObject({ outputTokens: 100, unparseable: true });
    const next = await ask('cap-100', { max_completion_tokens: 100 });
    expect(next.json.usage.completion_tokens).toBe(79);
    expect(next.json.choices[0].finish_reason).toBe('tool_calls');
  });

  it('max_tokens (older clients) cuts the same way, streamed too; reasoning is spent first', async () => {
    const streamed = await ask('cap-40', { max_tokens: 40, stream: true, stream_options: { include_usage: true } });
    const chunks = sseData(streamed.json as string).filter((data) => data !== '[DONE]').map((data) => JSON.parse(data) as { choices: { finish_reason: string | null }[]; usage?: unknown });
    expect(chunks.flatMap((c) => c.choices.map((choice) => choice.finish_reason)).filter(Boolean)).toEqual(['length']);
    expect(chunks.at(-1)!.usage).toMatchObject({ completion_tokens: 40, completion_tokens_details: { reasoning_tokens: 40 } });
  });

  it('a cap that is not a positive whole number is a 400 naming the field', async () => {
    const bad = await ask('cap-bad', { max_completion_tokens: 0 });
    expect(bad.status).toBe(400);
    expect(bad.json.error.param).toBe('max_completion_tokens');
  });

  it('a summary request (x-loopcost-purpose: summary) is a compaction call of the cap in tokens and takes no recorded call', async () => {
    const headers = { 'x-loopcost-session': 'summary-first', 'x-loopcost-purpose': 'summary' };
    const summary = await post(server.url, { model: 'deepseek-reasoner', messages: [{ role: 'user', content: 'summarise' }], max_completion_tokens: 300 }, headers);
    expect(summary.json.usage.completion_tokens).toBe(300);
    expect(summary.json.loopcost.record).toMatchObject({ outputTokens: 300, compaction: true });
    const first = await ask('summary-first', {});
    expect(first.json.usage.completion_tokens).toBe(trace.calls[0]!.outputTokens);
    expect(first.json.loopcost.call).toBe(2);
  });

  it('cutAtCap leaves a failed call and an answer within the cap as they are', () => {
    const failed = { type: 'call' as const, outputTokens: 500, failed: { status: 500, message: 'x' } };
    expect(cutAtCap(failed, 10)).toBe(failed);
    const fits = trace.calls[2]!;
    expect(cutAtCap(fits, 61)).toBe(fits);
    expect(cutAtCap(fits, 60)).toMatchObject({ outputTokens: 60, reasoningTokens: 25, unparseable: true });
    expect(cutAtCap(fits, 60).final).toBeUndefined();
  });
});
