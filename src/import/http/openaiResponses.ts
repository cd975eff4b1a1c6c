/**
 * OpenAI Responses API bodies (`POST /v1/responses`, and `POST /v1/responses/compact`).
 *
 * Usage mapping: input_tokens (input_tokens_details.cached_tokens included) → inputTokens; cached_tokens →
 * cachedInputTokens; input_tokens_details.cache_write_tokens (when present) → cacheWriteTokens;
 * output_tokens → outputTokens; output_tokens_details.reasoning_tokens → reasoningTokens; the output's
 * `web_search_call` items → webSearchRequests (OpenAI bills each on top of the tokens: part of the cost).
 *
 * Client-executed tool calls: output items `function_call`, `custom_tool_call`, `computer_call`,
 * `local_shell_call` (their results come back as `*_output` items with the same `call_id`). Server-side
 * tools (web_search_call, file_search_call, mcp_call, ...) are not tool calls of the loop.
 *
 * Context compaction: `/responses/compact` returns `object: response.compaction` with a `compaction` item;
 * later requests carry that item (by id) instead of the history. The compact call is billed, so it is kept
 * as a call; both the compaction and the requests that carry it are recorded in the notes.
 *
 * Reasoning: `reasoning` output items; a later request carries them back as input items (or continues
 * server-side by `previous_response_id`, where they stay), or leaves them out (reasoningReturn.ts).
 */
import { flattenText } from '../common/contentText.js';
import { isJsonObject } from '../common/jsonValue.js';
import { parseToolArguments } from '../common/toolArguments.js';
import type { Reader } from './bodyReader.js';
import { emptyMessage, parsedResponse, toolCall, toolResult, type NormMessage, type OutputItemIds, type ParsedRequest, type ParsedResponse, type ParsedToolCall } from './parsedBodies.js';
import { eachObject, requestBody, responseBody, responseNames } from './providerBody.js';
import { retryPromptError } from './toolResultError.js';

const CLIENT_CALL_TYPES = new Set(['function_call', 'custom_tool_call', 'computer_call', 'local_shell_call']);
const CLIENT_OUTPUT_TYPES = new Set([
  'function_call_output',
  'custom_tool_call_output',
  'computer_call_output',
  'local_shell_call_output',
]);

export function parseResponsesRequest(body: unknown, r: Reader): ParsedRequest {
  const req = requestBody(body, r);
  const model = r.optString(req.model, 'model');
  const system: string[] = [];
  const instructions = r.optString(req.instructions, 'instructions');
  if (instructions) system.push(instructions);
  const previousResponseId = r.optString(req.previous_response_id, 'previous_response_id');
  const notes: string[] = [];
  const messages: NormMessage[] = [];
  const input = req.input;
  if (typeof input === 'string') {
    messages.push({ ...emptyMessage('user'), text: input });
  } else if (input !== undefined && input !== null) {
    eachObject(r, r.array(input, 'input'), 'input', (item, path) => {
      messages.push(inputItem(r, item, path, { system, notes }));
    });
  }
  return {
    ...(model !== undefined ? { model } : {}),
    system: system.join('\n'),
    messages,
    ...(previousResponseId !== undefined ? { previousResponseId } : {}),
    notes,
  };
}

/**
 * One item of a request's `input`: a message (a system one's text also added to `into.system`), a client tool
 * call or its output, or an opaque item (a compaction one noted in `into.notes`).
 */
function inputItem(r: Reader, item: Record<string, unknown>, path: string, into: { system: string[]; notes: string[] }): NormMessage {
  const type = r.optString(item.type, `${path}.type`) ?? (item.role !== undefined ? 'message' : 'unknown');
  const id = r.optString(item.id, `${path}.id`);
  if (type === 'message') {
    const role = r.string(item.role, `${path}.role`);
    const norm = role === 'developer' || role === 'system' ? 'system' : role;
    const text = flattenText(item.content);
    if (norm === 'system') into.system.push(text);
    return { ...emptyMessage(norm), text };
  }
  if (CLIENT_CALL_TYPES.has(type)) {
    const callId = r.optString(item.call_id, `${path}.call_id`);
    const name = r.optString(item.name, `${path}.name`) ?? type;
    const msg = emptyMessage('assistant');
    msg.toolCalls.push(toolCall(callId, name, parseToolArguments(item.arguments ?? item.input)));
    return msg;
  }
  if (CLIENT_OUTPUT_TYPES.has(type)) {
    const callId = r.optString(item.call_id, `${path}.call_id`);
    const text = typeof item.output === 'string' ? item.output : flattenText(item.output);
    const msg = emptyMessage('tool');
    msg.text = text;
    msg.toolResults.push(toolResult(callId, undefined, text, retryPromptError(text)));
    return msg;
  }
  // Opaque items: compaction, reasoning, item_reference, tool_search_call, ... kept for run continuity.
  const msg = emptyMessage(type);
  // A reasoning item carries the reasoning back; an item reference names an output item stored server-side
  // (its reasoning only when it names a reasoning item of the response: reasoningReturn.ts).
  if (type === 'reasoning') msg.reasoning = 'field';
  if (id !== undefined) msg.itemIds = [id];
  if (type === 'compaction') into.notes.push(`request carries compaction item ${id ?? '(no id)'} in place of earlier history`);
  return msg;
}

