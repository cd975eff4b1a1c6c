import { userErrorOf } from '../helpers.js';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { importExchangesJsonl, looksLikeExchangeLine } from '../../src/import/http/exchanges.js';
import { countTokens } from '../../src/import/tokenCount.js';
import { traceSchemas } from '../../src/trace/schema.js';
import type { Trace } from '../../src/trace/types.js';

const { callSchema, endSchema, headerSchema } = traceSchemas();

const here = dirname(fileURLToPath(import.meta.url));
const fixtureDir = join(here, '..', 'fixtures', 'http');

/** Imports a fixture and checks every record against the native trace schemas. */
function fixture(name: string): Trace[] {
  const traces = importExchangesJsonl(readFileSync(join(fixtureDir, name), 'utf8'), name);
  for (const t of traces) {
    headerSchema.parse(t.header);
    for (const c of t.calls) callSchema.parse(c);
    endSchema.parse(t.end);
  }
  return traces;
}
function jsonl(...records: unknown[]): string {
  return records.map((r) => (typeof r === 'string' ? r : JSON.stringify(r))).join('\n') + '\n';
}

const CHAT_URL = 'https://api.openai.com/v1/chat/completions';
const chatRequest = (messages: unknown[]) => ({ model: 'gpt-4o-mini', messages });
const chatResponse = (message: Record<string, unknown>, usage: Record<string, unknown>) => ({
  id: 'chatcmpl-x',
  object: 'chat.completion',
  model: 'gpt-4o-mini-2024-07-18',
  choices: [{ index: 0, message: { role: 'assistant', ...message }, finish_reason: 'stop' }],
  usage,
});
const SYSTEM = { role: 'system', content: 'You are terse.' };
const GOAL = { role: 'user', content: 'List the files.' };
const CALL = { id: 'call_1', type: 'function', function: { name: 'ls', arguments: '{"path": "."}' } };

describe('Anthropic exchanges (JSONL)', () => {
  const [t] = fixture('anthropic-cache.jsonl');
  const model = 'claude-sonnet-4-5';

  it('adds cache reads and writes back into inputTokens and splits the 5-minute and 1-hour writes', () => {
    // line 1: input 35 + cache_creation 2600 (600 5m + 2000 1h)
    expect(t!.calls[0]).toMatchObject({ inputTokens: 35 + 2600, cachedInputTokens: 0, cacheWriteTokens: 600, cacheWrite1hTokens: 2000, outputTokens: 48, latencyMs: 1840 });
    // line 2: input 61 + cache_read 2600
    expect(t!.calls[1]).toMatchObject({ inputTokens: 61 + 2600, cachedInputTokens: 2600, cacheWriteTokens: 0, cacheWrite1hTokens: 0, outputTokens: 40 });
    // line 3: no cache_creation breakdown: all writes are 5-minute writes
    expect(t!.calls[2]).toMatchObject({ inputTokens: 52 + 2600 + 110, cachedInputTokens: 2600, cacheWriteTokens: 110, outputTokens: 14, final: true });
    expect(t!.calls[2]!.cacheWrite1hTokens).toBeUndefined();
  });

  it('matches tool_result blocks by id and flags is_error', () => {
    const [first, second] = t!.calls.map((c) => c.toolCalls?.[0]);
    expect(first).toEqual({
      name: 'read_file',
      arguments: { path: 'pkg.json' },
      resultTokens: countTokens("ENOENT: no such file or directory, open 'pkg.json'", model),
      error: "ENOENT: no such file or directory, open 'pkg.json'",
    });
    expect(second).toEqual({
      name: 'read_file',
      arguments: { path: 'package.json' },
      resultTokens: countTokens('{\n  "name": "loopcost",\n  "version": "0.1.0"\n}', model),
    });
  });

  it('fills the header from the first request', () => {
    expect(t!.source).toBe('anthropic-cache.jsonl');
    expect(t!.header).toMatchObject({
      model,
      provider: 'anthropic',
      origin: 'recorded',
      systemTokens: countTokens('You are a release assistant. Use the tools to inspect the repository before answering.', model),
      goalTokens: countTokens('Which version does package.json declare?', model),
      importedFrom: { format: 'http-exchanges', path: 'anthropic-cache.jsonl' },
    });
    expect(t!.end).toEqual({ type: 'end', outcome: 'completed', recordedCalls: 3 });
  });
});

