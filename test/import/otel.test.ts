import { userErrorOf } from '../helpers.js';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  ATTR_ERROR_TYPE,
  ATTR_GEN_AI_OPERATION_NAME,
  ATTR_GEN_AI_REQUEST_MODEL,
  ATTR_GEN_AI_TOOL_NAME,
  ATTR_GEN_AI_USAGE_INPUT_TOKENS,
  ATTR_GEN_AI_USAGE_OUTPUT_TOKENS,
} from '@opentelemetry/semantic-conventions/incubating';
import { describe, expect, it, vi } from 'vitest';
import { loadTraceFile } from '../../src/import/index.js';
import { importOtlpJson, looksLikeOtlp } from '../../src/import/otel.js';
import { countTokens } from '../../src/import/tokenCount.js';
import { traceSchemas } from '../../src/trace/schema.js';
import type { Trace } from '../../src/trace/types.js';

const { callSchema, endSchema, headerSchema } = traceSchemas();

const here = dirname(fileURLToPath(import.meta.url));
const fixtureDir = join(here, '..', 'fixtures', 'otel');
const read = (name: string) => readFileSync(join(fixtureDir, name), 'utf8');

/** Checks every record against the native trace schemas. */
function valid(traces: Trace[]): Trace[] {
  for (const t of traces) {
    headerSchema.parse(t.header);
    for (const c of t.calls) callSchema.parse(c);
    endSchema.parse(t.end);
  }
  return traces;
}


type Attr = { key: string; value: Record<string, unknown> };
const str = (key: string, v: string): Attr => ({ key, value: { stringValue: v } });
const int = (key: string, v: number | string): Attr => ({ key, value: { intValue: v } });
function span(traceId: string, spanId: string, startMs: number, endMs: number, name: string, attributes: Attr[], status: Record<string, unknown> = {}) {
  const t0 = 1_760_000_000_000n;
  return {
    traceId,
    spanId,
    name,
    startTimeUnixNano: String((t0 + BigInt(startMs)) * 1_000_000n),
    endTimeUnixNano: String((t0 + BigInt(endMs)) * 1_000_000n),
    attributes,
    status,
  };
}
const doc = (...spans: unknown[]) => JSON.stringify({ resourceSpans: [{ scopeSpans: [{ spans }] }] }, null, 2);
const chat = (input: number | string, output: number | string, extra: Attr[] = []) => [
  str(ATTR_GEN_AI_OPERATION_NAME, 'chat'),
  str(ATTR_GEN_AI_REQUEST_MODEL, 'gpt-4o'),
  int(ATTR_GEN_AI_USAGE_INPUT_TOKENS, input),
  int(ATTR_GEN_AI_USAGE_OUTPUT_TOKENS, output),
  ...extra,
];

