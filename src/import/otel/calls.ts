/**
 * The model-call spans of a run → its CallRecords: usage from the gen_ai.usage.* attributes, the
 * execute_tool spans that start after the call and before the next one as its tool calls, and a call
 * without usage that failed (error.type / status ERROR) as a failed call.
 */
import type { CallRecord, ToolCallRecord } from '../../trace/types.js';
import { callRuleViolations, isFailureStatus } from '../../trace/rules.js';
import { inputError } from '../common/issues.js';
import { clip } from '../common/text.js';
import { parseToolArguments } from '../common/toolArguments.js';
import { countTokens } from '../tokenCount.js';
import {
  ATTR_ERROR_TYPE,
  ATTR_GEN_AI_TOOL_CALL_ARGUMENTS,
  ATTR_GEN_AI_TOOL_CALL_RESULT,
  ATTR_GEN_AI_TOOL_NAME,
  ATTR_GEN_AI_USAGE_CACHE_CREATION_INPUT_TOKENS,
  ATTR_GEN_AI_USAGE_CACHE_READ_INPUT_TOKENS,
  ATTR_GEN_AI_USAGE_COMPLETION_TOKENS,
  ATTR_GEN_AI_USAGE_INPUT_TOKENS,
  ATTR_GEN_AI_USAGE_OUTPUT_TOKENS,
  ATTR_GEN_AI_USAGE_PROMPT_TOKENS,
  ATTR_GEN_AI_USAGE_REASONING_OUTPUT_TOKENS,
  ATTR_HTTP_RESPONSE_STATUS_CODE,
  LOGFIRE_TOOL_ARGUMENTS,
  LOGFIRE_TOOL_RESPONSE,
  attrField,
  countAttr,
  stringAttr,
} from './attributes.js';
import { latencyMs, type OtelSpan } from './span.js';
import { EXECUTE_TOOL_PREFIX, isToolSpan } from './spanKinds.js';
import { copyWith } from '../../copyWith.js';
import { refusalInText, refusedCall } from '../common/contextRefusal.js';

/**
 * One record per model-call span (`modelSpans`, ordered by start); `sorted` is every span of the run
 * ordered by start, where the tool spans are looked up. Result tokens are counted with `model`'s tokenizer.
 */
export function readCalls(modelSpans: OtelSpan[], sorted: OtelSpan[], model: string, path: string): CallRecord[] {
  return modelSpans.map((span, i) => {
    const next = modelSpans[i + 1];
    const tools = sorted.filter((s) => isToolSpan(s) && s.start >= span.start && (next === undefined || s.start < next.start));
    const toolCalls = tools.map((t) => readToolCall(t, model, path));
    return readCall(span, toolCalls, path);
  });
}

/** Error text of a span: error.type and the status message joined by ': ' ('error' when both are empty). */
function errorText(errorType: string | undefined, span: OtelSpan): string {
  return [errorType, span.statusMessage].filter((s) => s).join(': ') || 'error';
}

function readToolCall(t: OtelSpan, model: string, path: string): ToolCallRecord {
  const name = stringAttr(t, ATTR_GEN_AI_TOOL_NAME) ?? (t.name.startsWith(EXECUTE_TOOL_PREFIX) ? t.name.slice(EXECUTE_TOOL_PREFIX.length) : undefined);
  if (name === undefined || name === '') {
    throw inputError({ file: path, line: t.line, field: attrField(t, ATTR_GEN_AI_TOOL_NAME) }, 'missing_field', 'execute_tool span without a tool name', `set ${ATTR_GEN_AI_TOOL_NAME}`);
  }
  const argsRaw = t.attrs.get(ATTR_GEN_AI_TOOL_CALL_ARGUMENTS) ?? t.attrs.get(LOGFIRE_TOOL_ARGUMENTS);
  const result = stringAttr(t, ATTR_GEN_AI_TOOL_CALL_RESULT) ?? stringAttr(t, LOGFIRE_TOOL_RESPONSE);
  const errorType = stringAttr(t, ATTR_ERROR_TYPE);
  const error = errorType !== undefined || t.statusError ? clip(errorText(errorType, t)) : undefined;
  return {
    name,
    arguments: parseToolArguments(argsRaw, { file: path, ...(t.line === undefined ? {} : { line: t.line }), field: attrField(t, ATTR_GEN_AI_TOOL_CALL_ARGUMENTS) }),
    resultTokens: result === undefined ? 0 : countTokens(result, model),
    ...(error !== undefined ? { error } : {}),
    latencyMs: latencyMs(t),
  };
}