describe('OpenAI Chat Completions exchanges', () => {
  it('detects the API from the bodies when there is no url; keeps a 429 and the OpenRouter cost', () => {
    const traces = fixture('openrouter-no-url.jsonl');
    expect(traces).toHaveLength(1);
    const [t] = traces;
    expect(t!.calls[0]).toEqual({ type: 'call', inputTokens: 0, outputTokens: 0, failed: { status: 429, message: 'Rate limit exceeded: free-models-per-min' } });
    expect(t!.calls[1]).toMatchObject({ inputTokens: 21, cachedInputTokens: 0, outputTokens: 2, recordedCostUsd: 0.0000044, final: true });
    expect(t!.header.provider).toBe('openrouter');
    expect(t!.end).toEqual({ type: 'end', outcome: 'completed', recordedCalls: 2, recordedCostUsd: 0.0000044 });
  });

  it('maps every usage field and parses arguments (raw string when not JSON)', () => {
    const badCall = { id: 'call_2', type: 'function', function: { name: 'ls', arguments: '{"path": ' } };
    const text = jsonl(
      {
        url: CHAT_URL,
        request: chatRequest([SYSTEM, GOAL]),
        response: chatResponse(
          { content: null, tool_calls: [CALL, badCall] },
          { prompt_tokens: 1200, completion_tokens: 300, prompt_tokens_details: { cached_tokens: 1024 }, completion_tokens_details: { reasoning_tokens: 256 } },
        ),
      },
      {
        url: CHAT_URL,
        request: chatRequest([
          SYSTEM,
          GOAL,
          { role: 'assistant', tool_calls: [CALL, badCall] },
          { role: 'tool', tool_call_id: 'call_2', content: 'invalid JSON arguments' },
          { role: 'tool', tool_call_id: 'call_1', content: 'a.txt\nb.txt' },
        ]),
        response: chatResponse({ content: 'a.txt and b.txt' }, { prompt_tokens: 1300, completion_tokens: 9 }),
      },
    );
    const [t] = importExchangesJsonl(text, 'chat.jsonl');
    expect(t!.calls[0]).toEqual({
      type: 'call',
      inputTokens: 1200,
      cachedInputTokens: 1024,
      outputTokens: 300,
      reasoningTokens: 256,
      toolCalls: [
        { name: 'ls', arguments: { path: '.' }, resultTokens: countTokens('a.txt\nb.txt', 'gpt-4o-mini') },
        { name: 'ls', arguments: '{"path": ', resultTokens: countTokens('invalid JSON arguments', 'gpt-4o-mini') },
      ],
    });
    expect(t!.calls[1]).toEqual({ type: 'call', inputTokens: 1300, outputTokens: 9, final: true });
    expect(t!.header.systemTokens).toBe(countTokens('You are terse.', 'gpt-4o-mini'));
    expect(t!.header.goalTokens).toBe(countTokens('List the files.', 'gpt-4o-mini'));
  });

  it('gives the last call tool calls with resultTokens 0 and an unknown outcome when no later request holds results', () => {
    const text = jsonl({
      url: CHAT_URL,
      request: chatRequest([GOAL]),
      response: chatResponse({ content: null, tool_calls: [CALL] }, { prompt_tokens: 50, completion_tokens: 12 }),
    });
    const [t] = importExchangesJsonl(text, 'cut.jsonl');
    expect(t!.calls[0]!.toolCalls).toEqual([{ name: 'ls', arguments: { path: '.' }, resultTokens: 0 }]);
    expect(t!.end).toEqual({ type: 'end', outcome: 'unknown', recordedCalls: 1 });
  });

  it('ends with outcome error when the last exchange failed', () => {
    const text = jsonl(
      { url: CHAT_URL, request: chatRequest([GOAL]), response: chatResponse({ content: null, tool_calls: [CALL] }, { prompt_tokens: 50, completion_tokens: 12 }) },
      {
        url: CHAT_URL,
        status: 500,
        request: chatRequest([GOAL, { role: 'assistant', tool_calls: [CALL] }, { role: 'tool', tool_call_id: 'call_1', content: 'x' }]),
        response: { error: { message: 'The server had an error while processing your request.', type: 'server_error' } },
      },
    );
    const [t] = importExchangesJsonl(text, 'e.jsonl');
    expect(t!.calls[0]!.toolCalls![0]!.resultTokens).toBe(countTokens('x', 'gpt-4o-mini'));
    expect(t!.calls[1]!.failed).toEqual({ status: 500, message: 'The server had an error while processing your request.' });
    expect(t!.end).toEqual({ type: 'end', outcome: 'error', status: 'HTTP 500', recordedCalls: 2 });
  });

  it('splits two conversations into two runs with #n sources', () => {
    const one = { url: CHAT_URL, request: chatRequest([GOAL]), response: chatResponse({ content: 'ok' }, { prompt_tokens: 10, completion_tokens: 1 }) };
    const traces = importExchangesJsonl(jsonl(one, one), 'two.jsonl');
    expect(traces.map((t) => t.source)).toEqual(['two.jsonl#1', 'two.jsonl#2']);
    expect(traces.map((t) => t.calls.length)).toEqual([1, 1]);
  });
});

