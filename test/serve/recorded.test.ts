/**
 * `serve` answering from recorded runs: each call's recorded usage (cached tokens included), the same
 * content and usage streamed, spend equal to replay's, and 4xx OpenAI-style errors for bad requests.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_BRAKES } from '../../src/brakes/config.js';
import { FULL_HISTORY } from '../../src/context/strategy.js';
import { loadTraceFile } from '../../src/import/index.js';
import { loadPriceTable } from '../../src/pricing/index.js';
import { replayTrace } from '../../src/replay/replay.js';
import { startServer, type RunningServer } from '../../src/serve/index.js';
import type { Trace } from '../../src/trace/types.js';
import { drain, expectOpenAiError, get, post, sentBack, sseData } from './client.js';

/** A real DeepSeek run (pydantic-ai test cassette): 3 calls, cached and reasoning tokens, parallel tool calls. */
const REAL_RUN = '../shared/traces/cassettes/models__test_deepseek__test_deepseek_deferred_capability_with_thinking.yaml';
const prices = loadPriceTable();
let trace: Trace;
let server: RunningServer;

beforeAll(async () => {
  [trace] = (await loadTraceFile(REAL_RUN)) as [Trace];
  server = await startServer({ sources: { traces: [trace] }, prices, port: 0 });
});
afterAll(() => server.close());

const ask = (session: string, extra: Record<string, unknown> = {}) => post(server.url, { model: 'deepseek-reasoner', messages: [{ role: 'user', content: 'roll' }], ...extra }, { 'x-loopcost-session': session });

