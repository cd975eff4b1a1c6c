/**
 * OpenTelemetry SDK JSON (spans with `context.trace_id`, as the SDK's console exporter or `span.to_json()`
 * writes them) is not OTLP: it is refused by name with the way to an OTLP export, never as "not a trace
 * format … (its first record's fields: spans)". Fixture: test/fixtures/otel-sdk/sdk-console-spans.json (real,
 * trimmed: dazzaji/open-agent-traces).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { detectFormat } from '../../src/import/formats.js';
import { userErrorOf } from '../helpers.js';

const FIXTURE = 'test/fixtures/otel-sdk/sdk-console-spans.json';
const SDK_JSON = 'is OpenTelemetry SDK JSON (spans with context.trace_id), not an OTLP JSON export (resourceSpans)';

function issueOf(text: string, path = 'spans.json') {
  const issues = userErrorOf(() => detectFormat(text, path)).issues;
  expect(issues).toHaveLength(1);
  return issues[0]!;
}

/** One span as the Python SDK's ReadableSpan.to_json() writes it. */
function sdkSpan(name: string, attributes: Record<string, unknown>): Record<string, unknown> {
  return {
    name,
    context: { trace_id: '0x5b8aa5a2d2c872e8321cf37308d69df2', span_id: '0x051581bf3cb55c13', trace_state: '[]' },
    kind: 'SpanKind.CLIENT',
    parent_id: null,
    start_time: '2025-06-29T07:23:37.641060Z',
    end_time: '2025-06-29T07:23:47.262279Z',
    status: { status_code: 'UNSET' },
    attributes,
    events: [],
    links: [],
  };
}

describe('OpenTelemetry SDK JSON', () => {
  it('the real {"spans": […]} file: named as SDK JSON, not OTLP, with no gen_ai attribute; the hint says how to export OTLP', () => {
    const issue = issueOf(readFileSync(FIXTURE, 'utf8'), FIXTURE);
    expect(issue).toMatchObject({ file: FIXTURE, code: 'unknown_format' });
    expect(issue.message).toBe(`${SDK_JSON}; its spans carry no gen_ai.* attribute either, so even as OTLP they would hold no model call with its usage`);
    expect(issue.hint).toMatch(/^export with the OTLP exporter, not the console exporter or span\.to_json\(\): an OpenTelemetry Collector's file exporter writes OTLP JSON, .*gen_ai\.usage\.input_tokens/);
    expect(issue.message).not.toContain("first record's fields");
  });

  it('spans with GenAI attributes: the same refusal, without the word on gen_ai attributes', () => {
    const span = sdkSpan('chat gpt-4o', { 'gen_ai.operation.name': 'chat', 'gen_ai.usage.input_tokens': 120, 'gen_ai.usage.output_tokens': 8 });
    expect(issueOf(JSON.stringify({ spans: [span] })).message).toBe(SDK_JSON);
    expect(issueOf(`${JSON.stringify(span)}\n${JSON.stringify(span)}\n`, 'spans.jsonl').message).toBe(SDK_JSON);
  });

  it('spans the console exporter printed one after another (no one JSON document): the same refusal, not a JSON syntax error', () => {
    const span = JSON.stringify(sdkSpan('chat gpt-4o', { 'gen_ai.operation.name': 'chat' }), null, 4);
    const issue = issueOf(`${span}\n${span}\n`, 'console.txt');
    expect(issue).toMatchObject({ code: 'unknown_format', message: SDK_JSON });
  });

  it('an OTLP export is still read as OTLP, and a "spans" list of other objects is still an unknown format naming its fields', () => {
    expect(detectFormat('{"resourceSpans": []}\n', 'otlp.json')).toBe('otlp');
    expect(issueOf('{"spans": [{"id": 1}]}\n').message).toBe("is not a trace format loopcost reads (its first record's fields: spans)");
  });
});