/** The span attribute each usage field of a call comes from, to name it in an error. */
const USAGE_ATTRIBUTES: Record<string, string> = {
  cachedInputTokens: ATTR_GEN_AI_USAGE_CACHE_READ_INPUT_TOKENS,
  cacheWriteTokens: ATTR_GEN_AI_USAGE_CACHE_CREATION_INPUT_TOKENS,
  reasoningTokens: ATTR_GEN_AI_USAGE_REASONING_OUTPUT_TOKENS,
};

function readCall(span: OtelSpan, toolCalls: ToolCallRecord[], path: string): CallRecord {
  const input = countAttr(span, ATTR_GEN_AI_USAGE_INPUT_TOKENS) ?? countAttr(span, ATTR_GEN_AI_USAGE_PROMPT_TOKENS);
  const output = countAttr(span, ATTR_GEN_AI_USAGE_OUTPUT_TOKENS) ?? countAttr(span, ATTR_GEN_AI_USAGE_COMPLETION_TOKENS);
  const errorType = stringAttr(span, ATTR_ERROR_TYPE);
  if (input === undefined || output === undefined) {
    if (errorType !== undefined || span.statusError) {
      // A 2xx status (a stream that failed after its 200), or one that is no HTTP status, is no failure's status: left out.
      const status = countAttr(span, ATTR_HTTP_RESPONSE_STATUS_CODE);
      const message = errorText(errorType, span);
      const failed: CallRecord = { type: 'call', inputTokens: 0, outputTokens: 0, latencyMs: latencyMs(span), failed: { ...(isFailureStatus(status) ? { status } : {}), message } };
      // The provider's refusal for length, when the error's words say so (the exception's text holds the body).
      const refusal = refusalInText(message);
      return refusal === undefined ? failed : refusedCall(failed, refusal);
    }
    const key = input === undefined ? ATTR_GEN_AI_USAGE_INPUT_TOKENS : ATTR_GEN_AI_USAGE_OUTPUT_TOKENS;
    throw inputError(
      { file: path, line: span.line, field: attrField(span, key) },
      'missing_field',
      `model-call span "${span.name}" has no ${key}`,
      'record usage on chat spans (the instrumentation must capture token usage)',
    );
  }
  const cacheRead = countAttr(span, ATTR_GEN_AI_USAGE_CACHE_READ_INPUT_TOKENS);
  const cacheWrite = countAttr(span, ATTR_GEN_AI_USAGE_CACHE_CREATION_INPUT_TOKENS);
  const reasoning = countAttr(span, ATTR_GEN_AI_USAGE_REASONING_OUTPUT_TOKENS);
  const usage: CallRecord = {
    type: 'call',
    inputTokens: input,
    ...(cacheRead !== undefined ? { cachedInputTokens: cacheRead } : {}),
    ...(cacheWrite !== undefined ? { cacheWriteTokens: cacheWrite } : {}),
    outputTokens: output,
    ...(reasoning !== undefined ? { reasoningTokens: reasoning } : {}),
  };
  const broken = callRuleViolations(usage)[0];
  if (broken) {
    const attribute = USAGE_ATTRIBUTES[broken.field] ?? ATTR_GEN_AI_USAGE_INPUT_TOKENS;
    throw inputError(
      { file: path, line: span.line, field: attrField(span, attribute) },
      broken.code,
      broken.message,
      `${ATTR_GEN_AI_USAGE_INPUT_TOKENS} includes cached tokens and ${ATTR_GEN_AI_USAGE_OUTPUT_TOKENS} reasoning tokens (semantic conventions)`,
    );
  }
  return copyWith(usage, { latencyMs: latencyMs(span), ...(toolCalls.length > 0 ? { toolCalls } : {}) });
}
