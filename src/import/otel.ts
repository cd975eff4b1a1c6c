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
 * and without an error it is a UserError.
 */
import {
  ATTR_ERROR_TYPE,
  ATTR_GEN_AI_INPUT_MESSAGES,
  ATTR_GEN_AI_OPERATION_NAME,
  ATTR_GEN_AI_PROVIDER_NAME,
  ATTR_GEN_AI_REQUEST_MODEL,
  ATTR_GEN_AI_RESPONSE_MODEL,
  ATTR_GEN_AI_SYSTEM,
  ATTR_GEN_AI_SYSTEM_INSTRUCTIONS,
  ATTR_GEN_AI_TOOL_NAME,
  ATTR_GEN_AI_USAGE_COMPLETION_TOKENS,
  ATTR_GEN_AI_USAGE_INPUT_TOKENS,
  ATTR_GEN_AI_USAGE_OUTPUT_TOKENS,
  ATTR_GEN_AI_USAGE_PROMPT_TOKENS,
  ATTR_HTTP_RESPONSE_STATUS_CODE,
  GEN_AI_OPERATION_NAME_VALUE_CHAT,
  GEN_AI_OPERATION_NAME_VALUE_EXECUTE_TOOL,
  GEN_AI_OPERATION_NAME_VALUE_GENERATE_CONTENT,
  GEN_AI_OPERATION_NAME_VALUE_INVOKE_AGENT,
  GEN_AI_OPERATION_NAME_VALUE_TEXT_COMPLETION,
  GEN_AI_PROVIDER_NAME_VALUE_AWS_BEDROCK,
  GEN_AI_PROVIDER_NAME_VALUE_AZURE_AI_INFERENCE,
  GEN_AI_PROVIDER_NAME_VALUE_AZURE_AI_OPENAI,
  GEN_AI_PROVIDER_NAME_VALUE_GCP_GEMINI,
  GEN_AI_PROVIDER_NAME_VALUE_GCP_GEN_AI,
  GEN_AI_PROVIDER_NAME_VALUE_GCP_VERTEX_AI,
  GEN_AI_PROVIDER_NAME_VALUE_MISTRAL_AI,
  GEN_AI_PROVIDER_NAME_VALUE_X_AI,
} from '@opentelemetry/semantic-conventions/incubating';
import type { CallRecord, ToolCallRecord, Trace, TraceEnd } from '../trace/types.js';
import { TRACE_SCHEMA } from '../trace/types.js';
import { flattenText } from './common/contentText.js';
import { inputError } from './common/issues.js';
import { jsonErrorPosition, jsonPathAt, lineOfOffset } from './common/jsonDocument.js';
import { describeValue, isJsonObject } from './common/jsonValue.js';
import { clip } from './common/text.js';
import { parseToolArguments } from './common/toolArguments.js';
import { countTokens } from './tokenCount.js';

/*
 * GenAI attributes that @opentelemetry/semantic-conventions 1.37 does not define yet (they were added to
 * the GenAI semantic conventions later), plus the names pydantic-ai / Logfire use for tool payloads.
 */
const ATTR_GEN_AI_USAGE_CACHE_READ_INPUT_TOKENS = 'gen_ai.usage.cache_read.input_tokens';
const ATTR_GEN_AI_USAGE_CACHE_CREATION_INPUT_TOKENS = 'gen_ai.usage.cache_creation.input_tokens';
const ATTR_GEN_AI_TOOL_CALL_ARGUMENTS = 'gen_ai.tool.call.arguments';
const ATTR_GEN_AI_TOOL_CALL_RESULT = 'gen_ai.tool.call.result';
const LOGFIRE_TOOL_ARGUMENTS = 'tool_arguments';
const LOGFIRE_TOOL_RESPONSE = 'tool_response';

const MODEL_OPERATIONS = new Set<string>([
  GEN_AI_OPERATION_NAME_VALUE_CHAT,
  GEN_AI_OPERATION_NAME_VALUE_GENERATE_CONTENT,
  GEN_AI_OPERATION_NAME_VALUE_TEXT_COMPLETION,
]);
/**
 * Semconv provider names → the provider ids the HTTP importers use (those of @pydantic/genai-prices);
 * names not listed (openai, anthropic, deepseek, groq, cohere, perplexity, ...) are the same in both.
 */
