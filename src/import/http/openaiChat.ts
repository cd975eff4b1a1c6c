/**
 * OpenAI Chat Completions bodies (also the OpenAI-compatible APIs of OpenRouter, Groq, DeepSeek, Azure, ...).
 *
 * Usage mapping: prompt_tokens (cached included) → inputTokens; prompt_tokens_details.cached_tokens (or
 * DeepSeek's prompt_cache_hit_tokens) → cachedInputTokens; prompt_tokens_details.cache_write_tokens
 * (OpenRouter, Anthropic upstream) → cacheWriteTokens; completion_tokens → outputTokens;
 * completion_tokens_details.reasoning_tokens → reasoningTokens; OpenRouter usage.cost → recordedCostUsd.
 *
 * Reasoning text: a message's `reasoning_content` (DeepSeek, LiteLLM, vLLM), `reasoning` (OpenRouter, Groq,
 * Ollama) or `reasoning_details` (OpenRouter); a history's assistant turn may instead carry it as `<think>`
 * text in its content (reasoningReturn.ts reads which).
 */
import { flattenText } from '../common/contentText.js';
import { parseToolArguments } from '../common/toolArguments.js';
import type { Reader } from './bodyReader.js';
import { emptyMessage, parsedResponse, toolCall, toolResult, type CarriedReasoning, type ParsedRequest, type ParsedResponse, type ParsedToolCall } from './parsedBodies.js';
import { eachObject, requestBody, responseBody, responseNames, roleMessages } from './providerBody.js';
import { retryPromptError } from './toolResultError.js';

const REASONING_FIELDS = ['reasoning_content', 'reasoning', 'reasoning_details'] as const;

/** A message carries reasoning in one of its fields (a non-empty string or array). */
function hasReasoningField(m: Record<string, unknown>): boolean {
  return REASONING_FIELDS.some((key) => {
    const value = m[key];
    return (typeof value === 'string' && value.trim() !== '') || (Array.isArray(value) && value.length > 0);
  });
}

/** How an assistant turn of a history carries its call's reasoning: in a field, as `<think>` text in its content, or not. */
function carriedReasoning(m: Record<string, unknown>, text: string): CarriedReasoning | undefined {
  if (hasReasoningField(m)) return 'field';
  return /<think>/.test(text) ? 'tagged' : undefined;
}

export function parseChatRequest(body: unknown, r: Reader): ParsedRequest {
  const req = requestBody(body, r);
  const model = r.optString(req.model, 'model');
  const system: string[] = [];
  const messages = roleMessages(req, r, (m, path, role) => {
    const text = flattenText(m.content);
    const msg = emptyMessage(role === 'developer' ? 'system' : role);
    msg.text = text;
    if (role === 'system' || role === 'developer') system.push(text);
    if (role === 'assistant') {
      const reasoning = carriedReasoning(m, text);
      if (reasoning !== undefined) msg.reasoning = reasoning;
      eachObject(r, r.optArray(m.tool_calls, `${path}.tool_calls`) ?? [], `${path}.tool_calls`, (call, cpath) => {
        const fn = r.optObject(call.function, `${cpath}.function`);
        const name = r.optString(fn?.name ?? call.name, `${cpath}.function.name`) ?? '';
        const id = r.optString(call.id, `${cpath}.id`);
        msg.toolCalls.push(toolCall(id, name, parseToolArguments(fn?.arguments)));
      });
    }
    if (role === 'tool' || role === 'function') {
      const id = r.optString(m.tool_call_id, `${path}.tool_call_id`);
      const name = r.optString(m.name, `${path}.name`);
      msg.toolResults.push(toolResult(id, name, text, retryPromptError(text)));
    }
    return msg;
  });
  const fallbackModels = Array.isArray(req.models) ? req.models.filter((m): m is string => typeof m === 'string') : [];
  return {
    ...(model !== undefined ? { model } : {}),
    system: system.join('\n'),
    messages,
    ...(fallbackModels.length > 0 ? { fallbackModels } : {}),
    notes: [],
  };
}

export function parseChatResponse(body: unknown, r: Reader): ParsedResponse {
  const { res, usage } = responseBody(body, r);
  const inputTokens = r.count(usage.prompt_tokens, 'usage.prompt_tokens');
  const outputTokens = r.count(usage.completion_tokens, 'usage.completion_tokens');
  const promptDetails = r.optObject(usage.prompt_tokens_details, 'usage.prompt_tokens_details');
  const completionDetails = r.optObject(usage.completion_tokens_details, 'usage.completion_tokens_details');
  const cachedInputTokens =
    r.optCount(promptDetails?.cached_tokens, 'usage.prompt_tokens_details.cached_tokens') ??
    r.optCount(usage.prompt_cache_hit_tokens, 'usage.prompt_cache_hit_tokens');
  const cacheWriteTokens = r.optCount(promptDetails?.cache_write_tokens, 'usage.prompt_tokens_details.cache_write_tokens');
  const reasoningTokens = r.optCount(completionDetails?.reasoning_tokens, 'usage.completion_tokens_details.reasoning_tokens');
  const recordedCostUsd = r.optCount(usage.cost, 'usage.cost', { integer: false });

  const choices = r.array(res.choices, 'choices');
  const toolCalls: ParsedToolCall[] = [];
  let hasText = false;
  let reasoningText = false;
  const notes: string[] = [];
  if (choices.length > 0) {
    const choice = r.object(choices[0], 'choices[0]');
    const message = r.object(choice.message, 'choices[0].message');
    hasText = flattenText(message.content).trim() !== '';
    reasoningText = hasReasoningField(message);
    const calls = r.optArray(message.tool_calls, 'choices[0].message.tool_calls') ?? [];
    eachObject(r, calls, 'choices[0].message.tool_calls', (call, path) => {
      const fn = r.object(call.function, `${path}.function`);
      const name = r.toolName(fn.name, `${path}.function.name`);
      const id = r.optString(call.id, `${path}.id`);
      toolCalls.push(toolCall(id, name, parseToolArguments(fn.arguments)));
    });
    if (choices.length > 1) notes.push(`n=${choices.length} choices: only choices[0] is replayed`);
  }
  return parsedResponse({
    usage: { inputTokens, outputTokens, cachedInputTokens, cacheWriteTokens, reasoningTokens, recordedCostUsd },
    toolCalls,
    hasText,
    reasoningText,
    ...responseNames(res, r),
    notes,
  });
}
