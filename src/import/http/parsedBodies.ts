/**
 * The provider-neutral view of one request and one response that every provider parser (anthropic.ts,
 * bedrock.ts, cohere.ts, gemini.ts, openaiChat.ts, openaiResponses.ts) produces and build.ts turns into calls.
 */

/** Request/response body shapes we understand. */
export type Shape = 'openai-chat' | 'openai-responses' | 'anthropic' | 'gemini' | 'bedrock' | 'cohere';

/** A tool result found in a request's history. */
export interface NormToolResult {
  /** Call id it answers (tool_call_id, call_id, tool_use_id, functionResponse.id, toolUseId). */
  id?: string;
  name?: string;
  /** Text the model reads (what we count tokens of). */
  text: string;
  /** Error text when the result is flagged as an error (is_error, status error, retry prompt). */
  error?: string;
}

/** One message (or item) of a request's history, provider-neutral. */
export interface NormMessage {
  /** `system`, `user`, `assistant`, `tool`, or an item type for opaque items (`compaction`, `reasoning`, ...). */
  role: string;
  text: string;
  /** Tool calls of an assistant turn as echoed in the history (arguments as sent back). */
  toolCalls: { id?: string; name: string; arguments?: unknown }[];
  toolResults: NormToolResult[];
  /** Item ids (Responses API) this message carries, e.g. a compaction item id. */
  itemIds?: string[];
  /** How this turn of the history carries a call's reasoning (reasoningReturn.ts); absent: it carries none. */
  reasoning?: CarriedReasoning;
}

/**
 * How a history's copy of an assistant turn carries the reasoning of the call that produced it: `field` in the
 * provider's own place for it (`reasoning_content`/`reasoning`/`reasoning_details`, `thinking` blocks, `thought`
 * parts, `reasoning` items, `reasoningContent` blocks), `opaque` only as a signature or encrypted form of it
 * (Gemini's `thoughtSignature`, `redacted_thinking`), `tagged` as `<think>` text in the turn's content.
 */
export type CarriedReasoning = 'field' | 'opaque' | 'tagged';

export interface ParsedRequest {
  model?: string;
  /** System prompt / instructions text. */
  system: string;
  messages: NormMessage[];
  /** Responses API: the response this request continues server-side. */
  previousResponseId?: string;
  /** OpenRouter routing: models the router may serve the call with instead (`models`). */
  fallbackModels?: string[];
  notes: string[];
}

export interface ParsedToolCall {
  id?: string;
  name: string;
  arguments: unknown;
}

export interface ParsedUsage {
  inputTokens: number;
  cachedInputTokens?: number;
  cacheWriteTokens?: number;
  cacheWrite1hTokens?: number;
  outputTokens: number;
  reasoningTokens?: number;
  /** Web searches the provider ran inside the call (Anthropic's usage.server_tool_use.web_search_requests, OpenAI Responses' web_search_call items): billed per search. */
  webSearchRequests?: number;
  recordedCostUsd?: number;
}

export interface ParsedResponse {
  usage: ParsedUsage;
  toolCalls: ParsedToolCall[];
  /** The response carried text (an answer). */
  hasText: boolean;
  /** The response carried reasoning text or blocks (whatever its usage says of reasoning tokens). */
  reasoningText?: boolean;
  model?: string;
  /** Response id (Responses API chains on it). */
  id?: string;
  /** Item ids the response produced that a later request may carry (compaction items). */
  producedItemIds: string[];
  /** Responses API: the ids of its output items a later request may name by `item_reference`, its reasoning items' and its turn's (messages, tool calls). */
  outputItemIds?: OutputItemIds;
  latencyMs?: number;
  notes: string[];
}

/** The ids of a Responses API response's output items: its `reasoning` items', and its turn's (messages, tool calls). */
export interface OutputItemIds {
  reasoning: string[];
  turn: string[];
}

export function emptyMessage(role: string): NormMessage {
  return { role, text: '', toolCalls: [], toolResults: [] };
}

/** A tool call of a response or of an assistant turn in a history (the id left out when absent). */
export function toolCall(id: string | undefined, name: string, args: unknown): ParsedToolCall {
  return { ...(id !== undefined ? { id } : {}), name, arguments: args };
}

/** A tool result of a history (id, name and error left out when absent). */
export function toolResult(
  id: string | undefined,
  name: string | undefined,
  text: string,
  error: string | undefined,
): NormToolResult {
  return {
    ...(id !== undefined ? { id } : {}),
    ...(name !== undefined ? { name } : {}),
    text,
    ...(error !== undefined ? { error } : {}),
  };
}

/** What a provider parser read from a response body; undefined fields are absent. */
export interface ResponseParts {
  usage: ParsedUsage;
  toolCalls: ParsedToolCall[];
  hasText: boolean;
  reasoningText?: boolean;
  model?: string | undefined;
  id?: string | undefined;
  latencyMs?: number | undefined;
  producedItemIds?: string[];
  outputItemIds?: OutputItemIds;
  notes?: string[];
}

/** The ParsedResponse of `parts`, its absent fields (and absent usage fields) left out. */
export function parsedResponse(parts: ResponseParts): ParsedResponse {
  const { usage, toolCalls, hasText, reasoningText, model, id, latencyMs, producedItemIds = [], outputItemIds, notes = [] } = parts;
  return {
    usage: withoutUndefined(usage),
    toolCalls,
    hasText,
    ...(reasoningText === true ? { reasoningText } : {}),
    ...(model !== undefined ? { model } : {}),
    ...(id !== undefined ? { id } : {}),
    ...(latencyMs !== undefined ? { latencyMs } : {}),
    producedItemIds,
    ...(outputItemIds !== undefined ? { outputItemIds } : {}),
    notes,
  };
}

function withoutUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