const PROVIDER_IDS: Record<string, string> = {
  [GEN_AI_PROVIDER_NAME_VALUE_AWS_BEDROCK]: 'aws',
  [GEN_AI_PROVIDER_NAME_VALUE_AZURE_AI_INFERENCE]: 'azure',
  [GEN_AI_PROVIDER_NAME_VALUE_AZURE_AI_OPENAI]: 'azure',
  [GEN_AI_PROVIDER_NAME_VALUE_GCP_GEMINI]: 'google',
  [GEN_AI_PROVIDER_NAME_VALUE_GCP_GEN_AI]: 'google',
  [GEN_AI_PROVIDER_NAME_VALUE_GCP_VERTEX_AI]: 'google',
  [GEN_AI_PROVIDER_NAME_VALUE_MISTRAL_AI]: 'mistral',
  [GEN_AI_PROVIDER_NAME_VALUE_X_AI]: 'x-ai',
};

/** OTLP status code ERROR. */
const STATUS_ERROR = 2;

export function looksLikeOtlp(obj: unknown): boolean {
  return isJsonObject(obj) && Array.isArray(obj.resourceSpans);
}

type AttrValue = string | number | boolean | null | AttrValue[] | { [key: string]: AttrValue };

interface Span {
  traceId: string;
  spanId: string;
  name: string;
  start: bigint;
  end: bigint;
  attrs: Map<string, AttrValue>;
  statusError: boolean;
  statusMessage?: string;
  /** Error location. */
  file: string;
  line?: number;
  path: string;
}

interface Doc {
  value: unknown;
  /** 1-based line of the document (JSONL) — 1 for a whole-file document. */
  line: number;
  text: string;
}

function fail(file: string, line: number | undefined, field: string | undefined, code: string, message: string, hint?: string): never {
  throw inputError({ file, line, field }, code, message, hint);
}

function parseDocs(content: string, path: string): Doc[] {
  try {
    return [{ value: JSON.parse(content) as unknown, line: 1, text: content }];
  } catch (err) {
    const lines = content.split(/\r?\n/);
    const nonEmpty = lines.filter((l) => l.trim() !== '');
    if (nonEmpty.length <= 1 || !lines.every((l) => l.trim() === '' || l.trim().startsWith('{'))) {
      const pos = jsonErrorPosition(content, err);
      fail(path, lineOfOffset(content, pos), jsonPathAt(content, pos), 'invalid_json', `is not valid JSON (${(err as Error).message})`, 'an OTLP JSON export must be one JSON document (or one per line); was it truncated?');
    }
    // The collector's file exporter writes one ExportTraceServiceRequest per line.
    const docs: Doc[] = [];
    lines.forEach((text, i) => {
      if (text.trim() === '') return;
      try {
        docs.push({ value: JSON.parse(text) as unknown, line: i + 1, text });
      } catch (lineErr) {
        fail(path, i + 1, jsonPathAt(text, jsonErrorPosition(text, lineErr)), 'invalid_json', `line is not valid JSON (${(lineErr as Error).message})`, 'one OTLP JSON document per line; was the file truncated?');
      }
    });
    return docs;
  }
}

