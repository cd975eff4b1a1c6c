/**
 * What a span is, by gen_ai.operation.name, or by its name (`chat …`, `execute_tool …`, `invoke_agent …`)
 * when the instrumentation sets no operation.
 */
import {
  GEN_AI_OPERATION_NAME_VALUE_CHAT,
  GEN_AI_OPERATION_NAME_VALUE_EXECUTE_TOOL,
  GEN_AI_OPERATION_NAME_VALUE_GENERATE_CONTENT,
  GEN_AI_OPERATION_NAME_VALUE_INVOKE_AGENT,
  GEN_AI_OPERATION_NAME_VALUE_TEXT_COMPLETION,
} from '@opentelemetry/semantic-conventions/incubating';
import { ATTR_GEN_AI_OPERATION_NAME } from './attributes.js';
import type { OtelSpan } from './span.js';

const MODEL_OPERATIONS = new Set<string>([
  GEN_AI_OPERATION_NAME_VALUE_CHAT,
  GEN_AI_OPERATION_NAME_VALUE_GENERATE_CONTENT,
  GEN_AI_OPERATION_NAME_VALUE_TEXT_COMPLETION,
]);

/** Span name prefix of tool spans, followed by the tool name. */
export const EXECUTE_TOOL_PREFIX = 'execute_tool ';

function operation(span: OtelSpan): string | undefined {
  const op = span.attrs.get(ATTR_GEN_AI_OPERATION_NAME);
  return typeof op === 'string' ? op : undefined;
}

/** A model call: operation `chat`, `generate_content` or `text_completion`. */
export function isModelSpan(span: OtelSpan): boolean {
  const op = operation(span);
  return op !== undefined ? MODEL_OPERATIONS.has(op) : span.name.startsWith('chat ');
}

/** A tool call: operation `execute_tool`. */
export function isToolSpan(span: OtelSpan): boolean {
  const op = operation(span);
  return op !== undefined ? op === GEN_AI_OPERATION_NAME_VALUE_EXECUTE_TOOL : span.name.startsWith(EXECUTE_TOOL_PREFIX);
}

/** The agent run: operation `invoke_agent`, or a span name starting with `invoke_agent`. */
export function isAgentSpan(span: OtelSpan): boolean {
  return operation(span) === GEN_AI_OPERATION_NAME_VALUE_INVOKE_AGENT || span.name.startsWith('invoke_agent');
}