export function parseResponsesResponse(body: unknown, r: Reader): ParsedResponse {
  const { res, usage } = responseBody(body, r);
  const inputTokens = r.count(usage.input_tokens, 'usage.input_tokens');
  const outputTokens = r.count(usage.output_tokens, 'usage.output_tokens');
  const inDetails = r.optObject(usage.input_tokens_details, 'usage.input_tokens_details');
  const outDetails = r.optObject(usage.output_tokens_details, 'usage.output_tokens_details');
  const cachedInputTokens = r.optCount(inDetails?.cached_tokens, 'usage.input_tokens_details.cached_tokens');
  const cacheWriteTokens = r.optCount(inDetails?.cache_write_tokens, 'usage.input_tokens_details.cache_write_tokens');
  const reasoningTokens = r.optCount(outDetails?.reasoning_tokens, 'usage.output_tokens_details.reasoning_tokens');

  const output = r.array(res.output, 'output');
  const toolCalls: ParsedToolCall[] = [];
  const producedItemIds: string[] = [];
  const outputItemIds: OutputItemIds = { reasoning: [], turn: [] };
  const notes: string[] = [];
  let hasText = false;
  let reasoningText = false;
  let webSearchRequests = 0;
  eachObject(r, output, 'output', (item, path) => {
    const type = r.optString(item.type, `${path}.type`) ?? 'unknown';
    const id = r.optString(item.id, `${path}.id`);
    if (id !== undefined && (type === 'reasoning' || type === 'message' || CLIENT_CALL_TYPES.has(type))) outputItemIds[type === 'reasoning' ? 'reasoning' : 'turn'].push(id);
    if (type === 'message') {
      if (item.role === 'assistant' && flattenText(item.content).trim() !== '') hasText = true;
    } else if (CLIENT_CALL_TYPES.has(type)) {
      toolCalls.push(outputToolCall(r, item, path, type));
    } else if (type === 'compaction') {
      if (id !== undefined) producedItemIds.push(id);
    } else if (type === 'web_search_call') webSearchRequests += 1;
    else if (type === 'reasoning') reasoningText = true;
  });
  if (res.object === 'response.compaction') {
    const compacted = output.filter((it) => isJsonObject(it) && it.type === 'compaction').length;
    notes.push(
      `context compaction call: ${output.length - compacted} item(s) kept, ${compacted} compaction item(s) ` +
        `(${producedItemIds.join(', ') || 'no id'}), ${inputTokens} input / ${outputTokens} output tokens`,
    );
  }
  return parsedResponse({
    usage: { inputTokens, outputTokens, cachedInputTokens, cacheWriteTokens, reasoningTokens, ...(webSearchRequests > 0 ? { webSearchRequests } : {}) },
    toolCalls,
    hasText,
    reasoningText,
    ...responseNames(res, r),
    producedItemIds,
    outputItemIds,
    notes,
  });
}

/** A client-executed tool call of a response's output (`type`: one of CLIENT_CALL_TYPES). */
function outputToolCall(r: Reader, item: Record<string, unknown>, path: string, type: string): ParsedToolCall {
  const callId = r.optString(item.call_id, `${path}.call_id`);
  const name =
    type === 'function_call' || type === 'custom_tool_call'
      ? r.toolName(item.name, `${path}.name`)
      : type === 'computer_call'
        ? 'computer'
        : 'local_shell';
  const args =
    type === 'function_call'
      ? parseToolArguments(item.arguments)
      : type === 'custom_tool_call'
        ? item.input
        : (item.action ?? {});
  return toolCall(callId, name, args);
}
