/**
 * OpenTelemetry GenAI spans in OTLP JSON (`resourceSpans[].scopeSpans[].spans[]`, as the OTLP/HTTP JSON
 * encoding and the collector's file exporter write them; one document, or one document per line).
 *
 * One traceId = one run. Model-call spans (gen_ai.operation.name `chat`, `generate_content` or
 * `text_completion`, or a span name starting with `chat `) ordered by start time are the calls:
 *   gen_ai.usage.input_tokens (cache reads and writes INCLUDED) → inputTokens,
 *   gen_ai.usage.cache_read.input_tokens → cachedInputTokens,
 *   gen_ai.usage.cache_creation.input_tokens → cacheWriteTokens,
 *   gen_ai.usage.output_tokens → outputTokens, end − start → latencyMs.
 * `execute_tool` spans starting after a model call and before the next one are that call's tool calls:
 *   gen_ai.tool.name, gen_ai.tool.call.arguments, error.type (or span status ERROR) → error,
 *   gen_ai.tool.call.result → resultTokens (0 when the result was not recorded).
 * A model-call span without usage that carries error.type / status ERROR is a failed call; without usage
 * and without an error it is a UserError. The earliest span start of the run (a time of 0, OTLP's "not
 * set", skipped) dates it: header.recordedAt, which its prices are read as of.
 *
 * The work is split by job under otel/: readSpans.ts turns the document(s) into a flat span list
 * (anyValue.ts decodes attribute values; span.ts is the span it makes), and buildTraces.ts turns the
 * spans into one Trace per run (spanKinds.ts tells model, tool and agent spans apart, attributes.ts names
 * and reads the attributes, calls.ts builds the calls, runEnd.ts the end, promptText.ts and provider.ts
 * the header's system/goal text and provider).
 */
import type { Trace } from '../trace/types.js';
import { buildOtelTraces } from './otel/buildTraces.js';
import { readOtlpSpans } from './otel/readSpans.js';

export { looksLikeOtlp } from './otel/readSpans.js';

export function importOtlpJson(content: string, path: string): Trace[] {
  return buildOtelTraces(readOtlpSpans(content, path), path);
}
