/**
 * Anthropic Messages API bodies (`POST /v1/messages`).
 *
 * Usage mapping — Anthropic's input_tokens EXCLUDES cached tokens:
 *   inputTokens        = input_tokens + cache_read_input_tokens + cache_creation_input_tokens
 *   cachedInputTokens  = cache_read_input_tokens
 *   cacheWrite1hTokens = cache_creation.ephemeral_1h_input_tokens (when present)
 *   cacheWriteTokens   = cache_creation_input_tokens − the 1-hour part (the 5-minute writes)
 *   outputTokens       = output_tokens (thinking included)
 *
 * `tool_use` blocks are the loop's tool calls; `server_tool_use` blocks (web search, tool search, code
 * execution) run at Anthropic inside the same call and are only counted in the notes.
 */
import { flattenText } from '../common/contentText.js';
import type { Reader } from './bodyReader.js';
import {
  emptyMessage,
  parsedResponse,
  toolCall,
  toolResult,
  type NormMessage,
  type ParsedRequest,
  type ParsedResponse,
  type ParsedToolCall,
} from './parsedBodies.js';
import { toolResultError } from './toolResultError.js';

export function parseAnthropicRequest(body: unknown, r: Reader): ParsedRequest {
  const req = r.object(body, '', 'a request body object');
  const model = r.optString(req.model, 'model');
  const system = typeof req.system === 'string' ? req.system : flattenText(r.optArray(req.system, 'system') ?? []);
  const rawMessages = r.array(req.messages, 'messages');
  const messages: NormMessage[] = [];
  rawMessages.forEach((raw, i) => {
    const path = `messages[${i}]`;
    const m = r.object(raw, path);
    const role = r.string(m.role, `${path}.role`);
    const msg = emptyMessage(role);
    if (typeof m.content === 'string') {
      msg.text = m.content;
    } else {
      const blocks = r.array(m.content, `${path}.content`);
      const texts: string[] = [];
      blocks.forEach((b, j) => {
        const bpath = `${path}.content[${j}]`;
        const block = r.object(b, bpath);
        const type = r.optString(block.type, `${bpath}.type`);
        if (type === 'text') texts.push(flattenText(block));
        else if (type === 'tool_use') {
          const id = r.optString(block.id, `${bpath}.id`);
          msg.toolCalls.push(toolCall(id, r.string(block.name, `${bpath}.name`), block.input ?? {}));
        } else if (type === 'tool_result') {
          const id = r.optString(block.tool_use_id, `${bpath}.tool_use_id`);
          const text = flattenText(block.content);
          msg.toolResults.push(toolResult(id, undefined, text, toolResultError(text, block.is_error === true)));
        }
      });
      msg.text = texts.join('\n');
    }
    messages.push(msg);
  });
  return { ...(model !== undefined ? { model } : {}), system, messages, notes: [] };
}

export function parseAnthropicResponse(body: unknown, r: Reader): ParsedResponse {
  const res = r.object(body, '', 'a response body object');
  const usage = r.object(res.usage, 'usage', 'usage object');
  const uncached = r.count(usage.input_tokens, 'usage.input_tokens');
  const outputTokens = r.count(usage.output_tokens, 'usage.output_tokens');
  const cacheRead = r.optCount(usage.cache_read_input_tokens, 'usage.cache_read_input_tokens');
  const cacheCreation = r.optCount(usage.cache_creation_input_tokens, 'usage.cache_creation_input_tokens');
  const creation = r.optObject(usage.cache_creation, 'usage.cache_creation');
  const write1h = r.optCount(creation?.ephemeral_1h_input_tokens, 'usage.cache_creation.ephemeral_1h_input_tokens');
  const write5m = r.optCount(creation?.ephemeral_5m_input_tokens, 'usage.cache_creation.ephemeral_5m_input_tokens');
  const totalWrite = cacheCreation ?? (write1h !== undefined || write5m !== undefined ? (write1h ?? 0) + (write5m ?? 0) : undefined);

  const content = r.array(res.content, 'content');
  const toolCalls: ParsedToolCall[] = [];
  let serverTools = 0;
  let hasText = false;
  content.forEach((b, j) => {
    const path = `content[${j}]`;
    const block = r.object(b, path);
    const type = r.optString(block.type, `${path}.type`);
    if (type === 'text' && flattenText(block).trim() !== '') hasText = true;
    if (type === 'tool_use') {
      const id = r.optString(block.id, `${path}.id`);
      toolCalls.push(toolCall(id, r.toolName(block.name, `${path}.name`), block.input ?? {}));
    }
    if (type === 'server_tool_use') serverTools += 1;
  });
  const notes = serverTools > 0 ? [`${serverTools} server-side tool use(s) inside the call, not counted as tool calls`] : [];
  const model = r.optString(res.model, 'model');
  const id = r.optString(res.id, 'id');
  return parsedResponse({
    usage: {
      inputTokens: uncached + (cacheRead ?? 0) + (totalWrite ?? 0),
      cachedInputTokens: cacheRead ?? 0,
      cacheWriteTokens: totalWrite !== undefined ? Math.max(0, totalWrite - (write1h ?? 0)) : undefined,
      cacheWrite1hTokens: write1h,
      outputTokens,
    },
    toolCalls,
    hasText,
    model,
    id,
    notes,
  });
}
