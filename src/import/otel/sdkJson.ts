/**
 * OpenTelemetry SDK JSON: spans as an SDK serialises them (Python's `ReadableSpan.to_json()`, what the
 * console exporter prints, or a list of them under `spans`): `context.trace_id`, plain attribute values,
 * no resource/scope nesting. Not OTLP, and recognised only to be refused by name with the way to an OTLP
 * export. Not read: the one real file at hand (dazzaji/open-agent-traces, logs/otel_traces_*.json) holds
 * agent spans with no gen_ai.* attribute at all, no model call and no usage to replay, so an adapter would
 * only turn its refusal into a run of zero calls.
 */
import { UserError } from '../../errors.js';
import { isJsonObject } from '../common/jsonValue.js';

/** A span as the SDK writes it: `context` with the `trace_id` and `span_id` strings. */
function isSdkSpan(value: unknown): value is Record<string, unknown> {
  if (!isJsonObject(value) || !isJsonObject(value.context)) return false;
  return typeof value.context.trace_id === 'string' && typeof value.context.span_id === 'string';
}

/** The SDK spans of a record: `{spans: [span, …]}` or one span (a line of span JSON); undefined when it is neither. */
function sdkSpans(record: unknown): Record<string, unknown>[] | undefined {
  if (isSdkSpan(record)) return [record];
  if (!isJsonObject(record) || !Array.isArray(record.spans) || !isSdkSpan(record.spans[0])) return undefined;
  return record.spans.filter(isSdkSpan);
}

/** The start of a span the console exporter printed (`{"name": …, "context": {"trace_id": …`): its spans one after another are no one JSON document. */
const SDK_SPAN_TEXT = /^\uFEFF?\s*\{\s*"name"\s*:\s*"(?:[^"\\]|\\.)*"\s*,\s*"context"\s*:\s*\{\s*"trace_id"\s*:/;

const HINT =
  "export with the OTLP exporter, not the console exporter or span.to_json(): an OpenTelemetry Collector's file exporter writes OTLP JSON, one resourceSpans document a line; loopcost reads the GenAI attributes of the model-call spans: gen_ai.request.model, gen_ai.usage.input_tokens, gen_ai.usage.output_tokens";

function sdkJsonError(path: string, withoutGenAi: boolean): UserError {
  const none = withoutGenAi ? '; its spans carry no gen_ai.* attribute either, so even as OTLP they would hold no model call with its usage' : '';
  return new UserError({
    file: path,
    code: 'unknown_format',
    message: `is OpenTelemetry SDK JSON (spans with context.trace_id), not an OTLP JSON export (resourceSpans)${none}`,
    hint: HINT,
  });
}

/** The refusal of OpenTelemetry SDK JSON, when `record` (the input's first JSON record) is that; undefined otherwise. */
export function otelSdkJsonRefusal(record: unknown, path: string): UserError | undefined {
  const spans = sdkSpans(record);
  if (spans === undefined) return undefined;
  const genAi = spans.some((span) => isJsonObject(span.attributes) && Object.keys(span.attributes).some((key) => key.startsWith('gen_ai.')));
  return sdkJsonError(path, !genAi);
}

/** The refusal of a text that starts as a span the console exporter printed (read no further: several such spans are no one JSON document). */
export function otelSdkTextRefusal(text: string, path: string): UserError | undefined {
  return SDK_SPAN_TEXT.test(text.slice(0, 2000)) ? sdkJsonError(path, false) : undefined;
}