describe('OpenAI Responses and Gemini exchanges', () => {
  it('maps Responses usage, function_call items and function_call_output retry prompts', () => {
    const url = 'https://api.openai.com/v1/responses';
    const fc = { type: 'function_call', call_id: 'call_a', name: 'grep', arguments: '{"pattern": "TODO"}', id: 'fc_1' };
    const text = jsonl(
      {
        url,
        request: { model: 'gpt-5', instructions: 'Be precise.', input: 'Count the TODOs.' },
        response: {
          id: 'resp_1',
          object: 'response',
          model: 'gpt-5-2025-08-07',
          output: [{ type: 'reasoning', id: 'rs_1', summary: [] }, fc],
          usage: { input_tokens: 900, input_tokens_details: { cached_tokens: 768 }, output_tokens: 400, output_tokens_details: { reasoning_tokens: 350 } },
        },
      },
      {
        url,
        request: {
          model: 'gpt-5',
          instructions: 'Be precise.',
          input: [
            { role: 'user', content: 'Count the TODOs.' },
            fc,
            { type: 'function_call_output', call_id: 'call_a', output: 'Unknown flag.\n\nFix the errors and try again.' },
          ],
        },
        response: {
          id: 'resp_2',
          object: 'response',
          output: [{ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'None.' }] }],
          usage: { input_tokens: 960, input_tokens_details: { cached_tokens: 896 }, output_tokens: 20, output_tokens_details: { reasoning_tokens: 0 } },
        },
      },
    );
    const [t] = importExchangesJsonl(text, 'resp.jsonl');
    expect(t!.header).toMatchObject({ model: 'gpt-5', provider: 'openai', systemTokens: countTokens('Be precise.', 'gpt-5'), goalTokens: countTokens('Count the TODOs.', 'gpt-5') });
    expect(t!.calls[0]).toEqual({
      type: 'call',
      inputTokens: 900,
      cachedInputTokens: 768,
      outputTokens: 400,
      reasoningTokens: 350,
      toolCalls: [
        {
          name: 'grep',
          arguments: { pattern: 'TODO' },
          resultTokens: countTokens('Unknown flag.\n\nFix the errors and try again.', 'gpt-5'),
          error: 'Unknown flag.',
        },
      ],
    });
    expect(t!.calls[1]).toMatchObject({ inputTokens: 960, cachedInputTokens: 896, outputTokens: 20, final: true });
  });

  it('maps Gemini thoughts, cached content and functionCall / functionResponse (no url)', () => {
    const contents = [{ role: 'user', parts: [{ text: 'Weather in Rome?' }] }];
    const call = { functionCall: { name: 'weather', args: { city: 'Rome' } } };
    const text = jsonl(
      {
        request: { contents, systemInstruction: { parts: [{ text: 'Use tools.' }] } },
        response: {
          candidates: [{ content: { role: 'model', parts: [call] } }],
          modelVersion: 'gemini-2.5-flash',
          usageMetadata: { promptTokenCount: 1500, cachedContentTokenCount: 1024, candidatesTokenCount: 10, thoughtsTokenCount: 90, totalTokenCount: 1600 },
        },
      },
      {
        request: {
          contents: [...contents, { role: 'model', parts: [call] }, { role: 'user', parts: [{ functionResponse: { name: 'weather', response: { return_value: 'sunny, 24C' } } }] }],
          systemInstruction: { parts: [{ text: 'Use tools.' }] },
        },
        response: {
          candidates: [{ content: { role: 'model', parts: [{ text: 'Sunny, 24C.' }] } }],
          modelVersion: 'gemini-2.5-flash',
          usageMetadata: { promptTokenCount: 1530, candidatesTokenCount: 6, totalTokenCount: 1536 },
        },
      },
    );
    const [t] = importExchangesJsonl(text, 'gemini.jsonl');
    expect(t!.header).toMatchObject({ model: 'gemini-2.5-flash', provider: 'google' });
    expect(t!.calls[0]).toEqual({
      type: 'call',
      inputTokens: 1500,
      cachedInputTokens: 1024,
      outputTokens: 100,
      reasoningTokens: 90,
      toolCalls: [{ name: 'weather', arguments: { city: 'Rome' }, resultTokens: countTokens('{"return_value":"sunny, 24C"}', 'gemini-2.5-flash') }],
    });
    expect(t!.calls[1]).toMatchObject({ inputTokens: 1530, cachedInputTokens: 0, outputTokens: 6, final: true });
  });
});

