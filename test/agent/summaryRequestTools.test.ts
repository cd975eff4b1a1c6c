/**
 * The real loop's summary call sends the run's tools, as every call before it did, with a tool choice of
 * none: its prompt is then the prompt it replaces (the tool schemas in it), whose prefix the provider's cache
 * holds — as replay prices a summary call (kernel/meter.ts summaryCachedPrefixTokens) and as the session's
 * estimate sizes it. It sent `tools: []` before: a prompt without the schemas, whose prefix no cache held.
 * The OpenAI adapter sends the choice as `tool_choice: 'none'`, and only beside tools.
 */
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { runAgentLoop } from '../../src/agent/run.js';
import { memoryRecorder } from '../../src/agent/recorder.js';
import { openAIChatModel } from '../../src/agent/openaiChat.js';
import { defineTool } from '../../src/agent/tools.js';
import { VirtualClock } from '../../src/agent/clock.js';
import type { ModelRequest, ModelTurn } from '../../src/agent/types.js';
import { NO_BRAKES } from '../../src/brakes/config.js';
import { loadPriceTable } from '../../src/pricing/index.js';
import { ScriptedModel } from './scripted.js';

const pricing = loadPriceTable().resolve('gpt-4o-mini');
const words = (text: string) => text.split(/\s+/).filter(Boolean).length;
const echo = defineTool<{ text: string }>({ name: 'echo', description: 'says it back', parameters: { type: 'object' }, run: ({ text }) => text });
const look = defineTool<{ path: string }>({ name: 'look', description: 'reads a file', parameters: { type: 'object', properties: { path: { type: 'string' } } }, run: ({ path }) => path });
const step = (n: number): ModelTurn => ({ text: null, toolCalls: [{ id: `c${n}`, name: 'echo', arguments: JSON.stringify({ text: `r${n} a b` }) }], usage: { outputTokens: 50 } });

describe('the real loop’s summary call', () => {
  it('sends the run’s tools with a tool choice of none, as its ordinary calls send the tools', async () => {
    const summary: ModelTurn = { text: 'echoed', toolCalls: [], usage: { outputTokens: 30 } };
    const model = new ScriptedModel([step(1), step(2), step(3), summary, { text: 'done', toolCalls: [], usage: { outputTokens: 5 } }], 'gpt-4o-mini');
    const strategy = { kind: 'summary' as const, summary: { triggerTokens: 150, keepSteps: 1, summaryTokens: 30 } };
    const result = await runAgentLoop({ model, tools: [echo, look], brakes: NO_BRAKES, unbounded: true, context: { system: 's', goal: 'g', strategy, countTokens: words }, pricing, clock: new VirtualClock(), recorder: memoryRecorder() });
    expect([result.stop.reason, result.summaryCalls]).toEqual(['completed', 1]);
    const summaryRequest = model.requests.find((r) => r.purpose === 'summary')!;
    const ordinary = model.requests.filter((r) => r.purpose === undefined);
    expect(ordinary).toHaveLength(4);
    expect(summaryRequest.tools.map((t) => t.name)).toEqual(['echo', 'look']);
    expect(summaryRequest.tools).toEqual(ordinary[0]!.tools);
    expect(summaryRequest.toolChoice).toBe('none');
    for (const r of ordinary) expect(r.toolChoice).toBeUndefined();
  });
});

describe('openAIChatModel and a tool choice', () => {
  function keeping(sent: Record<string, unknown>[]) {
    const completion = { id: 'x', object: 'chat.completion', created: 0, model: 'm', choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }], usage: { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 } };
    const fetchDouble: typeof fetch = async (_url, init) => (sent.push(JSON.parse(String(init?.body))), new Response(JSON.stringify(completion), { status: 200, headers: { 'content-type': 'application/json' } }));
    return openAIChatModel({ model: 'm', client: new OpenAI({ apiKey: 'k', baseURL: 'http://127.0.0.1:9/v1', maxRetries: 0, fetch: fetchDouble }) });
  }
  const tool = { name: 'echo', description: 'says it back', parameters: { type: 'object' } };
  const base: ModelRequest = { messages: [{ role: 'user', content: 'g' }], tools: [tool], maxOutputTokens: 100 };

  it('sends tool_choice none beside the tools when asked, and no tool_choice otherwise', async () => {
    const sent: Record<string, unknown>[] = [];
    const model = keeping(sent);
    await model.call({ ...base, toolChoice: 'none', purpose: 'summary' });
    await model.call(base);
    await model.call({ ...base, tools: [], toolChoice: 'none' });
    expect(sent.map((b) => [Array.isArray(b['tools']) ? (b['tools'] as unknown[]).length : 0, b['tool_choice']])).toEqual([
      [1, 'none'],
      [1, undefined],
      [0, undefined],
    ]);
  });
});
