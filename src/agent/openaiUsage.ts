/**
 * Usage as the loop bills it, read from a Chat Completions response or error body. The standard fields
 * give the prompt (cache reads and writes included), its cached part, the output and its reasoning part;
 * cache writes, which the standard usage has no field for, are read where a response carries them:
 *   `loopcost.usage.cacheWrite` / `cacheWrite1h`       `loopcost serve`'s extension: writes by lifetime
 *   `usage.prompt_tokens_details.cache_write_tokens`  OpenRouter's usage accounting (and `loopcost serve`)
 *   `usage.cache_creation_input_tokens`               LiteLLM's proxy for Anthropic models
 * The last two give no lifetime: they are billed as 5-minute writes. (Anthropic's own OpenAI-compatible
 * endpoint reports no cache figures.) A failed call's usage is read from `error.loopcost.usage`, where
 * `loopcost serve` puts what a recorded failed call was billed; other providers bill a failure nothing.
 */
import type { ChatCompletion } from 'openai/resources/chat/completions';
import type { CallUsage } from '../pricing/types.js';
import type { ModelUsage } from './types.js';

/** `loopcost serve`'s usage of a call as billed: the pricer's own CallUsage. */
type ServeUsage = CallUsage;

const SERVE_FIELDS = ['input', 'cached', 'cacheWrite', 'cacheWrite1h', 'output', 'reasoning'] as const satisfies readonly (keyof CallUsage)[];

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined;
}

/** `holder.loopcost.usage` when it has the shape `loopcost serve` writes. */
function serveUsageIn(holder: unknown): ServeUsage | undefined {
  const usage = record(record(record(holder)?.['loopcost'])?.['usage']);
  return usage && SERVE_FIELDS.every((field) => isCount(usage[field])) ? (usage as unknown as ServeUsage) : undefined;
}

/** Cache writes a response reports, by lifetime (see the module comment for the fields read). */
function cacheWritesOf(completion: ChatCompletion): Pick<ModelUsage, 'cacheWriteTokens' | 'cacheWrite1hTokens'> {
  const serve = serveUsageIn(completion);
  if (serve) return { ...(serve.cacheWrite ? { cacheWriteTokens: serve.cacheWrite } : {}), ...(serve.cacheWrite1h ? { cacheWrite1hTokens: serve.cacheWrite1h } : {}) };
  const usage = record(completion.usage);
  const openRouter = record(usage?.['prompt_tokens_details'])?.['cache_write_tokens'];
  const liteLlm = usage?.['cache_creation_input_tokens'];
  const written = isCount(openRouter) ? openRouter : isCount(liteLlm) ? liteLlm : 0;
  return written ? { cacheWriteTokens: written } : {};
}

/** The usage of a response: standard fields, cache writes where the response carries them. */
export function usageOf(completion: ChatCompletion): ModelUsage {
  const usage = completion.usage;
  return {
    ...(usage ? { inputTokens: usage.prompt_tokens } : {}),
    ...(usage?.prompt_tokens_details?.cached_tokens ? { cachedInputTokens: usage.prompt_tokens_details.cached_tokens } : {}),
    ...(usage ? cacheWritesOf(completion) : {}),
    outputTokens: usage?.completion_tokens ?? 0,
    ...(usage?.completion_tokens_details?.reasoning_tokens ? { reasoningTokens: usage.completion_tokens_details.reasoning_tokens } : {}),
  };
}

/** The usage a failed call was billed, when its error body (the SDK's `error.error`) says: `loopcost serve`'s `loopcost.usage`. */
export function failedUsageOf(errorBody: unknown): ModelUsage | undefined {
  const serve = serveUsageIn(errorBody);
  if (!serve || serve.input + serve.output === 0) return undefined;
  return {
    inputTokens: serve.input,
    ...(serve.cached ? { cachedInputTokens: serve.cached } : {}),
    ...(serve.cacheWrite ? { cacheWriteTokens: serve.cacheWrite } : {}),
    ...(serve.cacheWrite1h ? { cacheWrite1hTokens: serve.cacheWrite1h } : {}),
    outputTokens: serve.output,
    ...(serve.reasoning ? { reasoningTokens: serve.reasoning } : {}),
  };
}