describe('malformed exchanges give UserErrors naming file, line and field', () => {
  const good = { url: CHAT_URL, request: chatRequest([GOAL]), response: chatResponse({ content: 'ok' }, { prompt_tokens: 10, completion_tokens: 1 }) };

  it('a truncated JSON line', () => {
    const line = JSON.stringify(good);
    const cut = line.slice(0, line.indexOf('"completion_tokens"') + 5);
    const err = userErrorOf(() => importExchangesJsonl(jsonl(good, cut), 'cut.jsonl'));
    // The field is where the line stops: inside response.usage.
    expect(err.issues[0]).toMatchObject({ file: 'cut.jsonl', line: 2, field: 'response.usage', code: 'invalid_json' });
    expect(err.message).toMatch(/^cut\.jsonl:line 2 field 'response\.usage': line is not valid JSON/);
    const midValue = line.slice(0, line.indexOf('"List the') + 6);
    expect(userErrorOf(() => importExchangesJsonl(midValue, 'v.jsonl')).issues[0]).toMatchObject({ line: 1, field: 'request.messages[0].content' });
  });

  it('missing usage', () => {
    const noUsage = { ...good, response: { ...good.response, usage: undefined } };
    const err = userErrorOf(() => importExchangesJsonl(jsonl(good, noUsage), 'u.jsonl'));
    expect(err.issues[0]).toMatchObject({ file: 'u.jsonl', line: 2, field: 'response.usage', code: 'missing_field' });
  });

  it('wrong types', () => {
    const cases: [Record<string, unknown>, string, string][] = [
      [{ ...good, response: { ...good.response, usage: { prompt_tokens: '10', completion_tokens: 1 } } }, 'response.usage.prompt_tokens', 'wrong_type'],
      [{ ...good, response: { ...good.response, usage: { prompt_tokens: 10, completion_tokens: -1 } } }, 'response.usage.completion_tokens', 'negative_number'],
      [{ ...good, response: { ...good.response, usage: { prompt_tokens: 10.5, completion_tokens: 1 } } }, 'response.usage.prompt_tokens', 'wrong_type'],
      [{ ...good, response: { ...good.response, choices: 'none' } }, 'response.choices', 'wrong_type'],
      [{ ...good, request: { model: 'gpt-4o', messages: [{ content: 'no role' }] } }, 'request.messages[0].role', 'missing_field'],
      [{ ...good, request: 'POST /v1/chat' }, 'request', 'wrong_type'],
      [{ ...good, status: '200' }, 'status', 'wrong_type'],
      [{ ...good, latencyMs: -3 }, 'latencyMs', 'wrong_type'],
      [{ ...good, url: 42 }, 'url', 'wrong_type'],
    ];
    for (const [record, field, code] of cases) {
      const err = userErrorOf(() => importExchangesJsonl(jsonl(record), 'w.jsonl'));
      expect(err.issues[0], field).toMatchObject({ file: 'w.jsonl', line: 1, field, code });
    }
  });

  it('bodies of no known API', () => {
    const shapeless = userErrorOf(() => importExchangesJsonl(jsonl({ request: { prompt: 'hi' }, response: { text: 'hello' } }), 's.jsonl'));
    expect(shapeless.issues[0]).toMatchObject({ file: 's.jsonl', line: 1, field: 'request', code: 'unknown_shape' });
  });

  it('a line that is not an exchange, and an empty file', () => {
    expect(userErrorOf(() => importExchangesJsonl('[1, 2]\n', 'a.jsonl')).issues[0]).toMatchObject({ file: 'a.jsonl', line: 1, code: 'wrong_type' });
    expect(userErrorOf(() => importExchangesJsonl(jsonl({ request: good.request }), 'r.jsonl')).issues[0]).toMatchObject({ line: 1, field: 'response', code: 'missing_field' });
    expect(userErrorOf(() => importExchangesJsonl('\n\n', 'e.jsonl')).issues[0]).toMatchObject({ file: 'e.jsonl', code: 'empty_input' });
  });
});

