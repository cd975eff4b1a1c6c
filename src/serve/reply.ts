/**
 * One answered call as Chat Completions sends it: a `chat.completion` object, or the same content as
 * `chat.completion.chunk` server-sent events (usage in a last chunk with no choices when the client asked
 * for it with `stream_options.include_usage`, then `data: [DONE]`).
 */
import type { CallUsage, ModelPricing } from '../pricing/types.js';
import type { CallRecord } from '../trace/types.js';
import { cacheWriteTokensOf } from '../loop/accounts.js';

export interface ReplyToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

/** What a session answered: the response as the loop bills it. */
export interface Reply {
  session: string;
  /** 1-based call number in the session. */
  call: number;
  model: string;
  content: string | null;
  toolCalls: ReplyToolCall[];
  /** The response as the loop sees it (tool results' sizes, final / backtrack / failed flags). */
  record: CallRecord;
  usage: CallUsage;
  costPico: number;
  /** The pricing `costPico` is at (pricedAs): a client whose own pricing bills the call otherwise can tell why (agent/servedCost.ts). */
  pricedAs?: PricedAs;
  /** Cut at the request's output cap (finish_reason "length"). */
  cut?: boolean;
}

/** A pricing as a served answer names it: the model and provider priced, the day its prices were read at (`asOf`) and why that day (`dating`: `recorded`, the recording's `header.recordedAt`). */
export interface PricedAs {
  model: string;
  provider?: string;
  asOf?: string;
  dating?: string;
}

/** `pricing` as a served answer names it (PricedAs). */
export function pricedAsOf(pricing: ModelPricing): PricedAs {
  const { asOf, dating } = pricing.source;
  return { model: pricing.model, ...(pricing.provider === undefined ? {} : { provider: pricing.provider }), ...(asOf === undefined ? {} : { asOf }), ...(dating === undefined ? {} : { dating }) };
}

export interface OpenAiUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  /** `cache_write_tokens`: written to the cache, both lifetimes (OpenRouter's field; by lifetime in the `loopcost` extension). */
  prompt_tokens_details: { cached_tokens: number; cache_write_tokens: number };
  completion_tokens_details: { reasoning_tokens: number };
}

export function openAiUsage(usage: CallUsage): OpenAiUsage {
  return {
    prompt_tokens: usage.input,
    completion_tokens: usage.output,
    total_tokens: usage.input + usage.output,
    prompt_tokens_details: { cached_tokens: usage.cached, cache_write_tokens: cacheWriteTokensOf(usage) },
    completion_tokens_details: { reasoning_tokens: usage.reasoning },
  };
}

/**
 * A call's usage as served: the metered tokens, and the web searches the call ran (`webSearches`, absent
 * when none), which its costPico bills per search (kernel/cost.ts requestFeesPico) and Chat Completions'
 * standard usage has no field for: a client reads them from the `loopcost` extension (agent/openaiUsage.ts).
 */
export function servedUsage(usage: CallUsage, record: CallRecord): CallUsage {
  return record.webSearchRequests ? { ...usage, webSearches: record.webSearchRequests } : usage;
}

/**
 * What loopcost adds to each response beside the standard fields (clients ignore unknown fields). Its
 * `costPico` is a string of digits, as every picodollar figure serve writes (`/loopcost/sessions`,
 * `error.loopcost` of a recorded failure): money is exact, and a JSON number past 2^53 is not. `pricedAs`:
 * the pricing it is at (its day a recording's own: a client at the table's latest prices tells the two apart).
 */
export function loopcostExtension(reply: Reply): Record<string, unknown> {
  return { ...billedOf(reply), ...(reply.pricedAs === undefined ? {} : { pricedAs: reply.pricedAs }), record: reply.record };
}

/** What a reply billed, as every serve output writes it: its session and call, usage and `costPico` as a string of digits. */
export function billedOf(reply: Reply): { session: string; call: number; usage: Reply['usage']; costPico: string } {
  return { session: reply.session, call: reply.call, usage: reply.usage, costPico: String(reply.costPico) };
}

function completionId(reply: Reply): string {
  return `chatcmpl-loopcost-${reply.session}-${reply.call}`;
}

function finishReason(reply: Reply): 'tool_calls' | 'stop' | 'length' {
  if (reply.cut) return 'length';
  return reply.toolCalls.length > 0 ? 'tool_calls' : 'stop';
}

/** The non-streaming response. `created` is 0: answers are deterministic (no wall clock in them). */
export function completionBody(reply: Reply): Record<string, unknown> {
  const message: Record<string, unknown> = { role: 'assistant', content: reply.content, refusal: null };
  if (reply.toolCalls.length > 0) message['tool_calls'] = reply.toolCalls;
  return {
    id: completionId(reply),
    object: 'chat.completion',
    created: 0,
    model: reply.model,
    choices: [{ index: 0, message, logprobs: null, finish_reason: finishReason(reply) }],
    usage: openAiUsage(reply.usage),
    loopcost: loopcostExtension(reply),
  };
}

/** The streamed response as SSE text: role, content, one chunk per tool call, finish, usage (if asked), [DONE]. */
export function completionEvents(reply: Reply, includeUsage: boolean): string {
  const base = { id: completionId(reply), object: 'chat.completion.chunk', created: 0, model: reply.model };
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
    ...base,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
    ...(includeUsage ? { usage: null } : {}),
  });
  const chunks: unknown[] = [chunk({ role: 'assistant', content: '' })];
  if (reply.content) chunks.push(chunk({ content: reply.content }));
  reply.toolCalls.forEach((call, index) => chunks.push(chunk({ tool_calls: [{ index, ...call }] })));
  chunks.push(chunk({}, finishReason(reply)));
  if (includeUsage) chunks.push({ ...base, choices: [], usage: openAiUsage(reply.usage), loopcost: loopcostExtension(reply) });
  return chunks.map((c) => `data: ${JSON.stringify(c)}\n\n`).join('') + 'data: [DONE]\n\n';
}

/** Tool calls of a response as Chat Completions sends them: arguments as a JSON string, recorded ids kept. */
export function replyToolCalls(record: CallRecord, idPrefix: string): ReplyToolCall[] {
  return (record.toolCalls ?? []).map((tool, i) => ({
    id: tool.id ?? `call_${idPrefix}_${i + 1}`,
    type: 'function',
    function: { name: tool.name, arguments: typeof tool.arguments === 'string' ? tool.arguments : JSON.stringify(tool.arguments ?? {}) },
  }));
}

/** What a response is, in its text's words: a step (tool calls), an unparseable response, a backtrack, a compaction summary, an answer. */
export function answerKind(record: CallRecord): string {
  if ((record.toolCalls?.length ?? 0) > 0) return 'step';
  return record.unparseable ? 'unparseable response' : record.backtrack ? 'backtrack' : record.compaction ? 'compaction summary' : 'answer';
}

/**
 * Text of a response without tool calls (traces keep token counts, not text). A synthetic session's answers
 * carry text of their size instead (synthetic.ts, sizedText.ts).
 */
export function placeholderText(record: CallRecord, what: string): string | null {
  if ((record.toolCalls?.length ?? 0) > 0) return null;
  return `[loopcost] ${what} ${answerKind(record)} (${record.outputTokens} output tokens; no text is kept)`;
}
