/**
 * Anthropic Messages API bodies (`POST /v1/messages`).
 *
 * Usage mapping — Anthropic's input_tokens EXCLUDES cached tokens:
 *   inputTokens        = input_tokens + cache_read_input_tokens + cache_creation_input_tokens
 *   cachedInputTokens  = cache_read_input_tokens
 *   cacheWrite1hTokens = cache_creation.ephemeral_1h_input_tokens (when present)
 *   cacheWriteTokens   = cache_creation_input_tokens − the 1-hour part (the 5-minute writes)
 *   outputTokens       = output_tokens (thinking included)
 *   webSearchRequests  = server_tool_use.web_search_requests (billed per search on top of the tokens)
 *
 * `tool_use` blocks are the loop's tool calls; `server_tool_use` blocks (web search, tool search, code
 * execution) run at Anthropic inside the same call and are only counted in the notes.
 *
 * Reasoning: `thinking` blocks (text and signature), `redacted_thinking` blocks (encrypted); a history's
 * assistant turn carries them back or not (reasoningReturn.ts).
 */
import { flattenText } from '../common/contentText.js';
import type { Reader } from './bodyReader.js';
import { emptyMessage, parsedResponse, toolResult, type CarriedReasoning, type NormMessage, type ParsedRequest, type ParsedResponse, type ParsedToolCall } from './parsedBodies.js';
import { eachObject, readToolCall, requestBody, responseBody, responseNames, roleMessages, type ToolCallFields } from './providerBody.js';
import { toolResultError } from './toolResultError.js';

const TOOL_USE: ToolCallFields = { id: 'id', name: 'name', args: 'input', namedForReplay: false };

export function parseAnthropicRequest(body: unknown, r: Reader): ParsedRequest {
  const req = requestBody(body, r);
  const model = r.optString(req.model, 'model');
  const system = typeof req.system === 'string' ? req.system : flattenText(r.optArray(req.system, 'system') ?? []);
  const messages = roleMessages(req, r, (m, path, role) => historyMessage(r, m, path, role));
  return { ...(model !== undefined ? { model } : {}), system, messages, notes: [] };
}

/** A message of the history: its text (a string, or its `text` blocks), its `tool_use` and `tool_result` blocks. */
function historyMessage(r: Reader, m: Record<string, unknown>, path: string, role: string): NormMessage {
  const msg = emptyMessage(role);
  if (typeof m.content === 'string') {
    msg.text = m.content;
    return msg;
  }
  const texts: string[] = [];
  eachObject(r, r.array(m.content, `${path}.content`), `${path}.content`, (block, bpath) => {
    const type = r.optString(block.type, `${bpath}.type`);
    const reasoning = blockReasoning(type);
    if (reasoning !== undefined && msg.reasoning !== 'field') msg.reasoning = reasoning;
    if (type === 'text') texts.push(flattenText(block));
    else if (type === 'tool_use') msg.toolCalls.push(readToolCall(r, block, bpath, TOOL_USE));
    else if (type === 'tool_result') {
      const id = r.optString(block.tool_use_id, `${bpath}.tool_use_id`);
      const text = flattenText(block.content);
      msg.toolResults.push(toolResult(id, undefined, text, toolResultError(text, block.is_error === true)));
    }
  });
  msg.text = texts.join('\n');
  return msg;
}

/** A content block of reasoning: `thinking` (its text), `redacted_thinking` (encrypted). */
function blockReasoning(type: string | undefined): CarriedReasoning | undefined {
  return type === 'thinking' ? 'field' : type === 'redacted_thinking' ? 'opaque' : undefined;
}

export function parseAnthropicResponse(body: unknown, r: Reader): ParsedResponse {
  const { res, usage } = responseBody(body, r);
  const uncached = r.count(usage.input_tokens, 'usage.input_tokens');
  const outputTokens = r.count(usage.output_tokens, 'usage.output_tokens');
  const cacheRead = r.optCount(usage.cache_read_input_tokens, 'usage.cache_read_input_tokens');
  const cacheCreation = r.optCount(usage.cache_creation_input_tokens, 'usage.cache_creation_input_tokens');
  const creation = r.optObject(usage.cache_creation, 'usage.cache_creation');
  const write1h = r.optCount(creation?.ephemeral_1h_input_tokens, 'usage.cache_creation.ephemeral_1h_input_tokens');
  const write5m = r.optCount(creation?.ephemeral_5m_input_tokens, 'usage.cache_creation.ephemeral_5m_input_tokens');
  const server = r.optObject(usage.server_tool_use, 'usage.server_tool_use');
  const webSearchRequests = r.optCount(server?.web_search_requests, 'usage.server_tool_use.web_search_requests');
  const totalWrite = cacheCreation ?? (write1h !== undefined || write5m !== undefined ? (write1h ?? 0) + (write5m ?? 0) : undefined);

  const toolCalls: ParsedToolCall[] = [];
  let serverTools = 0;
  let hasText = false;
  let reasoningText = false;
  eachObject(r, r.array(res.content, 'content'), 'content', (block, path) => {
    const type = r.optString(block.type, `${path}.type`);
    if (type === 'text' && flattenText(block).trim() !== '') hasText = true;
    if (blockReasoning(type) !== undefined) reasoningText = true;
    if (type === 'tool_use') toolCalls.push(readToolCall(r, block, path, { ...TOOL_USE, namedForReplay: true }));
    if (type === 'server_tool_use') serverTools += 1;
  });
  const notes = serverTools > 0 ? [`${serverTools} server-side tool use(s) inside the call, not counted as tool calls`] : [];
  return parsedResponse({
    usage: {
      inputTokens: uncached + (cacheRead ?? 0) + (totalWrite ?? 0),
      cachedInputTokens: cacheRead ?? 0,
      cacheWriteTokens: totalWrite !== undefined ? Math.max(0, totalWrite - (write1h ?? 0)) : undefined,
      cacheWrite1hTokens: write1h,
      outputTokens,
      ...(webSearchRequests !== undefined && webSearchRequests > 0 ? { webSearchRequests } : {}),
    },
    toolCalls,
    hasText,
    reasoningText,
    ...responseNames(res, r),
    notes,
  });
}