function decodeValue(v: unknown, file: string, line: number | undefined, field: string): AttrValue {
  if (!isJsonObject(v)) fail(file, line, field, 'wrong_type', `expected an OTLP AnyValue object, got ${describeValue(v)}`);
  if ('stringValue' in v) {
    if (typeof v.stringValue !== 'string') fail(file, line, `${field}.stringValue`, 'wrong_type', `expected a string, got ${describeValue(v.stringValue)}`);
    return v.stringValue;
  }
  if ('intValue' in v) {
    const raw = v.intValue;
    const n = typeof raw === 'string' && /^-?\d+$/.test(raw.trim()) ? Number(raw) : raw;
    if (typeof n !== 'number' || !Number.isInteger(n)) fail(file, line, `${field}.intValue`, 'wrong_type', `expected an integer (number or decimal string), got ${describeValue(raw)}`);
    return n;
  }
  if ('doubleValue' in v) {
    const raw = v.doubleValue;
    const n = typeof raw === 'string' ? Number(raw) : raw;
    if (typeof n !== 'number' || Number.isNaN(n)) fail(file, line, `${field}.doubleValue`, 'wrong_type', `expected a number, got ${describeValue(raw)}`);
    return n;
  }
  if ('boolValue' in v) {
    if (typeof v.boolValue !== 'boolean') fail(file, line, `${field}.boolValue`, 'wrong_type', `expected a boolean, got ${describeValue(v.boolValue)}`);
    return v.boolValue;
  }
  if ('arrayValue' in v) {
    const values = isJsonObject(v.arrayValue) && Array.isArray(v.arrayValue.values) ? v.arrayValue.values : [];
    return values.map((x, i) => decodeValue(x, file, line, `${field}.arrayValue.values[${i}]`));
  }
  if ('kvlistValue' in v) {
    const values = isJsonObject(v.kvlistValue) && Array.isArray(v.kvlistValue.values) ? v.kvlistValue.values : [];
    const out: { [key: string]: AttrValue } = {};
    values.forEach((kv, i) => {
      if (isJsonObject(kv) && typeof kv.key === 'string') out[kv.key] = decodeValue(kv.value, file, line, `${field}.kvlistValue.values[${i}].value`);
    });
    return out;
  }
  if ('bytesValue' in v) return typeof v.bytesValue === 'string' ? v.bytesValue : null;
  return null;
}

function nanos(v: unknown, file: string, line: number | undefined, field: string): bigint {
  if (typeof v === 'string' && /^\d+$/.test(v)) return BigInt(v);
  if (typeof v === 'number' && Number.isFinite(v) && v >= 0) return BigInt(Math.round(v));
  if (v === undefined) fail(file, line, field, 'missing_field', 'missing span time (unix nanoseconds)');
  return fail(file, line, field, 'wrong_type', `expected unix nanoseconds (a decimal string or number), got ${describeValue(v)}`);
}

function collectSpans(doc: Doc, path: string): Span[] {
  const root = doc.value;
  if (!looksLikeOtlp(root)) {
    fail(path, doc.line, 'resourceSpans', isJsonObject(root) ? 'missing_field' : 'wrong_type', 'not an OTLP JSON trace export (no resourceSpans array)', 'export traces with the OTLP JSON encoding (resourceSpans[].scopeSpans[].spans[])');
  }
  const spans: Span[] = [];
  const resourceSpans = (root as { resourceSpans: unknown[] }).resourceSpans;
  resourceSpans.forEach((rs, i) => {
    const rsPath = `resourceSpans[${i}]`;
    if (!isJsonObject(rs)) fail(path, doc.line, rsPath, 'wrong_type', `expected an object, got ${describeValue(rs)}`);
    const scopeKey = Array.isArray(rs.scopeSpans) ? 'scopeSpans' : 'instrumentationLibrarySpans';
    const scopes = rs[scopeKey] ?? [];
    if (!Array.isArray(scopes)) fail(path, doc.line, `${rsPath}.${scopeKey}`, 'wrong_type', `expected an array, got ${describeValue(scopes)}`);
    scopes.forEach((ss, j) => {
      const ssPath = `${rsPath}.${scopeKey}[${j}]`;
      if (!isJsonObject(ss)) fail(path, doc.line, ssPath, 'wrong_type', `expected an object, got ${describeValue(ss)}`);
      const list = ss.spans ?? [];
      if (!Array.isArray(list)) fail(path, doc.line, `${ssPath}.spans`, 'wrong_type', `expected an array, got ${describeValue(list)}`);
      list.forEach((raw, k) => {
        const spPath = `${ssPath}.spans[${k}]`;
        if (!isJsonObject(raw)) fail(path, doc.line, spPath, 'wrong_type', `expected a span object, got ${describeValue(raw)}`);
        const spanId = typeof raw.spanId === 'string' ? raw.spanId : '';
        let line: number | undefined = doc.line;
        if (spanId !== '') {
          const m = new RegExp(`"spanId"\\s*:\\s*"${spanId.replace(/[^A-Za-z0-9+/=_-]/g, '')}"`).exec(doc.text);
          if (m) line = doc.line + lineOfOffset(doc.text, m.index) - 1;
        }
        if (typeof raw.traceId !== 'string' || raw.traceId === '') {
          fail(path, line, `${spPath}.traceId`, raw.traceId === undefined ? 'missing_field' : 'wrong_type', `expected the trace id string, got ${describeValue(raw.traceId)}`);
        }
        const attrs = new Map<string, AttrValue>();
        const list2 = raw.attributes ?? [];
        if (!Array.isArray(list2)) fail(path, line, `${spPath}.attributes`, 'wrong_type', `expected an array of {key, value}, got ${describeValue(list2)}`);
        list2.forEach((kv, a) => {
          const aPath = `${spPath}.attributes[${a}]`;
          if (!isJsonObject(kv) || typeof kv.key !== 'string') fail(path, line, aPath, 'wrong_type', 'expected {key: string, value: AnyValue}');
          attrs.set(kv.key, decodeValue(kv.value, path, line, `${spPath}.attributes['${kv.key}'].value`));
        });
        const status = isJsonObject(raw.status) ? raw.status : {};
        const code = status.code;
        spans.push({
          traceId: raw.traceId as string,
          spanId,
          name: typeof raw.name === 'string' ? raw.name : '',
          start: nanos(raw.startTimeUnixNano, path, line, `${spPath}.startTimeUnixNano`),
          end: nanos(raw.endTimeUnixNano, path, line, `${spPath}.endTimeUnixNano`),
          attrs,
          statusError: code === STATUS_ERROR || code === 'STATUS_CODE_ERROR',
          ...(typeof status.message === 'string' && status.message !== '' ? { statusMessage: status.message } : {}),
          file: path,
          ...(line !== undefined ? { line } : {}),
          path: spPath,
        });
      });
    });
  });
  return spans;
}

