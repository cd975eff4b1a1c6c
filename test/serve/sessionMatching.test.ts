/**
 * Without `x-loopcost-session`, a request continues the conversation its messages show it belongs to
 * (src/serve/conversations.ts): a retry of a failed call is the same session's next call, and two runs of
 * the same task at once each keep their own recording.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadTraceFile } from '../../src/import/index.js';
import { loadPriceTable } from '../../src/pricing/index.js';
import { startServer, type RunningServer } from '../../src/serve/index.js';
import type { Trace } from '../../src/trace/types.js';
import { get, post, type Answer } from './client.js';

const CASSETTES = '../shared/traces/cassettes';
/** Three calls, each a recorded 429 (OpenRouter rate-limited upstream). */
const RATE_LIMITED = `${CASSETTES}/models__test_openrouter__test_openrouter_errors_raised.yaml`;
/** Three calls: tool calls, tool calls, answer (DeepSeek). */
const DEEPSEEK = `${CASSETTES}/models__test_deepseek__test_deepseek_deferred_capability_with_thinking.yaml`;
/** Three calls: tool call, tool call, answer (Anthropic). */
const ANTHROPIC = `${CASSETTES}/models__test_anthropic__test_anthropic_mixed_strict_tool_run.yaml`;

const prices = loadPriceTable();
const load = async (path: string) => ((await loadTraceFile(path)) as Trace[])[0]!;
let traces: Record<'rateLimited' | 'deepseek' | 'anthropic', Trace>;
const servers: RunningServer[] = [];

beforeAll(async () => {
  traces = { rateLimited: await load(RATE_LIMITED), deepseek: await load(DEEPSEEK), anthropic: await load(ANTHROPIC) };
});
afterAll(() => Promise.all(servers.map((server) => server.close())));

async function serving(...sources: Trace[]): Promise<RunningServer> {
  const server = await startServer({ sources: { traces: sources }, prices });
  servers.push(server);
  return server;
}

const where = (answer: Answer) => [answer.headers.get('x-loopcost-session'), answer.status, answer.json.loopcost?.call ?? answer.json.error?.loopcost?.call];
/** The recorded tool calls' names of call `n` (1-based) of `trace`. */
const recordedTools = (trace: Trace, n: number) => (trace.calls[n - 1]!.toolCalls ?? []).map((tool) => tool.name);
const toolsOf = (answer: Answer) => (answer.json.choices[0].message.tool_calls ?? []).map((call: { function: { name: string } }) => call.function.name);

/** The request an agent sends next: what it sent, the answer it got, and a result for each tool call. */
function followUp(messages: unknown[], answer: Answer): unknown[] {
  const message = answer.json.choices[0].message;
  const results = (message.tool_calls ?? []).map((call: { id: string }) => ({ role: 'tool', tool_call_id: call.id, content: 'ok' }));
  return [...messages, message, ...results];
}

describe('serve without a session header', () => {
  it('answers a retry of a failed call (the same body again) with the same recording’s next call', async () => {
    const server = await serving(traces.rateLimited, traces.deepseek);
    const hello = { model: 'x', messages: [{ role: 'user', content: 'hello' }] };
    const answers = [await post(server.url, hello), await post(server.url, hello), await post(server.url, hello)];
    expect(answers.map(where)).toEqual([
      ['conversation-1', 429, 1],
      ['conversation-1', 429, 2],
      ['conversation-1', 429, 3],
    ]);
    const report = (await get(server.url, '/loopcost/sessions')).json;
    expect(report.sessions.map((s: { source: string; calls: number }) => [s.source, s.calls])).toEqual([[RATE_LIMITED, 3]]);
  });

  it('does not take a retry into a session that has ended: the same opening again is a new run', async () => {
    const server = await serving(traces.rateLimited, traces.deepseek);
    const hello = { model: 'x', messages: [{ role: 'user', content: 'hello' }] };
    for (let i = 0; i < 3; i++) await post(server.url, hello);
    // The recording's three calls all failed and it has ended: not a 409 for ever, the next trace's run.
    expect(where(await post(server.url, hello))).toEqual(['conversation-2', 200, 1]);
    const report = (await get(server.url, '/loopcost/sessions')).json;
    expect(report.sessions.map((s: { source: string; calls: number; ended: boolean }) => [s.source, s.calls, s.ended])).toEqual([
      [RATE_LIMITED, 3, true],
      [DEEPSEEK, 1, false],
    ]);
  });

  it('takes a retry whose body lists its keys in another order as the same body', async () => {
    const server = await serving(traces.rateLimited, traces.deepseek);
    await post(server.url, '{"model":"x","messages":[{"role":"user","content":"hello"}],"temperature":0}');
    const reordered = await post(server.url, '{"temperature":0,"messages":[{"content":"hello","role":"user"}],"model":"x"}');
    expect(where(reordered)).toEqual(['conversation-1', 429, 2]);
  });

  it('keeps two runs of the same task at once apart: each continues its own recording, in order', async () => {
    const server = await serving(traces.deepseek, traces.anthropic);
    const opening = [{ role: 'system', content: 'You roll dice.' }, { role: 'user', content: 'roll' }];
    const a1 = await post(server.url, { model: 'x', messages: opening });
    const a2 = await post(server.url, { model: 'x', messages: opening });
    // Interleaved: A2 goes on first, then A1, each sending the answers it received.
    const a2Second = await post(server.url, { model: 'x', messages: followUp(opening, a2) });
    const a1Second = await post(server.url, { model: 'x', messages: followUp(opening, a1) });
    const a1Third = await post(server.url, { model: 'x', messages: followUp(followUp(opening, a1), a1Second) });
    const a2Third = await post(server.url, { model: 'x', messages: followUp(followUp(opening, a2), a2Second) });
    expect([a1, a1Second, a1Third].map(where)).toEqual([1, 2, 3].map((call) => ['conversation-1', 200, call]));
    expect([a2, a2Second, a2Third].map(where)).toEqual([1, 2, 3].map((call) => ['conversation-2', 200, call]));
    expect([a1, a1Second].map(toolsOf)).toEqual([recordedTools(traces.deepseek, 1), recordedTools(traces.deepseek, 2)]);
    expect([a2, a2Second].map(toolsOf)).toEqual([recordedTools(traces.anthropic, 1), recordedTools(traces.anthropic, 2)]);
    const report = (await get(server.url, '/loopcost/sessions')).json;
    expect(report.sessions.map((s: { id: string; source: string; calls: number }) => [s.id, s.source, s.calls])).toEqual([
      ['conversation-1', DEEPSEEK, 3],
      ['conversation-2', ANTHROPIC, 3],
    ]);
  });

  it('keeps them apart when one recording answers both (its answers carry ids of their session)', async () => {
    const server = await serving(traces.deepseek);
    const opening = [{ role: 'user', content: 'roll' }];
    const a1 = await post(server.url, { model: 'x', messages: opening });
    const a2 = await post(server.url, { model: 'x', messages: opening });
    const a2Second = await post(server.url, { model: 'x', messages: followUp(opening, a2) });
    const a1Second = await post(server.url, { model: 'x', messages: followUp(opening, a1) });
    expect([a1, a1Second, a2, a2Second].map(where)).toEqual([
      ['conversation-1', 200, 1],
      ['conversation-1', 200, 2],
      ['conversation-2', 200, 1],
      ['conversation-2', 200, 2],
    ]);
  });
});