describe('serve: a recorded real run', () => {
  it('listens on 127.0.0.1 by default, on the ephemeral port it reports', () => {
    expect(server.host).toBe('127.0.0.1');
    expect(server.port).toBeGreaterThan(0);
    expect(server.url).toBe(`http://127.0.0.1:${server.port}`);
  });

  it('answers each call with its recorded usage and tool calls, then a clear 409 past the end', async () => {
    expect(trace.calls.length).toBe(3);
    let answer = await ask('plain');
    for (const [i, call] of trace.calls.entries()) {
      if (i > 0) answer = await ask('plain');
      expect(answer.status).toBe(200);
      expect(answer.headers.get('x-loopcost-session')).toBe('plain');
      expect(answer.json.usage).toEqual({
        prompt_tokens: call.inputTokens,
        completion_tokens: call.outputTokens,
        total_tokens: call.inputTokens! + call.outputTokens,
        prompt_tokens_details: { cached_tokens: call.cachedInputTokens, cache_write_tokens: 0 },
        completion_tokens_details: { reasoning_tokens: call.reasoningTokens },
      });
      const message = answer.json.choices[0].message;
      expect((message.tool_calls ?? []).map((t: { function: { name: string; arguments: string } }) => [t.function.name, JSON.parse(t.function.arguments)])).toEqual(
        (call.toolCalls ?? []).map((t) => [t.name, t.arguments]),
      );
      expect(answer.json.choices[0].finish_reason).toBe(call.toolCalls ? 'tool_calls' : 'stop');
      expect(answer.json.loopcost.call).toBe(i + 1);
    }
    // The request the run sends next (its last answer sent back): a request sending back none is another run's (sessionReuse.test.ts).
    const past = await ask('plain', { messages: sentBack([{ role: 'user', content: 'roll' }], answer) });
    expect(past.status).toBe(409);
    expectOpenAiError(past);
    expect(past.json.error.code).toBe('loopcost_trace_ended');
    expect(past.json.error.loopcost).toEqual({ recordedOutcome: trace.end.outcome, recordedCalls: 3 });
    expect(past.headers.get('x-should-retry')).toBe('false'); // OpenAI's SDKs would retry a 409 otherwise
    expect(past.json.error.message).toMatch(/has no call 4 \(it recorded 3 calls/);
  });

  it('streams the same content and usage (usage in a last chunk without choices, then [DONE])', async () => {
    for (const call of trace.calls) {
      const plain = await ask('compare-plain');
      const streamed = await ask('compare-stream', { stream: true, stream_options: { include_usage: true } });
      expect(streamed.status).toBe(200);
      expect(streamed.headers.get('content-type')).toMatch(/^text\/event-stream/);
      const data = sseData(streamed.json as string);
      expect(data.at(-1)).toBe('[DONE]');
      const chunks = data.slice(0, -1).map((d) => JSON.parse(d));
      const last = chunks.at(-1);
      expect(last.choices).toEqual([]);
      expect(last.usage).toEqual(plain.json.usage);
      expect(last.usage.prompt_tokens_details.cached_tokens).toBe(call.cachedInputTokens);
      expect(chunks.slice(0, -1).every((c) => c.usage === null && c.object === 'chat.completion.chunk')).toBe(true);
      const deltas = chunks.flatMap((c) => c.choices.map((choice: { delta: Record<string, unknown> }) => choice.delta));
      const content = deltas.map((d) => d['content'] ?? '').join('');
      const toolCalls = deltas.flatMap((d) => (d['tool_calls'] as { index: number; id: string; type: string; function: unknown }[] | undefined) ?? []).map(({ index: _index, ...rest }) => rest);
      const message = plain.json.choices[0].message;
      expect(content).toBe(message.content ?? '');
      expect(toolCalls.map((t) => ({ type: t.type, function: t.function }))).toEqual((message.tool_calls ?? []).map((t: { type: string; function: unknown }) => ({ type: t.type, function: t.function })));
      expect(chunks.at(-2).choices[0].finish_reason).toBe(plain.json.choices[0].finish_reason);
    }
    // Without include_usage no chunk carries usage.
    const bare = await ask('bare-stream', { stream: true });
    const chunks = sseData(bare.json as string).slice(0, -1).map((d) => JSON.parse(d));
    expect(chunks.every((c) => !('usage' in c) && c.choices.length === 1)).toBe(true);
  });

  it('keeps per-session spend equal to replay of the same calls', async () => {
    await drain(server.url, 'spend');
    const replayed = replayTrace(trace, { brakes: NO_BRAKES, strategy: FULL_HISTORY, prices });
    const { sessions } = (await get(server.url, '/loopcost/sessions')).json;
    const spend = sessions.find((s: { id: string }) => s.id === 'spend');
    expect(spend).toMatchObject({
      kind: 'recorded',
      calls: replayed.modelCalls,
      steps: replayed.steps,
      inputTokens: replayed.inputTokens,
      cachedInputTokens: replayed.cachedInputTokens,
      outputTokens: replayed.outputTokens,
      reasoningTokens: replayed.reasoningTokens,
      costPico: String(replayed.costPico),
      ended: true,
      remainingCalls: 0,
    });
    expect(replayed.costPico).toBeGreaterThan(0);
  });

  it('lists the models', async () => {
    const models = await get(server.url, '/v1/models');
    expect(models.json).toEqual({ object: 'list', data: [{ id: 'deepseek-reasoner', object: 'model', created: 0, owned_by: 'loopcost' }] });
  });

  it('answers malformed requests and unknown routes with a 4xx OpenAI error, and keeps serving', async () => {
    const cases: [string, Promise<{ status: number; json: unknown }>, number, string | null][] = [
      // Cut inside the value of model: named where it breaks (io/jsonSyntax.ts).
      ['bad JSON', post(server.url, '{"model":'), 400, 'model'],
      ['no messages', post(server.url, { model: 'm' }), 400, 'messages'],
      ['empty messages', post(server.url, { model: 'm', messages: [] }), 400, 'messages'],
      ['bad role', post(server.url, { model: 'm', messages: [{ role: 'robot', content: 'x' }] }), 400, 'messages[0].role'],
      ['bad stream', post(server.url, { model: 'm', stream: 'yes', messages: [{ role: 'user', content: 'x' }] }), 400, 'stream'],
      ['array body', post(server.url, '[]'), 400, null],
      ['unknown trace', post(server.url, { model: 'm', messages: [{ role: 'user', content: 'x' }] }, { 'x-loopcost-trace': '7' }), 400, 'x-loopcost-trace'],
      ['unknown route', get(server.url, '/v1/embeddings'), 404, null],
      ['wrong method', get(server.url, '/v1/chat/completions'), 405, null],
    ];
    for (const [name, pending, status, param] of cases) {
      const answer = await pending;
      expect(answer.status, name).toBe(status);
      expectOpenAiError(answer as never);
      expect((answer.json as { error: { param: unknown } }).error.param, name).toBe(param);
    }
    const big = await startServer({ sources: { traces: [trace] }, prices, port: 0, maxBodyBytes: 100 });
    try {
      const tooLarge = await post(big.url, { model: 'm', messages: [{ role: 'user', content: 'x'.repeat(200) }] });
      expect(tooLarge.status).toBe(413);
      expectOpenAiError(tooLarge);
    } finally {
      await big.close();
    }
    expect((await ask('after-errors')).status).toBe(200);
  });

  it('without a session header, tells conversations apart by their opening; a fresh start of the same task is a new session', async () => {
    const own = await startServer({ sources: { traces: [trace] }, prices, port: 0 });
    try {
      const opening = [{ role: 'system', content: 'You roll dice.' }, { role: 'user', content: 'roll' }];
      const first = await post(own.url, { model: 'm', messages: opening });
      const followUp = [...opening, first.json.choices[0].message, { role: 'tool', tool_call_id: first.json.choices[0].message.tool_calls[0].id, content: 'ok' }];
      const second = await post(own.url, { model: 'm', messages: followUp });
      const other = await post(own.url, { model: 'm', messages: [{ role: 'user', content: 'another task' }] });
      const again = await post(own.url, { model: 'm', messages: opening });
      expect([first, second, other, again].map((a) => [a.headers.get('x-loopcost-session'), a.json.loopcost.call])).toEqual([
        ['conversation-1', 1],
        ['conversation-1', 2],
        ['conversation-2', 1],
        ['conversation-3', 1],
      ]);
    } finally {
      await own.close();
    }
  });
});
