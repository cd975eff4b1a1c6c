/**
 * Streamed responses reassembled into one call each. Fixtures are real pydantic-ai cassettes trimmed by
 * scripts/trim-cassette.mjs (see test/fixtures/cassettes/README.md); every usage figure below is the one
 * in the stream's own usage event.
 */
import fc from 'fast-check';
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { NO_BRAKES } from '../../src/brakes/config.js';
import { Reader } from '../../src/import/http/bodyReader.js';
import { UserError } from '../../src/errors.js';
import { importCassette } from '../../src/import/http/cassette.js';
import { sseEvents } from '../../src/import/http/stream/events.js';
import { countTokens } from '../../src/import/tokenCount.js';
import { loadPriceTable } from '../../src/pricing/index.js';
import { replayTrace } from '../../src/replay/replay.js';
import { traceSchemas } from '../../src/trace/schema.js';
import type { Trace } from '../../src/trace/types.js';
import { userErrorOf } from '../helpers.js';
import { eventStreamMessage } from './eventStreamBytes.js';

const { callSchema, endSchema, headerSchema } = traceSchemas();

const fixtureDir = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'cassettes');
const text = (name: string): string => readFileSync(join(fixtureDir, name), 'utf8');

/** Imports a cassette text and checks every record against the native schemas. */
function load(content: string, name: string): Trace[] {
  const traces = importCassette(content, name);
  for (const t of traces) {
    headerSchema.parse(t.header);
    for (const c of t.calls) callSchema.parse(c);
    endSchema.parse(t.end);
  }
  return traces;
}
const fixture = (name: string): Trace[] => load(text(name), name);

