/**
 * Usage as the loop bills it, read from a Chat Completions response or error body. The standard fields
 * give the prompt (cache reads and writes included), its cached part, the output and its reasoning part;
 * cache writes, which the standard usage has no field for, are read where a response carries them:
 *   `loopcost.usage.cacheWrite` / `cacheWrite1h`       `loopcost serve`'s extension: writes by lifetime
 *   `usage.prompt_tokens_details.cache_write_tokens`  OpenRouter's usage accounting (and `loopcost serve`)
 *   `usage.cache_creation_input_tokens`               LiteLLM's proxy for Anthropic models
 * The last two give no lifetime: they are billed as 5-minute writes. (Anthropic's own OpenAI-compatible
 * endpoint reports no cache figures.) A call's web searches, which the standard usage has no field for,
 * are read from `loopcost.usage.webSearches` (serve's extension). A failed call's usage is read from
 * `error.loopcost.usage`, where `loopcost serve` puts what a recorded failed call was billed; other
 * providers bill a failure nothing.
 *
 * One rule for every figure read (isTokenCount): a whole number ≥ 0 that a JSON number holds exactly is
 * reported; anything else (null, negative, fractional, non-finite, a string) is not. A prompt not
 * reported is billed as a response without usage is (the estimate), and so are its parts (cached, cache
 * writes), which cannot be checked against it; an output not reported is 0, marked `outputNotReported`
 * (so is an output of 0 for a response with text or tool calls: openaiResponse.ts turnOf), and the loop
 * counts it from the response (unreportedUsage.ts). A prompt of 0 is not reported either: every
 * request sends some tokens. (`loopcost serve`'s zeros are figures it billed, as a recording states them:
 * billedByServe.) The parts are capped at their
 * whole — cached + cache writes at the prompt, reasoning at the output — as every reader of a recording
 * requires (trace/rules.ts), so what the run bills is what its recording replays to.
 *
 * A count no call can have (implausibleUsage: a prompt or an output past the model's context window when
 * the adapter is told it, else past MAX_CALL_TOKENS) is the server's error, not a figure to bill: the
 * adapter fails the call with the field and value named (openaiChat.ts), so a run is never blamed for it.
 */
import type { ChatCompletion } from 'openai/resources/chat/completions';
import type { CallUsage } from '../pricing/types.js';
import { isTokenCount } from '../io/limits.js';
import type { ModelUsage } from './types.js';

/**
 * The most tokens one call can report for its prompt or its output, whatever the model: 10,000,000, the
 * largest context window in the bundled price table (Llama 4 Scout's). At the table's dearest prices
 * (o1-pro: $150 a million prompt tokens, $600 a million output) a call of both costs $7,500, below the
 * $9,007 one run may cost (kernel/cost.ts costOutOfRange): a run past that is many plausible calls, which
 * its settings bound, never one call the server misreported.
 */
export const MAX_CALL_TOKENS = 10_000_000;

/** Where a response's usage figures were read: the standard fields, or `loopcost serve`'s error body. */
export const USAGE_FIELDS = { input: 'usage.prompt_tokens', output: 'usage.completion_tokens' } as const;
export const FAILED_USAGE_FIELDS = { input: 'error.loopcost.usage.input', output: 'error.loopcost.usage.output' } as const;

/**
 * Why `usage` cannot be a real call's (its field and value named), or undefined: a prompt or an output past
 * `contextWindowTokens` when given (a call's prompt and output fit its model's window), else past
 * MAX_CALL_TOKENS.
 */
export function implausibleUsage(usage: ModelUsage, fields: { input: string; output: string }, contextWindowTokens?: number): string | undefined {
  const bound = contextWindowTokens ?? MAX_CALL_TOKENS;
  const within = contextWindowTokens === undefined ? "any model's context window" : "the model's context window";
  const past = (field: string, value: number) => `the server reported ${field} = ${value}, more than ${within} (${bound.toLocaleString('en-US')} tokens): no call has that usage, so the figure is the server's error, not the run's`;
  if (usage.inputTokens !== undefined && usage.inputTokens > bound) return past(fields.input, usage.inputTokens);
  if (usage.outputTokens > bound) return past(fields.output, usage.outputTokens);
  return undefined;
}

/** `loopcost serve`'s usage of a call as billed: the pricer's own CallUsage. */
type ServeUsage = CallUsage;