function operation(span: Span): string | undefined {
  const op = span.attrs.get(ATTR_GEN_AI_OPERATION_NAME);
  return typeof op === 'string' ? op : undefined;
}

function isModelSpan(span: Span): boolean {
  const op = operation(span);
  return op !== undefined ? MODEL_OPERATIONS.has(op) : span.name.startsWith('chat ');
}

function isToolSpan(span: Span): boolean {
  const op = operation(span);
  return op !== undefined ? op === GEN_AI_OPERATION_NAME_VALUE_EXECUTE_TOOL : span.name.startsWith('execute_tool ');
}

function attrField(span: Span, key: string): string {
  return `${span.path}.attributes['${key}']`;
}

function countAttr(span: Span, key: string): number | undefined {
  const v = span.attrs.get(key);
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number' || !Number.isInteger(v)) fail(span.file, span.line, attrField(span, key), 'wrong_type', `expected an integer token count, got ${describeValue(v)}`);
  if (v < 0) fail(span.file, span.line, attrField(span, key), 'negative_number', `expected a non-negative token count, got ${v}`);
  return v;
}

function stringAttr(span: Span, key: string): string | undefined {
  const v = span.attrs.get(key);
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'string') return v;
  return JSON.stringify(v);
}

function latencyMs(span: Span): number {
  return span.end > span.start ? Number(span.end - span.start) / 1e6 : 0;
}

/** Text of a semconv message list (`gen_ai.system_instructions`, `gen_ai.input.messages`): JSON or plain. */
function messagesJson(raw: string | undefined): unknown {
  if (raw === undefined) return undefined;
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return raw;
  }
}

function partsText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map(partsText).filter((s) => s !== '').join('\n');
  if (isJsonObject(value)) {
    if (typeof value.content === 'string') return value.content;
    if (Array.isArray(value.parts)) return partsText(value.parts);
    return flattenText(value);
  }
  return '';
}

function firstUserText(raw: string | undefined): string {
  const parsed = messagesJson(raw);
  if (!Array.isArray(parsed)) return typeof parsed === 'string' ? parsed : '';
  const first = parsed.find((m) => isJsonObject(m) && m.role === 'user');
  return first === undefined ? '' : partsText(first);
}

