/**
 * Cohere's native v2 Chat API (`POST /v2/chat`). Requests are read like Chat Completions ones (roles,
 * `tool_calls` with JSON-string arguments, `tool` messages with `tool_call_id`).
 *
 * Usage mapping — what Cohere bills, as @pydantic/genai-prices prices it:
 *   inputTokens = usage.billed_units.input_tokens;  outputTokens = usage.billed_units.output_tokens.
 * `usage.tokens` (the prompt with Cohere's template) and `usage.cached_tokens` are not billed units and are
 * not mapped.
 */
import { flattenText } from '../common/contentText.js';
import { parseToolArguments } from '../common/toolArguments.js';
import type { Reader } from './bodyReader.js';
import { parsedResponse, toolCall, type ParsedResponse, type ParsedToolCall } from './parsedBodies.js';

export function parseCohereResponse(body: unknown, r: Reader): ParsedResponse {
  const res = r.object(body, '', 'a response body object');
  const usage = r.object(res.usage, 'usage', 'usage object');
  const billed = r.object(usage.billed_units, 'usage.billed_units', 'billed_units object');
  const inputTokens = r.optCount(billed.input_tokens, 'usage.billed_units.input_tokens') ?? 0;
  const outputTokens = r.optCount(billed.output_tokens, 'usage.billed_units.output_tokens') ?? 0;
  const message = r.object(res.message, 'message');
  const content = r.optArray(message.content, 'message.content') ?? [];
  const hasText = content.some((part) => flattenText(part).trim() !== '');
  const toolCalls: ParsedToolCall[] = (r.optArray(message.tool_calls, 'message.tool_calls') ?? []).map((c, j) => {
    const path = `message.tool_calls[${j}]`;
    const call = r.object(c, path);
    const fn = r.object(call.function, `${path}.function`);
    return toolCall(r.optString(call.id, `${path}.id`), r.toolName(fn.name, `${path}.function.name`), parseToolArguments(fn.arguments));
  });
  return parsedResponse({
    usage: { inputTokens, outputTokens },
    toolCalls,
    hasText,
    model: undefined,
    id: r.optString(res.id, 'id'),
  });
}