const SERVE_FIELDS = ['input', 'cached', 'cacheWrite', 'cacheWrite1h', 'output', 'reasoning'] as const satisfies readonly (keyof CallUsage)[];

/** A figure as reported: the count, or undefined when it is not a whole number ≥ 0 (see the module comment). */
function count(value: unknown): number | undefined {
  return isTokenCount(value) ? value : undefined;
}

function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined;
}

/** `holder.loopcost.usage` when it has the shape `loopcost serve` writes. */
function serveUsageIn(holder: unknown): ServeUsage | undefined {
  const usage = record(record(record(holder)?.['loopcost'])?.['usage']);
  return usage && SERVE_FIELDS.every((field) => isTokenCount(usage[field])) ? (usage as unknown as ServeUsage) : undefined;
}

/** The figures read, each part capped at its whole; the prompt's parts dropped with it when it is not reported. */
function consistentUsage(input: number | undefined, cached: number, write5m: number, write1h: number, output: number, reasoning: number): ModelUsage {
  const readPart = input === undefined ? 0 : Math.min(cached, input);
  const written5m = input === undefined ? 0 : Math.min(write5m, input - readPart);
  const written1h = input === undefined ? 0 : Math.min(write1h, input - readPart - written5m);
  const reasoned = Math.min(reasoning, output);
  return {
    ...(input === undefined ? {} : { inputTokens: input }),
    ...(readPart ? { cachedInputTokens: readPart } : {}),
    ...(written5m ? { cacheWriteTokens: written5m } : {}),
    ...(written1h ? { cacheWrite1hTokens: written1h } : {}),
    outputTokens: output,
    ...(reasoned ? { reasoningTokens: reasoned } : {}),
  };
}

/** `usage` with the web searches serve's extension says the call ran (`loopcost.usage.webSearches`; none when absent). */
function withServeSearches(usage: ModelUsage, serve: ServeUsage | undefined): ModelUsage {
  const searches = count(serve?.webSearches);
  return searches ? { ...usage, webSearchRequests: searches } : usage;
}

/** Cache writes a response reports, by lifetime (see the module comment for the fields read). */
function cacheWritesOf(completion: ChatCompletion, usage: Record<string, unknown>): { write5m: number; write1h: number } {
  const serve = serveUsageIn(completion);
  if (serve) return { write5m: serve.cacheWrite, write1h: serve.cacheWrite1h };
  const openRouter = count(record(usage['prompt_tokens_details'])?.['cache_write_tokens']);
  return { write5m: openRouter ?? count(usage['cache_creation_input_tokens']) ?? 0, write1h: 0 };
}

/** The usage of a response: standard fields, cache writes where the response carries them; figures not reported left out (an output: 0, marked `outputNotReported`). */
export function usageOf(completion: ChatCompletion): ModelUsage {
  const usage = record(completion.usage);
  if (!usage) return { outputTokens: 0, outputNotReported: true };
  const cached = count(record(usage['prompt_tokens_details'])?.['cached_tokens']) ?? 0;
  const reasoning = count(record(usage['completion_tokens_details'])?.['reasoning_tokens']) ?? 0;
  const { write5m, write1h } = cacheWritesOf(completion, usage);
  const output = count(usage['completion_tokens']);
  // 0: no request sends nothing — not reported, unless `loopcost serve` states it billed that (a recording's figure, replayed as recorded).
  const prompt = billedByServe(completion) ? count(usage['prompt_tokens']) : count(usage['prompt_tokens']) || undefined;
  const read = withServeSearches(consistentUsage(prompt, cached, write5m, write1h, output ?? 0, reasoning), serveUsageIn(completion));
  return output === undefined ? { ...read, outputNotReported: true } : read;
}

/** Whether `loopcost serve` states the usage it billed (its `loopcost.usage`): its figures are a recording's or a scenario's, each as billed, zeros too. */
export function billedByServe(completion: ChatCompletion): boolean {
  return serveUsageIn(completion) !== undefined;
}

/** The usage a failed call was billed, when its error body (the SDK's `error.error`) says: `loopcost serve`'s `loopcost.usage`. */
export function failedUsageOf(errorBody: unknown): ModelUsage | undefined {
  const serve = serveUsageIn(errorBody);
  if (!serve || serve.input + serve.output === 0) return undefined;
  return withServeSearches(consistentUsage(serve.input, serve.cached, serve.cacheWrite, serve.cacheWrite1h, serve.output, serve.reasoning), serve);
}