describe('a 3-step run with a tool error', () => {
  const traces = valid(importOtlpJson(read('three-step-tool-error.json'), 'three.json'));
  const [t] = traces;
  const model = 'claude-sonnet-4-5';

  it('is one trace with one call per chat span', () => {
    expect(traces).toHaveLength(1);
    expect(t!.source).toBe('three.json');
    expect(t!.calls).toHaveLength(3);
  });

  it('maps the usage attributes (input includes cache read and creation) and latency', () => {
    // intValue given as the string "1830" in the fixture.
    expect(t!.calls[0]).toMatchObject({ inputTokens: 1830, cachedInputTokens: 0, cacheWriteTokens: 1720, outputTokens: 64, latencyMs: 2400 });
    expect(t!.calls[1]).toMatchObject({ inputTokens: 1902, cachedInputTokens: 1720, cacheWriteTokens: 112, outputTokens: 58, latencyMs: 1600 });
    expect(t!.calls[2]).toMatchObject({ inputTokens: 1990, cachedInputTokens: 1832, cacheWriteTokens: 0, outputTokens: 21, final: true });
    expect(t!.calls[2]!.toolCalls).toBeUndefined();
  });

  it('maps gen_ai.usage.reasoning.output_tokens as the reasoning part of the output', () => {
    const text = doc(span('t', 'c1', 0, 100, 'chat o3', chat(100, 40, [int('gen_ai.usage.reasoning.output_tokens', 32)])));
    const [call] = valid(importOtlpJson(text, 'r.json'))[0]!.calls;
    expect(call).toMatchObject({ inputTokens: 100, outputTokens: 40, reasoningTokens: 32 });
    expect(t!.calls[0]!.reasoningTokens).toBeUndefined();
  });

  it('turns error.type / status ERROR into a tool error and counts recorded results', () => {
    expect(t!.calls[0]!.toolCalls).toEqual([
      {
        name: 'read_file',
        arguments: { path: 'conf/config.yaml' },
        resultTokens: countTokens("FileNotFoundError: [Errno 2] No such file or directory: 'conf/config.yaml'", model),
        error: "FileNotFoundError: No such file or directory: 'conf/config.yaml'",
        latencyMs: 30,
      },
    ]);
    const ok = t!.calls[1]!.toolCalls![0]!;
    expect(ok).toMatchObject({ name: 'read_file', arguments: { path: 'config.yaml' }, latencyMs: 15 });
    expect(ok.error).toBeUndefined();
    expect(ok.resultTokens).toBe(countTokens('server:\n  host: 0.0.0.0\n  port: 8080\n  timeout: 30s\nlogging:\n  level: info\n', model));
  });

  it('fills the header from the first chat span', () => {
    expect(t!.header).toMatchObject({
      model,
      provider: 'anthropic',
      origin: 'recorded',
      systemTokens: countTokens('You are a coding agent. Use the tools to answer.', model),
      goalTokens: countTokens('What does config.yaml set the timeout to?', model),
      importedFrom: { format: 'otlp-json', path: 'three.json' },
    });
    expect(t!.end).toEqual({ type: 'end', outcome: 'completed' });
  });
});

describe('two traces in one file', () => {
  const traces = valid(importOtlpJson(read('two-traces.json'), 'two.json'));

  it('gives one run per traceId, in start order, with #n sources', () => {
    expect(traces.map((t) => t.source)).toEqual(['two.json#1', 'two.json#2']);
    expect(traces.map((t) => t.header.model)).toEqual(['gpt-4o-mini', 'gemini-2.5-flash']);
    expect(traces.map((t) => t.header.importedFrom?.notes?.[0])).toEqual([
      'traceId 0af7651916cd43dd8448eb211c80319c',
      'traceId 4bf92f3577b34da6a3ce929d0e0e4736',
    ]);
  });

  it('run 1: tool arguments parsed, result counted, cache read mapped', () => {
    const [t] = traces;
    expect(t!.header.provider).toBe('openai');
    expect(t!.calls[0]).toMatchObject({ inputTokens: 412, cachedInputTokens: 0, outputTokens: 18 });
    expect(t!.calls[0]!.toolCalls).toEqual([
      { name: 'get_weather', arguments: { city: 'Paris' }, resultTokens: countTokens('{"temp_c": 18, "sky": "cloudy"}', 'gpt-4o-mini'), latencyMs: 90 },
    ]);
    expect(t!.calls[1]).toMatchObject({ inputTokens: 455, cachedInputTokens: 384, outputTokens: 25, final: true });
    expect(t!.end.outcome).toBe('completed');
  });

  it('run 2: span names only, raw arguments, no recorded result, a failed last call', () => {
    const [, t] = traces;
    // deprecated gen_ai.system as a fallback; semconv `gcp.gemini` is price-table provider `google`
    expect(t!.header.provider).toBe('google');
    expect(t!.header.importedFrom?.notes).toContain('provider gcp.gemini read as google');
    expect(t!.calls[0]).toMatchObject({ inputTokens: 230, outputTokens: 40 });
    expect(t!.calls[0]!.toolCalls).toEqual([{ name: 'search', arguments: 'not json {', resultTokens: 0, latencyMs: 1190 }]);
    expect(t!.calls[1]).toMatchObject({ inputTokens: 0, outputTokens: 0, failed: { status: 429, message: '429: Resource has been exhausted' } });
    expect(t!.end).toEqual({ type: 'end', outcome: 'error', status: 'HTTP 429' });
  });
});

