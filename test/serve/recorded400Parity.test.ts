/**
 * A recorded 400 the recorded run went on past (Groq's `tool_use_failed`, its client re-asked), served by
 * `loopcost serve` to a plain real loop — `runAgentLoop` + `openAIChatModel` with its default retry policy,
 * nothing forced — ends as `replay` of the trace ends: serve answers it with `x-should-retry: true` (the
 * recorded client retried it), and the adapter honours `x-should-retry` as the openai SDK does. Before, the
 * loop retried by status alone, so a 400 ended the run after one step ("… not retried", $0).
 */
import OpenAI from 'openai';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { VirtualClock } from '../../src/agent/clock.js';
import { openAIChatModel } from '../../src/agent/openaiChat.js';
import { runAgentLoop } from '../../src/agent/run.js';
import type { AgentTool } from '../../src/agent/types.js';
import { FULL_HISTORY } from '../../src/context/strategy.js';
import { loadTraceFile } from '../../src/import/index.js';
import { loadPriceTable } from '../../src/pricing/index.js';
import { resolveTracePricing } from '../../src/index.js';
import { replayTrace } from '../../src/replay/replay.js';
import { startServer, type RunningServer } from '../../src/serve/index.js';
import type { Trace } from '../../src/trace/types.js';
import { figures } from '../agent/traceDriven.js';

const CASSETTE = '../shared/traces/cassettes/models__test_groq__test_tool_use_failed_error.yaml';
const prices = loadPriceTable();
const brakes = { maxSteps: 250 };
let trace: Trace;
let server: RunningServer;

beforeAll(async () => {
  [trace] = (await loadTraceFile(CASSETTE)) as [Trace];
  server = await startServer({ sources: { traces: [trace] }, prices });
});
afterAll(() => server.close());

it('the recording holds a 400 its run went on past', () => {
  const failedAt = trace.calls.findIndex((call) => call.failed?.status === 400);
  expect(failedAt).toBeGreaterThanOrEqual(0);
  expect(failedAt).toBeLessThan(trace.calls.length - 1);
});

it('a plain real loop over HTTP stops, steps and spends as replay does', async () => {
  const names = [...new Set(trace.calls.flatMap((call) => (call.toolCalls ?? []).map((tool) => tool.name)))];
  const tools: AgentTool[] = names.map((name) => ({ name, description: name, parameters: { type: 'object' }, run: () => 'ok' }));
  const model = openAIChatModel({ model: trace.header.model, baseURL: `${server.url}/v1`, apiKey: 'x', headers: { 'x-loopcost-session': 'plain', 'x-loopcost-trace': '0' } });
  const live = await runAgentLoop({ model, tools, brakes, context: { system: 's', goal: 'g' }, pricing: resolveTracePricing(trace, { prices }), clock: new VirtualClock(0) });
  const replayed = replayTrace(trace, { brakes, strategy: FULL_HISTORY, prices });
  expect(replayed.stopReason).toBe('completed');
  // All but elapsed time: the loop waits its back-off (1 s on the virtual clock) before the retry; replay has no wait.
  const { elapsedMs: _live, ...http } = figures(live);
  const { elapsedMs: _replayed, ...replay } = figures(replayed);
  expect(http).toEqual(replay);
  expect([http.stopReason, http.steps, http.calls]).toEqual(['completed', 3, 3]);
});

it('the plain openai SDK retries it too (its own retries on), getting the recording\'s next call', async () => {
  const client = new OpenAI({ apiKey: 'x', baseURL: `${server.url}/v1`, maxRetries: 2, defaultHeaders: { 'x-loopcost-session': 'sdk', 'x-loopcost-trace': '0' } });
  const failedAt = trace.calls.findIndex((call) => call.failed?.status === 400);
  for (let k = 0; k < failedAt; k++) await client.chat.completions.create({ model: trace.header.model, messages: [{ role: 'user', content: 'g' }] });
  const answer = await client.chat.completions.create({ model: trace.header.model, messages: [{ role: 'user', content: 'g' }] });
  expect(answer.usage?.completion_tokens).toBe(trace.calls[failedAt + 1]!.outputTokens);
});
