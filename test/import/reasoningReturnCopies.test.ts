/**
 * What the reasoning check (src/import/http/reasoningReturn.ts) reads as a call's reasoning and as the next
 * request's copy of its turn: a streamed response's reasoning deltas (Chat Completions `reasoning_content` /
 * `reasoning`, Bedrock `reasoningContent`), a Responses request's `item_reference`s by what they name, and only a
 * request whose history extends the call's (not one joined to the run by a compaction item it carries).
 */
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { importCassette } from '../../src/import/http/cassette.js';
import { importExchangesJsonl } from '../../src/import/http/exchanges.js';
import type { Trace } from '../../src/trace/types.js';
import { converseStreamBytes } from './eventStreamBytes.js';

const jsonl = (url: string, exchanges: { request: unknown; response: unknown; url?: string }[]): Trace[] =>
  importExchangesJsonl(exchanges.map((e) => JSON.stringify({ url, status: 200, ...e })).join('\n') + '\n', 'run.jsonl');
const sse = (chunks: unknown[]): string => chunks.map((c) => `data: ${JSON.stringify(c)}\n\n`).join('') + 'data: [DONE]\n\n';

const CHAT = 'https://api.deepseek.com/v1/chat/completions';
/** A streamed call that reasons (in `field` deltas) and asks for a tool, its usage without reasoning_tokens; then a request copying its turn. */
function streamedChatRun(field: 'reasoning_content' | 'reasoning', copyKeeps: boolean): Trace[] {
  const ask = { role: 'user', content: 'Weather in Rome?' };
  const chunk = (delta: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({ id: 'c1', object: 'chat.completion.chunk', model: 'deepseek-reasoner', choices: [{ index: 0, delta, ...extra }] });
  const call = { id: 'call_1', type: 'function', function: { name: 'weather', arguments: '{"city":"Rome"}' } };
  const stream = sse([
    chunk({ role: 'assistant', [field]: 'I should ' }),
    chunk({ [field]: 'call the weather tool.' }),
    chunk({ tool_calls: [{ index: 0, ...call }] }),
    { ...chunk({}, { finish_reason: 'tool_calls' }), usage: { prompt_tokens: 50, completion_tokens: 40, total_tokens: 90 } },
  ]);
  const turn = { role: 'assistant', content: null, tool_calls: [call], ...(copyKeeps ? { reasoning_content: 'I should call the weather tool.' } : {}) };
  return jsonl(CHAT, [
    { request: { model: 'deepseek-reasoner', stream: true, messages: [ask] }, response: stream },
    {
      request: { model: 'deepseek-reasoner', messages: [ask, turn, { role: 'tool', tool_call_id: 'call_1', content: 'sunny' }] },
      response: { id: 'c2', model: 'deepseek-reasoner', choices: [{ index: 0, message: { role: 'assistant', content: 'Sunny.' }, finish_reason: 'stop' }], usage: { prompt_tokens: 80, completion_tokens: 5 } },
    },
  ]);
}

const BEDROCK = 'https://bedrock-runtime.us-east-1.amazonaws.com/model/us.anthropic.claude-sonnet-4-5-20250929-v1%3A0';
/** A converse-stream call whose reasoning comes as reasoningContent deltas (Converse usage counts no reasoning); then a request copying its turn. */
function streamedBedrockRun(copyKeeps: boolean): Trace[] {
  const ask = { role: 'user', content: [{ text: 'Weather in Rome?' }] };
  const use = { toolUse: { toolUseId: 't1', name: 'weather', input: { city: 'Rome' } } };
  const bytes = converseStreamBytes([
    ['messageStart', { role: 'assistant' }],
    ['contentBlockDelta', { contentBlockIndex: 0, delta: { reasoningContent: { text: 'Call the tool.' } } }],
    ['contentBlockDelta', { contentBlockIndex: 0, delta: { reasoningContent: { signature: 'sig' } } }],
    ['contentBlockStop', { contentBlockIndex: 0 }],
    ['contentBlockStart', { contentBlockIndex: 1, start: { toolUse: { toolUseId: 't1', name: 'weather' } } }],
    ['contentBlockDelta', { contentBlockIndex: 1, delta: { toolUse: { input: '{"city":"Rome"}' } } }],
    ['contentBlockStop', { contentBlockIndex: 1 }],
    ['messageStop', { stopReason: 'tool_use' }],
    ['metadata', { usage: { inputTokens: 50, outputTokens: 40, totalTokens: 90 }, metrics: { latencyMs: 300 } }],
  ]);
  const kept = { reasoningContent: { reasoningText: { text: 'Call the tool.', signature: 'sig' } } };
  const second = { messages: [ask, { role: 'assistant', content: copyKeeps ? [kept, use] : [use] }, { role: 'user', content: [{ toolResult: { toolUseId: 't1', content: [{ text: 'sunny' }] } }] }] };
  const answer = { output: { message: { role: 'assistant', content: [{ text: 'Sunny.' }] } }, stopReason: 'end_turn', usage: { inputTokens: 80, outputTokens: 5 } };
  const interaction = (uri: string, request: unknown, body: unknown) => ({ request: { method: 'POST', uri, body: JSON.stringify(request) }, response: { status: { code: 200, message: 'OK' }, body } });
  const cassette = stringify(
    { interactions: [interaction(`${BEDROCK}/converse-stream`, { messages: [ask] }, bytes), interaction(`${BEDROCK}/converse`, second, { string: JSON.stringify(answer) })] },
    { schema: 'yaml-1.1' },
  );
  return importCassette(cassette, 'bedrock.yaml');
}

describe("streamed responses: the reasoning deltas are the call's reasoning", () => {
  it('Chat Completions (reasoning_content or reasoning deltas, no reasoning_tokens in the usage): a copy without it → false; with it → unset', () => {
    const header = (field: 'reasoning_content' | 'reasoning', keeps: boolean) => streamedChatRun(field, keeps)[0]!.header.reasoningInPrompt;
    expect([header('reasoning_content', false), header('reasoning', false), header('reasoning_content', true), header('reasoning', true)]).toEqual([false, false, undefined, undefined]);
    expect(streamedChatRun('reasoning_content', false)[0]!.calls[0]!.toolCalls).toEqual([{ name: 'weather', arguments: { city: 'Rome' }, resultTokens: expect.any(Number) }]);
  });

  it('Bedrock converse-stream (reasoningContent deltas): a copy without the reasoningContent block → false; with it → unset', () => {
    const [dropped] = streamedBedrockRun(false);
    expect(dropped!.header.reasoningInPrompt).toBe(false);
    expect(dropped!.header.importedFrom?.notes).toContainEqual(expect.stringMatching(/^reasoningInPrompt false: the reasoning of interaction 0 is left out/));
    expect(dropped!.calls.map((c) => c.toolCalls?.map((t) => [t.name, t.arguments]))).toEqual([[['weather', { city: 'Rome' }]], undefined]);
    expect(streamedBedrockRun(true)[0]!.header.reasoningInPrompt).toBeUndefined();
  });
});

const RESPONSES = 'https://api.openai.com/v1/responses';
const ask = { role: 'user', content: 'Weather in Rome?' };
const reasoning = { type: 'reasoning', id: 'rs_1', summary: [], encrypted_content: 'enc' };
const call = { type: 'function_call', id: 'fc_1', call_id: 'c1', name: 'weather', arguments: '{"city":"Rome"}' };
const output = { type: 'function_call_output', call_id: 'c1', output: 'sunny' };
const usage = (input: number, out: number, reasoningTokens: number) => ({ input_tokens: input, output_tokens: out, output_tokens_details: { reasoning_tokens: reasoningTokens } });
const answer = { id: 'resp_2', model: 'gpt-5', output: [{ type: 'message', id: 'msg_2', role: 'assistant', content: [{ type: 'output_text', text: 'Sunny.' }] }], usage: usage(80, 5, 0) };
const ref = (id: string) => ({ type: 'item_reference', id });

describe('Responses item_reference: a reference carries the reasoning back only when it names a reasoning item of the call', () => {
  const header = (input: unknown[]) =>
    jsonl(RESPONSES, [
      { request: { model: 'gpt-5', store: true, input: [ask] }, response: { id: 'resp_1', model: 'gpt-5', output: [reasoning, call], usage: usage(50, 120, 100) } },
      { request: { model: 'gpt-5', store: true, input }, response: answer },
    ])[0]!.header.reasoningInPrompt;
  it('the function call referenced and the reasoning item left out → false; the reasoning item referenced (or sent) too → unset', () => {
    expect(header([ask, ref('fc_1'), output])).toBe(false);
    expect(header([ask, ref('rs_1'), ref('fc_1'), output])).toBeUndefined();
    expect(header([ask, reasoning, ref('fc_1'), output])).toBeUndefined();
  });
  it('a reference to an item the call did not produce carries nothing back: the sent function call without its reasoning → false', () => {
    expect(header([ask, ref('msg_0'), call, output])).toBe(false);
  });
});

describe('a request joined to the run by a compaction item, whose history does not extend the call\'s, is no copy of its turn', () => {
  it('a rewritten history after the call (its user turn changed) → unset, though the call item it carries has no reasoning', () => {
    const compaction = { type: 'compaction', id: 'cmp_1', encrypted_content: 'enc' };
    const traces = jsonl(RESPONSES, [
      { url: `${RESPONSES}/compact`, request: { model: 'gpt-5', input: [ask] }, response: { id: 'resp_0', object: 'response.compaction', model: 'gpt-5', output: [compaction], usage: usage(40, 10, 0) } },
      { request: { model: 'gpt-5', input: [compaction, { role: 'user', content: 'Go on.' }] }, response: { id: 'resp_1', model: 'gpt-5', output: [reasoning, call], usage: usage(50, 120, 100) } },
      { request: { model: 'gpt-5', input: [compaction, { role: 'user', content: 'Go on, briefly.' }, call, output] }, response: answer },
    ]);
    expect(traces.map((t) => t.calls.length)).toEqual([3]);
    expect(traces[0]!.header.reasoningInPrompt).toBeUndefined();
  });
});