describe('OTLP variants', () => {
  it('reads the collector file-exporter format (one document per line)', () => {
    const a = JSON.stringify(JSON.parse(doc(span('t1', 's1', 0, 100, 'chat gpt-4o', chat(10, 2)))));
    const b = JSON.stringify(JSON.parse(doc(span('t1', 's2', 200, 300, 'chat gpt-4o', chat(20, 3)))));
    const traces = importOtlpJson(`${a}\n${b}\n`, 'lines.jsonl');
    expect(traces).toHaveLength(1);
    expect(traces[0]!.calls.map((c) => c.inputTokens)).toEqual([10, 20]);
  });

  it('orders calls by start time, not by position in the file', () => {
    const text = doc(span('t', 'late', 500, 600, 'chat gpt-4o', chat(30, 3)), span('t', 'early', 0, 100, 'chat gpt-4o', chat(10, 1)));
    expect(importOtlpJson(text, 'o.json')[0]!.calls.map((c) => c.inputTokens)).toEqual([10, 30]);
  });

  it('tool error from span status alone, and the tool name from the span name', () => {
    const text = doc(
      span('t', 'c1', 0, 100, 'chat gpt-4o', chat(10, 1)),
      span('t', 'x1', 110, 120, 'execute_tool shell', [], { code: 2, message: 'exit status 1' }),
      span('t', 'c2', 130, 200, 'chat gpt-4o', chat(12, 1)),
    );
    const [t] = importOtlpJson(text, 's.json');
    expect(t!.calls[0]!.toolCalls).toEqual([{ name: 'shell', arguments: {}, resultTokens: 0, error: 'exit status 1', latencyMs: 10 }]);
  });

  it('looksLikeOtlp', () => {
    expect(looksLikeOtlp({ resourceSpans: [] })).toBe(true);
    expect(looksLikeOtlp({ resourceSpans: {} })).toBe(false);
    expect(looksLikeOtlp({ request: {}, response: {} })).toBe(false);
    expect(looksLikeOtlp('resourceSpans')).toBe(false);
  });
});