describe('Chat Completions streams', () => {
  it('OpenAI: tool-call arguments rebuilt from their fragments, usage from the include_usage chunk', () => {
    const [t] = fixture('stream-openai-chat-tools.yaml');
    expect(t!.calls).toEqual([
      {
        type: 'call',
        inputTokens: 53,
        cachedInputTokens: 0,
        outputTokens: 15,
        reasoningTokens: 0,
        // Arguments arrived as '{"', 'country', '":"', 'UK', '"}'.
        toolCalls: [{ name: 'get_capital', arguments: { country: 'UK' }, resultTokens: countTokens('London', 'gpt-4o-mini') }],
      },
      { type: 'call', inputTokens: 78, cachedInputTokens: 0, outputTokens: 9, reasoningTokens: 0, final: true },
    ]);
    expect(t!.end).toEqual({ type: 'end', outcome: 'completed', recordedCalls: 2 });
    expect(t!.header.importedFrom?.notes).toContain('2 of 2 calls streamed (sse), reassembled from 14 events');
  });

  it('OpenRouter: cached and reasoning tokens and usage.cost, which the bundled table reproduces exactly', () => {
    const [cost] = fixture('stream-openrouter-chat-cache-cost.yaml');
    expect(cost!.calls).toEqual([
      { type: 'call', inputTokens: 254, cachedInputTokens: 0, cacheWriteTokens: 0, outputTokens: 5, reasoningTokens: 0, recordedCostUsd: 0.000837, final: true },
    ]);
    const replayed = replayTrace(cost!, { brakes: NO_BRAKES, strategy: { kind: 'full' }, prices: loadPriceTable({}) });
    expect(replayed.costPico).toBe(837_000_000);
    expect(replayed.recordedCostPico).toBe(837_000_000);

    const [routed] = fixture('stream-openrouter-chat-cost.yaml');
    expect(routed!.calls).toEqual([
      { type: 'call', inputTokens: 687, cachedInputTokens: 679, outputTokens: 187, reasoningTokens: 118, recordedCostUsd: 0.00333825, final: true },
    ]);
    // The request named fallback models; the note says which one served the call.
    expect(routed!.header.importedFrom?.notes).toContain(
      'interaction 0: served by x-ai/grok-4, one of the router\'s fallback models for google/gemini-2.0-flash-exp:free (priced as google/gemini-2.0-flash-exp:free)',
    );
  });

  it("Groq: usage in x_groq.usage; a stream error is a failed call that keeps the rejected tool call", () => {
    const [t] = fixture('stream-groq-tool-use-failed.yaml');
    const [failed, second, third] = t!.calls;
    expect(failed!.failed?.message).toMatch(/^error in the stream: Tool call validation failed/);
    expect(failed!.failed?.status).toBeUndefined(); // the HTTP status was 200
    expect(failed!.toolCalls?.[0]).toMatchObject({ name: 'get_something_by_name', arguments: { invalid_param: 'value' } });
    expect(second).toMatchObject({ inputTokens: 304, outputTokens: 49, reasoningTokens: 23 });
    expect(second!.toolCalls).toEqual([{ name: 'get_something_by_name', arguments: { name: 'example' }, resultTokens: expect.any(Number) }]);
    expect(third).toMatchObject({ inputTokens: 339, outputTokens: 58, reasoningTokens: 38, final: true });
    expect(t!.header.provider).toBe('groq');
  });

  it('Mistral and z.ai (reasoning tokens) streams', () => {
    const [mistral] = fixture('stream-mistral-chat.yaml');
    expect(mistral!.calls).toEqual([{ type: 'call', inputTokens: 10, outputTokens: 232, final: true }]);
    expect(mistral!.header).toMatchObject({ model: 'magistral-medium-latest', provider: 'mistral' });
    const [zai] = fixture('compat-zai-stream.yaml');
    expect(zai!.calls).toEqual([{ type: 'call', inputTokens: 13, cachedInputTokens: 0, outputTokens: 564, reasoningTokens: 561, final: true }]);
    expect(zai!.header).toMatchObject({ model: 'glm-4.7', provider: 'zai' });
  });

  it('a stream that finished without usage is refused; one cut before its end is a failed call', () => {
    const original = text('stream-openai-chat-tools.yaml');
    const usageChunk = /\n +data: \{[^\n]*"usage":\{"prompt_tokens":53[^\n]*\n/;
    const noUsage = userErrorOf(() => load(original.replace(usageChunk, '\n'), 'no-usage.yaml'));
    expect(noUsage.issues[0]).toMatchObject({ code: 'missing_field', field: 'interactions[0].response.body.string(reassembled stream).usage' });
    // Cut after the third argument fragment: no finish_reason, no usage, no [DONE].
    const doc = parse(original);
    const body: string = doc.interactions[0].response.body.string;
    doc.interactions[0].response.body.string = body.split('\n\n').slice(0, 3).join('\n\n') + '\n\n';
    const [cut] = load(stringify(doc), 'cut.yaml');
    expect(cut!.calls[0]).toEqual({
      type: 'call',
      inputTokens: 0,
      outputTokens: 0,
      failed: { message: 'the stream ended after 3 event(s) without a finish_reason (cancelled or cut off): usage unknown' },
    });
  });
});

describe('Responses API streams (event: response.*)', () => {
  it('reads the terminal response.completed event: usage with cached and reasoning tokens, function calls', () => {
    const [t] = fixture('stream-deepseek-responses-tools.yaml');
    expect(t!.header).toMatchObject({ model: 'deepseek-v4-flash', provider: 'deepseek' });
    expect(t!.calls).toEqual([
      {
        type: 'call',
        inputTokens: 366,
        cachedInputTokens: 256,
        outputTokens: 59,
        reasoningTokens: 14,
        toolCalls: [{ name: 'get_temperature', arguments: { city: 'Tokyo' }, resultTokens: expect.any(Number) }],
      },
      { type: 'call', inputTokens: 440, cachedInputTokens: 384, outputTokens: 14, reasoningTokens: 0, final: true },
    ]);
    const [openai] = fixture('stream-openai-responses.yaml');
    expect(openai!.calls[0]).toMatchObject({ inputTokens: 53, outputTokens: 469, reasoningTokens: 448 });
    expect(openai!.calls[0]!.toolCalls).toEqual([{ name: 'final_result', arguments: { result: 6666 }, resultTokens: 0 }]);
  });

  it('an error event is a failed call', () => {
    const sse = 'event: response.created\ndata: {"type":"response.created","response":{"id":"resp_1"}}\n\nevent: error\ndata: {"type":"error","code":"server_error","message":"The server had an error"}\n\n';
    const cassette = stringify({
      interactions: [
        {
          request: { method: 'POST', uri: 'https://api.openai.com/v1/responses', body: JSON.stringify({ model: 'gpt-5', input: 'hi', stream: true }) },
          response: { status: { code: 200, message: 'OK' }, body: { string: sse } },
        },
      ],
    });
    const [t] = load(cassette, 'e.yaml');
    expect(t!.calls[0]!.failed).toEqual({ message: 'error in the stream: The server had an error' });
  });
});

describe('Anthropic Messages streams', () => {
  it('message_start + message_delta usage; tool_use input rebuilt from input_json_delta fragments', () => {
    const [t] = fixture('stream-anthropic-tool-use.yaml');
    const model = 'claude-sonnet-4-6';
    expect(t!.calls[0]).toEqual({
      type: 'call',
      inputTokens: 1591,
      cachedInputTokens: 0,
      cacheWriteTokens: 0,
      cacheWrite1hTokens: 0,
      outputTokens: 175, // message_delta's cumulative output_tokens (message_start said 1)
      toolCalls: [{ name: 'get_exchange_rate', arguments: { from_currency: 'USD', to_currency: 'EUR' }, resultTokens: expect.any(Number) }],
    });
    expect(t!.calls[1]).toMatchObject({ inputTokens: 1007, outputTokens: 59, final: true });
    expect(t!.header.model).toBe(model);
    expect(t!.header.importedFrom?.notes).toContain('interaction 0: 1 server-side tool use(s) inside the call, not counted as tool calls');
  });

  it('Bedrock invoke-with-response-stream: Anthropic events in event-stream chunks, latency and first-byte time from the invocation metrics', () => {
    // Synthetic (no such recording in pydantic-ai): the framing AWS documents for InvokeModelWithResponseStream.
    const events = [
      { type: 'message_start', message: { id: 'msg_1', type: 'message', role: 'assistant', model: 'claude-sonnet-4-5', content: [], usage: { input_tokens: 20, cache_read_input_tokens: 1000, cache_creation_input_tokens: 0, output_tokens: 1 } } },
      { type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: 'toolu_1', name: 'ls', input: {} } },
      { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '{"pa' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: 'th": "."}' } },
      { type: 'content_block_stop', index: 0 },
      { type: 'message_delta', delta: { stop_reason: 'tool_use' }, usage: { output_tokens: 31 } },
      { type: 'message_stop', 'amazon-bedrock-invocationMetrics': { inputTokenCount: 20, outputTokenCount: 31, invocationLatency: 1234, firstByteLatency: 456 } },
    ];
    const bytes = Buffer.concat(
      events.map((e) => eventStreamMessage({ ':event-type': 'chunk', ':content-type': 'application/json', ':message-type': 'event' }, JSON.stringify({ bytes: Buffer.from(JSON.stringify(e)).toString('base64') }))),
    );
    const cassette = stringify(
      {
        interactions: [
          {
            request: {
              method: 'POST',
              uri: 'https://bedrock-runtime.us-east-1.amazonaws.com/model/us.anthropic.claude-sonnet-4-5-20250929-v1%3A0/invoke-with-response-stream',
              body: JSON.stringify({ anthropic_version: 'bedrock-2023-05-31', max_tokens: 100, messages: [{ role: 'user', content: 'List the files.' }] }),
            },
            response: { status: { code: 200, message: 'OK' }, headers: { 'content-type': ['application/vnd.amazon.eventstream'] }, body: new Uint8Array(bytes) },
          },
        ],
      },
      { schema: 'yaml-1.1' },
    );
    const [t] = load(cassette, 'invoke.yaml');
    expect(t!.header).toMatchObject({ model: 'us.anthropic.claude-sonnet-4-5-20250929-v1:0', provider: 'aws' });
    expect(t!.calls).toEqual([
      { type: 'call', inputTokens: 1020, cachedInputTokens: 1000, cacheWriteTokens: 0, outputTokens: 31, latencyMs: 1234, toolCalls: [{ name: 'ls', arguments: { path: '.' }, resultTokens: 0 }] },
    ]);
    expect(t!.header.importedFrom?.notes).toContain('interaction 0: time to first token 456 ms of 1234 ms');
  });
});