function buildRun(traceId: string, spans: Span[], source: string, path: string): Trace | undefined {
  const sorted = [...spans].sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : 0));
  const modelSpans = sorted.filter(isModelSpan);
  if (modelSpans.length === 0) return undefined;
  const first = modelSpans[0]!;
  const model = stringAttr(first, ATTR_GEN_AI_REQUEST_MODEL) ?? stringAttr(first, ATTR_GEN_AI_RESPONSE_MODEL);
  if (model === undefined) {
    fail(path, first.line, attrField(first, ATTR_GEN_AI_REQUEST_MODEL), 'missing_field', 'the first model-call span has no model name', `set ${ATTR_GEN_AI_REQUEST_MODEL} on chat spans`);
  }
  const providerName = stringAttr(first, ATTR_GEN_AI_PROVIDER_NAME) ?? stringAttr(first, ATTR_GEN_AI_SYSTEM);
  const provider = providerName === undefined ? undefined : (PROVIDER_IDS[providerName] ?? providerName);
  const notes: string[] = [`traceId ${traceId}`];
  if (providerName !== undefined && provider !== providerName) notes.push(`provider ${providerName} read as ${provider}`);
  const toolsBefore = sorted.filter((s) => isToolSpan(s) && s.start < first.start).length;
  if (toolsBefore > 0) notes.push(`${toolsBefore} execute_tool span(s) before the first model call ignored`);

  const calls: CallRecord[] = modelSpans.map((span, i) => {
    const next = modelSpans[i + 1];
    const tools = sorted.filter((s) => isToolSpan(s) && s.start >= span.start && (next === undefined || s.start < next.start));
    const toolCalls: ToolCallRecord[] = tools.map((t) => {
      const name = stringAttr(t, ATTR_GEN_AI_TOOL_NAME) ?? (t.name.startsWith('execute_tool ') ? t.name.slice('execute_tool '.length) : undefined);
      if (name === undefined || name === '') {
        fail(path, t.line, attrField(t, ATTR_GEN_AI_TOOL_NAME), 'missing_field', 'execute_tool span without a tool name', `set ${ATTR_GEN_AI_TOOL_NAME}`);
      }
      const argsRaw = t.attrs.get(ATTR_GEN_AI_TOOL_CALL_ARGUMENTS) ?? t.attrs.get(LOGFIRE_TOOL_ARGUMENTS);
      const result = stringAttr(t, ATTR_GEN_AI_TOOL_CALL_RESULT) ?? stringAttr(t, LOGFIRE_TOOL_RESPONSE);
      const errorType = stringAttr(t, ATTR_ERROR_TYPE);
      const error = errorType !== undefined || t.statusError ? clip([errorType, t.statusMessage].filter((s) => s).join(': ') || 'error') : undefined;
      return {
        name,
        arguments: argsRaw === undefined || argsRaw === null ? {} : parseToolArguments(argsRaw),
        resultTokens: result === undefined ? 0 : countTokens(result, model),
        ...(error !== undefined ? { error } : {}),
        latencyMs: latencyMs(t),
      };
    });
    const input = countAttr(span, ATTR_GEN_AI_USAGE_INPUT_TOKENS) ?? countAttr(span, ATTR_GEN_AI_USAGE_PROMPT_TOKENS);
    const output = countAttr(span, ATTR_GEN_AI_USAGE_OUTPUT_TOKENS) ?? countAttr(span, ATTR_GEN_AI_USAGE_COMPLETION_TOKENS);
    const errorType = stringAttr(span, ATTR_ERROR_TYPE);
    if (input === undefined || output === undefined) {
      if (errorType !== undefined || span.statusError) {
        const status = countAttr(span, ATTR_HTTP_RESPONSE_STATUS_CODE);
        return {
          type: 'call',
          inputTokens: 0,
          outputTokens: 0,
          latencyMs: latencyMs(span),
          failed: { ...(status !== undefined ? { status } : {}), message: [errorType, span.statusMessage].filter((s) => s).join(': ') || 'error' },
        };
      }
      const key = input === undefined ? ATTR_GEN_AI_USAGE_INPUT_TOKENS : ATTR_GEN_AI_USAGE_OUTPUT_TOKENS;
      fail(path, span.line, attrField(span, key), 'missing_field', `model-call span "${span.name}" has no ${key}`, 'record usage on chat spans (the instrumentation must capture token usage)');
    }
    const cacheRead = countAttr(span, ATTR_GEN_AI_USAGE_CACHE_READ_INPUT_TOKENS);
    const cacheWrite = countAttr(span, ATTR_GEN_AI_USAGE_CACHE_CREATION_INPUT_TOKENS);
    if ((cacheRead ?? 0) + (cacheWrite ?? 0) > input) {
      fail(path, span.line, attrField(span, ATTR_GEN_AI_USAGE_INPUT_TOKENS), 'inconsistent_usage', `input tokens ${input} are fewer than cache read ${cacheRead ?? 0} + cache creation ${cacheWrite ?? 0}`, `${ATTR_GEN_AI_USAGE_INPUT_TOKENS} must include cached tokens (semantic conventions)`);
    }
    const rec: CallRecord = {
      type: 'call',
      inputTokens: input,
      ...(cacheRead !== undefined ? { cachedInputTokens: cacheRead } : {}),
      ...(cacheWrite !== undefined ? { cacheWriteTokens: cacheWrite } : {}),
      outputTokens: output,
      latencyMs: latencyMs(span),
      ...(toolCalls.length > 0 ? { toolCalls } : {}),
    };
    return rec;
  });

  const last = calls[calls.length - 1]!;
  const agentSpan = sorted.find((s) => operation(s) === GEN_AI_OPERATION_NAME_VALUE_INVOKE_AGENT || s.name.startsWith('invoke_agent'));
  let end: TraceEnd;
  if (last.failed) {
    end = { type: 'end', outcome: 'error', status: last.failed.status !== undefined ? `HTTP ${last.failed.status}` : last.failed.message };
  } else if (agentSpan && (agentSpan.statusError || stringAttr(agentSpan, ATTR_ERROR_TYPE) !== undefined)) {
    end = { type: 'end', outcome: 'error', status: stringAttr(agentSpan, ATTR_ERROR_TYPE) ?? agentSpan.statusMessage ?? 'error' };
  } else if (!last.toolCalls || last.toolCalls.length === 0) {
    end = { type: 'end', outcome: 'completed' };
    last.final = true;
  } else {
    end = { type: 'end', outcome: 'unknown' };
  }

  const systemText = partsText(messagesJson(stringAttr(first, ATTR_GEN_AI_SYSTEM_INSTRUCTIONS)));
  const goalText = firstUserText(stringAttr(first, ATTR_GEN_AI_INPUT_MESSAGES));
  if (!first.attrs.has(ATTR_GEN_AI_SYSTEM_INSTRUCTIONS) && !first.attrs.has(ATTR_GEN_AI_INPUT_MESSAGES)) {
    notes.push(`no ${ATTR_GEN_AI_SYSTEM_INSTRUCTIONS} / ${ATTR_GEN_AI_INPUT_MESSAGES} on the first chat span: systemTokens and goalTokens are 0`);
  }
  return {
    source,
    header: {
      type: 'header',
      schema: TRACE_SCHEMA,
      model,
      ...(provider !== undefined ? { provider } : {}),
      systemTokens: countTokens(systemText, model),
      goalTokens: countTokens(goalText, model),
      origin: 'recorded',
      importedFrom: { format: 'otlp-json', path, notes },
    },
    calls,
    end,
  };
}