describe('malformed OTLP gives UserErrors naming file, line and field', () => {
  it('a chat span without usage (and without an error)', () => {
    const text = doc(span('t', 'c1', 0, 100, 'chat gpt-4o', [str(ATTR_GEN_AI_OPERATION_NAME, 'chat'), str(ATTR_GEN_AI_REQUEST_MODEL, 'gpt-4o')]));
    const err = userErrorOf(() => importOtlpJson(text, 'n.json'));
    expect(err.issues[0]).toMatchObject({
      file: 'n.json',
      line: text.split('\n').findIndex((l) => l.includes('"spanId": "c1"')) + 1,
      field: "resourceSpans[0].scopeSpans[0].spans[0].attributes['gen_ai.usage.input_tokens']",
      code: 'missing_field',
    });
  });

  it('wrong attribute types', () => {
    const badInt = doc(span('t', 'c1', 0, 100, 'chat gpt-4o', chat('12a', 1)));
    expect(userErrorOf(() => importOtlpJson(badInt, 'w.json')).issues[0]).toMatchObject({
      file: 'w.json',
      field: "resourceSpans[0].scopeSpans[0].spans[0].attributes['gen_ai.usage.input_tokens'].value.intValue",
      code: 'wrong_type',
    });
    const asString = doc(span('t', 'c1', 0, 100, 'chat gpt-4o', [...chat(1, 1).slice(0, 2), str(ATTR_GEN_AI_USAGE_INPUT_TOKENS, 'ten'), int(ATTR_GEN_AI_USAGE_OUTPUT_TOKENS, 1)]));
    expect(userErrorOf(() => importOtlpJson(asString, 'w.json')).issues[0]).toMatchObject({
      field: "resourceSpans[0].scopeSpans[0].spans[0].attributes['gen_ai.usage.input_tokens']",
      code: 'wrong_type',
    });
    const badList = JSON.stringify({ resourceSpans: [{ scopeSpans: [{ spans: [{ traceId: 't', spanId: 's', attributes: {}, startTimeUnixNano: '1', endTimeUnixNano: '2' }] }] }] });
    expect(userErrorOf(() => importOtlpJson(badList, 'l.json')).issues[0]).toMatchObject({ line: 1, field: 'resourceSpans[0].scopeSpans[0].spans[0].attributes', code: 'wrong_type' });
    const badTime = doc({ ...span('t', 'c1', 0, 100, 'chat gpt-4o', chat(1, 1)), startTimeUnixNano: 'yesterday' });
    expect(userErrorOf(() => importOtlpJson(badTime, 'b.json')).issues[0]).toMatchObject({ field: 'resourceSpans[0].scopeSpans[0].spans[0].startTimeUnixNano', code: 'wrong_type' });
  });

  it('cached tokens larger than input tokens (input must include the cache)', () => {
    const text = doc(span('t', 'c1', 0, 100, 'chat gpt-4o', chat(100, 1, [int('gen_ai.usage.cache_read.input_tokens', 900)])));
    expect(userErrorOf(() => importOtlpJson(text, 'c.json')).issues[0]).toMatchObject({ code: 'inconsistent_usage', field: "resourceSpans[0].scopeSpans[0].spans[0].attributes['gen_ai.usage.cache_read.input_tokens']" });
  });

  it('reasoning tokens larger than output tokens (output must include reasoning)', () => {
    const text = doc(span('t', 'c1', 0, 100, 'chat gpt-4o', chat(100, 5, [int('gen_ai.usage.reasoning.output_tokens', 6)])));
    expect(userErrorOf(() => importOtlpJson(text, 'r.json')).issues[0]).toMatchObject({ code: 'inconsistent_usage', field: "resourceSpans[0].scopeSpans[0].spans[0].attributes['gen_ai.usage.reasoning.output_tokens']" });
  });

  it('an execute_tool span without a tool name', () => {
    const text = doc(span('t', 'c1', 0, 100, 'chat gpt-4o', chat(1, 1)), span('t', 'x', 110, 120, 'tool', [str(ATTR_GEN_AI_OPERATION_NAME, 'execute_tool'), str(ATTR_ERROR_TYPE, 'Timeout')]));
    expect(userErrorOf(() => importOtlpJson(text, 't.json')).issues[0]).toMatchObject({ field: `resourceSpans[0].scopeSpans[0].spans[1].attributes['${ATTR_GEN_AI_TOOL_NAME}']`, code: 'missing_field' });
  });

  it('truncated JSON, not OTLP, no model-call spans', () => {
    const full = read('two-traces.json');
    const cut = full.slice(0, 2000);
    const err = userErrorOf(() => importOtlpJson(cut, 'cut.json'));
    expect(err.issues[0]).toMatchObject({ file: 'cut.json', code: 'invalid_json' });
    expect(err.issues[0]!.line).toBe(cut.split('\n').length);
    expect(err.issues[0]!.field).toMatch(/^resourceSpans\[0\]\.scopeSpans\[0\]\.spans\[\d+\]/);
    expect(userErrorOf(() => importOtlpJson('{"spans": []}', 'x.json')).issues[0]).toMatchObject({ field: 'resourceSpans', code: 'missing_field', line: 1 });
    const noChat = doc(span('t', 'h', 0, 1, 'GET /health', [str('http.request.method', 'GET')]));
    expect(userErrorOf(() => importOtlpJson(noChat, 'h.json')).issues[0]).toMatchObject({ file: 'h.json', field: 'resourceSpans', code: 'no_model_calls' });
  });
});
describe('an OTLP export read from a file', () => {
  it('is parsed once: the importer takes the document format detection parsed, with the same runs', async () => {
    const path = join(fixtureDir, 'two-traces.json');
    const parse = vi.spyOn(JSON, 'parse');
    try {
      const traces = await loadTraceFile(path);
      const text = readFileSync(path, 'utf8');
      expect(parse.mock.calls.filter(([arg]) => arg === text)).toHaveLength(1);
      expect(traces).toEqual(importOtlpJson(text, path));
    } finally {
      parse.mockRestore();
    }
  });
});

