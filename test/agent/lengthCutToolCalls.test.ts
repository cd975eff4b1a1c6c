/**
 * A response cut off at the output cap (`finish_reason: "length"`) is an unparseable step whatever it holds:
 * its tool calls never run (their arguments, or a parallel list, may end mid-way) and it is no completion —
 * as `loopcost serve`'s provider cuts an answer past the cap (synthetic/outputCap.ts cutAtCap: no tool calls).
 * Before, openaiResponse.ts marked it unparseable only when it held no tool call: a complete `refund` call
 * cut at the cap ran, and the run went on to complete. The run, its recording, the replay of the recording
 * and the loop driven by it agree (exact picodollars).
 */
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/agent/clock.js';
import { openAIChatModel } from '../../src/agent/openaiChat.js';
import { turnOf } from '../../src/agent/openaiResponse.js';
import { memoryRecorder } from '../../src/agent/recorder.js';
import { runAgentLoop } from '../../src/agent/run.js';
import { defineTool } from '../../src/agent/tools.js';
import { NO_BRAKES, type BrakeConfig } from '../../src/brakes/config.js';
import { loadPriceTable } from '../../src/pricing/index.js';
import { figures, replayFigures, runTraceDriven, type Settings } from './traceDriven.js';

const completion = (message: object, finish: string, usage: object) => ({ id: 'r', object: 'chat.completion', created: 0, model: 'gpt-4o-mini', choices: [{ index: 0, message: { role: 'assistant', ...message }, finish_reason: finish }], usage });
const refundCall = (id: string, orderId: string) => ({ id, type: 'function', function: { name: 'refund', arguments: JSON.stringify({ orderId }) } });
const FINAL = completion({ content: 'done' }, 'stop', { prompt_tokens: 400, completion_tokens: 5 });

const pricing = loadPriceTable().resolve('gpt-4o-mini');
const settings: Settings = { brakes: { ...NO_BRAKES, maxSteps: 6 } as BrakeConfig, strategy: { kind: 'full', cache: 'recorded' }, pricing };

/** A run whose model answers `first`, then FINAL; the refunds its tool made and the recording. */
async function runAnswering(first: object) {
  const bodies = [first, FINAL];
  const answer: typeof fetch = async () => new Response(JSON.stringify(bodies.shift() ?? FINAL), { status: 200, headers: { 'content-type': 'application/json' } });
  const client = new OpenAI({ apiKey: 'k', baseURL: 'http://127.0.0.1:9/v1', maxRetries: 0, fetch: answer });
  const refunded: string[] = [];
  const refund = defineTool<{ orderId: string }>({ name: 'refund', description: 'refunds an order', parameters: { type: 'object', properties: { orderId: { type: 'string' } } }, run: ({ orderId }) => (refunded.push(orderId), `refunded ${orderId}`) });
  const recorder = memoryRecorder();
  const run = await runAgentLoop({ model: openAIChatModel({ model: 'gpt-4o-mini', client }), tools: [refund], brakes: { maxSteps: 6 }, context: { system: 's', goal: 'g', countTokens: (text) => text.length }, pricing, clock: new VirtualClock(), recorder });
  return { run, refunded, recording: recorder.trace() };
}

describe('a response cut off at the output cap: an unparseable step, its tool calls never run', () => {
  it.each([
    ['one complete tool call', [refundCall('t1', 'B2')]],
    ['a parallel list cut after its first calls', [refundCall('t1', 'B2'), refundCall('t2', 'C3')]],
  ])('%s', async (_, toolCalls) => {
    const { run, refunded, recording } = await runAnswering(completion({ content: null, tool_calls: toolCalls }, 'length', { prompt_tokens: 300, completion_tokens: 4096 }));
    expect(refunded).toEqual([]);
    expect([run.stop.reason, run.steps, run.calls, run.toolCalls, run.finalText]).toEqual(['completed', 2, 2, 0, 'done']);
    // The cut step as the model reads it next: its message without tool calls, no tool result.
    expect(run.messages.map((message) => message.role)).toEqual(['system', 'user', 'assistant', 'assistant']);
    expect(recording.calls[0]).toMatchObject({ outputTokens: 4096, unparseable: true });
    expect(recording.calls[0]!.toolCalls).toBeUndefined();
    // Billed at the cap: 300 in, 4,096 out, then the answer, at $0.15 / $0.60 a million tokens.
    expect(run.costPico).toBe(300 * 150_000 + 4096 * 600_000 + 400 * 150_000 + 5 * 600_000);
    const replayed = replayFigures(recording, settings);
    expect(figures(run)).toEqual(replayed);
    expect(figures(await runTraceDriven(recording, settings))).toEqual(replayed);
  });

  it('cut, a response marked final (`loopcost serve`\'s mark) is no final answer either: unparseable, no tool calls', () => {
    const cut = { ...completion({ content: null, tool_calls: [refundCall('t1', 'B2')] }, 'length', { prompt_tokens: 300, completion_tokens: 4096 }), loopcost: { session: 's', call: 0, record: { final: true } } };
    const turn = turnOf(cut as unknown as Parameters<typeof turnOf>[0], undefined);
    expect([turn.toolCalls, turn.marks]).toEqual([[], { unparseable: true }]);
  });

  it('a response that ends its turn with tool calls (`tool_calls`) still runs them', async () => {
    const { run, refunded } = await runAnswering(completion({ content: null, tool_calls: [refundCall('t1', 'B2')] }, 'tool_calls', { prompt_tokens: 300, completion_tokens: 20 }));
    expect(refunded).toEqual(['B2']);
    expect([run.stop.reason, run.toolCalls]).toEqual(['completed', 1]);
  });
});
