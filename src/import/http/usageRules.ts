/**
 * The rules every call obeys (src/trace/rules.ts: cached tokens part of the prompt, reasoning part of the
 * output, counts held exactly) applied to a response's usage as its parser read it, each broken one named
 * at the body's own field (`response.usage.prompt_tokens_details.cached_tokens`) and the exchange's line,
 * as the trajectory importers name theirs, instead of at the converted trace's (`calls[0].cachedInputTokens`)
 * once the run is built.
 */
import { callRuleViolations, RULES_HINT } from '../../trace/rules.js';
import type { CallRecord } from '../../trace/types.js';
import { isJsonObject } from '../common/jsonValue.js';
import type { Reader } from './bodyReader.js';
import type { ParsedUsage, Shape } from './parsedBodies.js';

/** Where each usage field is read from in a response body of each API (paths in the body, the first one it holds). */
type UsageSources = Partial<Record<keyof ParsedUsage, readonly string[]>>;

const CHAT: UsageSources = {
  inputTokens: ['usage.prompt_tokens'],
  cachedInputTokens: ['usage.prompt_tokens_details.cached_tokens', 'usage.prompt_cache_hit_tokens'],
  cacheWriteTokens: ['usage.prompt_tokens_details.cache_write_tokens'],
  outputTokens: ['usage.completion_tokens'],
  reasoningTokens: ['usage.completion_tokens_details.reasoning_tokens'],
  recordedCostUsd: ['usage.cost'],
};

const SOURCES: Record<Shape, UsageSources> = {
  'openai-chat': CHAT,
  'openai-responses': {
    inputTokens: ['usage.input_tokens'],
    cachedInputTokens: ['usage.input_tokens_details.cached_tokens'],
    cacheWriteTokens: ['usage.input_tokens_details.cache_write_tokens'],
    outputTokens: ['usage.output_tokens'],
    reasoningTokens: ['usage.output_tokens_details.reasoning_tokens'],
  },
  anthropic: {
    inputTokens: ['usage.input_tokens'],
    cachedInputTokens: ['usage.cache_read_input_tokens'],
    cacheWriteTokens: ['usage.cache_creation_input_tokens', 'usage.cache_creation.ephemeral_5m_input_tokens'],
    cacheWrite1hTokens: ['usage.cache_creation.ephemeral_1h_input_tokens'],
    outputTokens: ['usage.output_tokens'],
    webSearchRequests: ['usage.server_tool_use.web_search_requests'],
  },
  gemini: {
    inputTokens: ['usageMetadata.promptTokenCount'],
    cachedInputTokens: ['usageMetadata.cachedContentTokenCount'],
    outputTokens: ['usageMetadata.candidatesTokenCount', 'usageMetadata.thoughtsTokenCount'],
    reasoningTokens: ['usageMetadata.thoughtsTokenCount'],
  },
  bedrock: {
    inputTokens: ['usage.inputTokens'],
    cachedInputTokens: ['usage.cacheReadInputTokens'],
    cacheWriteTokens: ['usage.cacheWriteInputTokens'],
    outputTokens: ['usage.outputTokens'],
  },
  cohere: { inputTokens: ['usage.billed_units.input_tokens'], outputTokens: ['usage.billed_units.output_tokens'] },
};

/** Whether `body` holds a value at the dotted `path`. */
function holds(body: unknown, path: string): boolean {
  let value = body;
  for (const key of path.split('.')) {
    if (!isJsonObject(value)) return false;
    value = value[key];
  }
  return value !== undefined && value !== null;
}

/** The body's field a usage field was read from; `usage` (the block) when none of its places is held. */
function sourceOf(shape: Shape, field: string, body: unknown): string {
  const places = SOURCES[shape][field as keyof ParsedUsage] ?? [];
  return places.find((path) => holds(body, path)) ?? (shape === 'gemini' ? 'usageMetadata' : 'usage');
}

/** Refuses a response whose usage breaks a rule every call obeys, at the body's field (`r`: the response body's reader). */
export function checkUsageRules(shape: Shape, usage: ParsedUsage, body: unknown, r: Reader): void {
  const record: CallRecord = { type: 'call', ...usage };
  const broken = callRuleViolations(record)[0];
  if (broken !== undefined) r.fail(sourceOf(shape, broken.field, body), broken.code, broken.message, broken.hint ?? RULES_HINT);
}