describe('looksLikeExchangeLine', () => {
  it('wants a request object and a response', () => {
    expect(looksLikeExchangeLine({ request: {}, response: null })).toBe(true);
    expect(looksLikeExchangeLine({ request: {}, response: {}, status: 200, url: CHAT_URL })).toBe(true);
    expect(looksLikeExchangeLine({ request: {} })).toBe(false);
    expect(looksLikeExchangeLine({ type: 'header' })).toBe(false);
    expect(looksLikeExchangeLine([])).toBe(false);
    expect(looksLikeExchangeLine(null)).toBe(false);
  });
});

describe('streamed responses and compatible hosts in exchanges JSONL', () => {
  const good = { url: CHAT_URL, request: chatRequest([GOAL]), response: chatResponse({ content: 'ok' }, { prompt_tokens: 10, completion_tokens: 1 }) };
  it('an SSE body and a list of parsed events: usage (cache read, 1-hour write), tool input from fragments, timings', () => {
    const [t] = fixture('anthropic-stream.jsonl');
    const model = 'claude-sonnet-4-5';
    expect(t!.calls).toEqual([
      {
        type: 'call',
        inputTokens: 35 + 600 + 2000,
        cachedInputTokens: 600,
        cacheWriteTokens: 0,
        cacheWrite1hTokens: 2000,
        outputTokens: 52, // message_delta's cumulative count, not message_start's 1
        latencyMs: 2310,
        toolCalls: [{ name: 'read_file', arguments: { path: 'package.json' }, resultTokens: countTokens('{\n  "name": "loopcost",\n  "version": "0.1.0"\n}', model) }],
      },
      { type: 'call', inputTokens: 61 + 2600, cachedInputTokens: 2600, cacheWriteTokens: 0, outputTokens: 9, latencyMs: 980, final: true },
    ]);
    const notes = t!.header.importedFrom?.notes ?? [];
    expect(notes).toContain('2 of 2 calls streamed (sse, json-array), reassembled from 17 events');
    expect(notes).toContain('line 1: time to first token 412 ms of 2310 ms');
  });

  it('chunks without a url: the API and provider (Groq, x_groq.usage) read from the chunks', () => {
    const [t] = fixture('groq-chunks-no-url.jsonl');
    expect(t!.header).toMatchObject({ model: 'llama-3.3-70b-versatile', provider: 'groq' });
    expect(t!.calls).toEqual([{ type: 'call', inputTokens: 120, outputTokens: 18, toolCalls: [{ name: 'ls', arguments: { path: '.' }, resultTokens: 0 }] }]);
  });

  it('a compatible API on any host: the path decides, the host is the provider hint', () => {
    const cerebras = { ...good, url: 'https://api.cerebras.ai/v1/chat/completions' };
    expect(importExchangesJsonl(jsonl(cerebras), 'c.jsonl')[0]!.header.provider).toBe('cerebras');
    const [selfHosted] = importExchangesJsonl(jsonl({ ...good, url: 'http://10.0.0.7:8000/v1/chat/completions' }), 'h.jsonl');
    expect(selfHosted!.header.provider).toBe('10.0.0.7');
    expect(selfHosted!.calls).toEqual([{ type: 'call', inputTokens: 10, outputTokens: 1, final: true }]);
    const skipped = importExchangesJsonl(jsonl({ url: 'https://api.tavily.com/search', request: { query: 'x' }, response: { results: [] } }, good), 's.jsonl');
    expect(skipped[0]!.header.importedFrom?.notes).toContain('line 1: skipped POST api.tavily.com/search (not a model call)');
  });

  it('firstTokenMs must be a non-negative number', () => {
    const err = userErrorOf(() => importExchangesJsonl(jsonl({ ...good, firstTokenMs: 'fast' }), 'f.jsonl'));
    expect(err.issues[0]).toMatchObject({ file: 'f.jsonl', line: 1, field: 'firstTokenMs', code: 'wrong_type' });
  });
});