export function importOtlpJson(content: string, path: string): Trace[] {
  const docs = parseDocs(content, path);
  const spans = docs.flatMap((d) => collectSpans(d, path));
  const byTrace = new Map<string, Span[]>();
  for (const s of spans) {
    const list = byTrace.get(s.traceId);
    if (list) list.push(s);
    else byTrace.set(s.traceId, [s]);
  }
  const groups = [...byTrace.entries()]
    .map(([id, list]) => ({ id, list, start: list.reduce((m, s) => (s.start < m ? s.start : m), list[0]!.start) }))
    .sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : 0));
  const withModel = groups.filter((g) => g.list.some(isModelSpan));
  if (withModel.length === 0) {
    fail(path, undefined, 'resourceSpans', 'no_model_calls', `no GenAI model-call spans (${ATTR_GEN_AI_OPERATION_NAME} = chat) among ${spans.length} span(s)`, 'export the spans of a GenAI-instrumented agent (OpenTelemetry GenAI semantic conventions)');
  }
  const skipped = groups.length - withModel.length;
  return withModel.map((g, i) => {
    const source = withModel.length > 1 ? `${path}#${i + 1}` : path;
    const trace = buildRun(g.id, g.list, source, path)!;
    if (skipped > 0 && i === 0) trace.header.importedFrom?.notes?.push(`${skipped} trace(s) without model-call spans skipped`);
    return trace;
  });
}
