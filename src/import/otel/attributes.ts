/**
 * The span attributes the importer reads: their names (from @opentelemetry/semantic-conventions, plus the
 * two pydantic-ai / Logfire use for tool payloads) and typed reading of a span's attribute, failing at the
 * attribute when it has the wrong type.
 *
 * @opentelemetry/semantic-conventions 1.42+ marks the GenAI names deprecated: they "moved to the
 * OpenTelemetry GenAI semantic conventions repository", which publishes no npm package yet. The names
 * themselves are unchanged, so they are still taken from here rather than typed.
 */
import { countTooLarge, RULES_HINT } from '../../trace/rules.js';
import { inputError } from '../common/issues.js';
import { describeValue } from '../common/jsonValue.js';
import type { OtelSpan } from './span.js';

export {
  ATTR_ERROR_TYPE,
  ATTR_GEN_AI_INPUT_MESSAGES,
  ATTR_GEN_AI_OPERATION_NAME,
  ATTR_GEN_AI_PROVIDER_NAME,
  ATTR_GEN_AI_REQUEST_MODEL,
  ATTR_GEN_AI_RESPONSE_MODEL,
  ATTR_GEN_AI_SYSTEM,
  ATTR_GEN_AI_SYSTEM_INSTRUCTIONS,
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
} from '@opentelemetry/semantic-conventions/incubating';

/** Tool payload attributes of pydantic-ai / Logfire spans (not in the semantic conventions). */
export const LOGFIRE_TOOL_ARGUMENTS = 'tool_arguments';
export const LOGFIRE_TOOL_RESPONSE = 'tool_response';

/** Field path of a span's attribute, as errors name it. */
export function attrField(span: OtelSpan, key: string): string {
  return `${span.path}.attributes['${key}']`;
}

/** A token count (non-negative integer); undefined when absent or null. */
export function countAttr(span: OtelSpan, key: string): number | undefined {
  const v = span.attrs.get(key);
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number' || !Number.isInteger(v)) {
    throw inputError({ file: span.file, line: span.line, field: attrField(span, key) }, 'wrong_type', `expected an integer token count, got ${describeValue(v)}`);
  }
  if (v < 0) throw inputError({ file: span.file, line: span.line, field: attrField(span, key) }, 'negative_number', `expected a non-negative token count, got ${v}`);
  const tooLarge = countTooLarge(attrField(span, key), v);
  if (tooLarge) throw inputError({ file: span.file, line: span.line, field: tooLarge.field }, tooLarge.code, tooLarge.message, RULES_HINT);
  return v;
}

/** A string, or the JSON of any other value; undefined when absent or null. */
export function stringAttr(span: OtelSpan, key: string): string | undefined {
  const v = span.attrs.get(key);
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'string') return v;
  return JSON.stringify(v);
}