describe('Gemini streamGenerateContent', () => {
  it('SSE: thoughts as reasoning, the last usageMetadata, function calls', () => {
    const [t] = fixture('stream-gemini-tools.yaml');
    expect(t!.header).toMatchObject({ model: 'gemini-3-flash-preview', provider: 'google' });
    expect(t!.calls).toEqual([
      { type: 'call', inputTokens: 29, cachedInputTokens: 0, outputTokens: 81, reasoningTokens: 69, toolCalls: [{ name: 'get_user_country', arguments: {}, resultTokens: expect.any(Number) }] },
      { type: 'call', inputTokens: 128, cachedInputTokens: 0, outputTokens: 51, reasoningTokens: 30, final: true },
    ]);
  });

  it('the JSON-array form (no alt=sse) gives the same calls', () => {
    const doc = parse(text('stream-gemini-tools.yaml'));
    for (const interaction of doc.interactions) {
      const chunks = sseEvents(interaction.response.body.string, new Reader({ file: 'x', base: '' })).events.map((e) => e.data);
      interaction.request.uri = interaction.request.uri.replace('?alt=sse', '');
      interaction.response.body.string = `[${chunks.map((c) => JSON.stringify(c)).join(',\r\n')}]`;
      interaction.response.headers['content-type'] = ['application/json; charset=UTF-8'];
    }
    const [asArray] = load(stringify(doc), 'array.yaml');
    const [asSse] = fixture('stream-gemini-tools.yaml');
    expect(asArray!.calls).toEqual(asSse!.calls);
    expect(asArray!.header.importedFrom?.notes).toContain('2 of 2 calls streamed (json-array), reassembled from 5 events');
  });
});

describe('Bedrock converse-stream (AWS event-stream bytes)', () => {
  it('tool use from toolUse.input fragments, usage and latency from the metadata event', () => {
    const [t] = fixture('stream-bedrock-converse-tools.yaml');
    expect(t!.header).toMatchObject({ model: 'us.amazon.nova-micro-v1:0', provider: 'aws' });
    expect(t!.calls).toEqual([
      { type: 'call', inputTokens: 471, cachedInputTokens: 0, outputTokens: 91, latencyMs: 422, toolCalls: [{ name: 'get_temperature', arguments: { city: 'Paris' }, resultTokens: countTokens('30°C', 'us.amazon.nova-micro-v1:0') }] },
      { type: 'call', inputTokens: 577, cachedInputTokens: 0, outputTokens: 18, latencyMs: 223, final: true },
    ]);
    expect(t!.header.importedFrom?.notes?.[0]).toMatch(/^2 of 2 calls streamed \(event-stream\), reassembled from \d+ events$/);
  });

  it('a damaged event-stream body is refused (checksums)', () => {
    const doc = parse(text('stream-bedrock-converse-tools.yaml'), { schema: 'yaml-1.1' });
    const bytes: Uint8Array = doc.interactions[0].response.body;
    bytes[40] = bytes[40]! ^ 0xff;
    const err = userErrorOf(() => load(stringify(doc, { schema: 'yaml-1.1' }), 'bad.yaml'));
    expect(err.issues[0]).toMatchObject({ file: 'bad.yaml', code: 'invalid_event_stream', field: 'interactions[0].response.body(reassembled stream)' });
    expect(err.issues[0]!.message).toMatch(/event-stream message 0 at byte 0 is malformed: message checksum mismatch/);
  });
});

describe('SSE framing', () => {
  const r = new Reader({ file: 'f', base: 'b' });
  it('joins multi-line data, skips comments, reads CRLF and CR line ends, stops at [DONE]', () => {
    const body = ': OPENROUTER PROCESSING\r\n\r\nevent: x\r\ndata: {"a":\r\ndata: 1}\r\n\r\ndata: {"type":"t","b":2}\r\rdata: [DONE]\n\n';
    const s = sseEvents(body, r);
    expect(s.events.map((e) => [e.name, e.data])).toEqual([
      ['x', { a: 1 }],
      ['t', { type: 't', b: 2 }],
    ]);
    expect(s.done).toBe(true);
  });

  it('a data field that is not JSON names its line', () => {
    const err = userErrorOf(() => sseEvents('data: {"a": 1}\n\ndata: {oops\n\n', r));
    expect(err.issues[0]).toMatchObject({ file: 'f', field: 'b', code: 'invalid_json' });
    expect(err.issues[0]!.message).toMatch(/^stream event at line 3 of the body is not valid JSON/);
  });
});

describe('damaged streams', () => {
  const streams = readdirSync(fixtureDir).filter((f) => /^(stream-|compat-zai)/.test(f));
  it('events dropped, duplicated, cut or garbled: a trace or a UserError naming the file, never an internal error', () => {
    expect(streams.length).toBeGreaterThanOrEqual(10);
    let imported = 0;
    let refused = 0;
    fc.assert(
      fc.property(fc.constantFrom(...streams), fc.integer({ min: 0, max: 1000 }), fc.constantFrom('drop', 'repeat', 'cut', 'garble', 'swap'), (name, n, how) => {
        const doc = parse(text(name), { schema: 'yaml-1.1' });
        for (const interaction of doc.interactions) {
          const body = interaction.response.body;
          if (body instanceof Uint8Array) {
            const k = n % body.length;
            interaction.response.body = how === 'cut' ? body.subarray(0, k) : body.map((b, i) => (i === k && how === 'garble' ? b ^ 0x55 : b));
            continue;
          }
          const blocks: string[] = body.string.split('\n\n');
          const k = n % blocks.length;
          if (how === 'drop') blocks.splice(k, 1);
          if (how === 'repeat') blocks.splice(k, 0, blocks[k]!);
          if (how === 'cut') blocks.length = k;
          if (how === 'garble') blocks[k] = blocks[k]!.replace(/\d+/, '-7').replace(/"type":"/, '"type":"x');
          if (how === 'swap') blocks.reverse();
          body.string = blocks.join('\n\n');
        }
        try {
          load(stringify(doc, { schema: 'yaml-1.1' }), name);
          imported += 1;
        } catch (error) {
          if (!(error instanceof UserError)) throw error;
          expect(error.issues[0]!.file).toBe(name);
          refused += 1;
        }
      }),
      { numRuns: 300, seed: 20260515 },
    );
    expect(imported).toBeGreaterThan(50);
    expect(refused).toBeGreaterThan(5);
  });
});
