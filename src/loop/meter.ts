/**
 * Turns a model response into billed usage under a context strategy. A recorded prompt size is the
 * truth: a strategy only moves it by what the strategy adds or removes relative to full history, so any
 * overhead the growth model does not see (tool schemas, message framing) stays in.
 */
import type { ContextStrategy, CacheMode } from '../context/strategy.js';
import { isIdentity } from '../context/strategy.js';
import type { PromptView } from '../context/tracker.js';
import { callCostPico } from '../pricing/cost.js';
import type { CallUsage, ModelPricing } from '../pricing/types.js';
import type { CallRecord } from '../trace/types.js';

export interface MeteredCall {
  usage: CallUsage;
  costPico: number;
  /** Recorded prompt size minus the growth model's full-history size; undefined when not recorded. */
  recordedInputDelta?: number;
}

export function meterCall(
  call: CallRecord,
  view: PromptView,
  strategy: ContextStrategy,
  cache: CacheMode,
  pricing: ModelPricing,
): MeteredCall {
  const recorded = call.inputTokens;
  const identity = isIdentity(strategy);
  let input: number;
  let recordedInputDelta: number | undefined;
  if (call.failed) {
    input = recorded ?? 0;
  } else if (recorded !== undefined) {
    recordedInputDelta = recorded - view.fullInputTokens;
    input = identity ? recorded : Math.max(0, recorded + view.inputTokens - view.fullInputTokens);
  } else {
    input = view.inputTokens;
  }

  let cached = 0;
  let cacheWrite = 0;
  let cacheWrite1h = 0;
  if (cache === 'recorded' || call.failed) {
    cached = call.cachedInputTokens ?? 0;
    cacheWrite = call.cacheWriteTokens ?? 0;
    cacheWrite1h = call.cacheWrite1hTokens ?? 0;
    if (!identity && !call.failed) {
      // The strategy changed the prompt: the cache can serve no more than the unchanged prefix
      // (plus the overhead the model does not see, which sits in the prefix).
      const overhead = Math.max(0, recordedInputDelta ?? 0);
      cached = Math.min(cached, view.unchangedPrefixTokens + overhead, input);
      const writable = input - cached;
      cacheWrite = Math.min(cacheWrite, writable);
      cacheWrite1h = Math.min(cacheWrite1h, writable - cacheWrite);
    }
  } else if (cache === 'on') {
    cached = Math.min(view.unchangedPrefixTokens, input);
    // Providers that bill cache writes (Anthropic-style) write what the cache did not serve.
    if (pricing.base.cacheWrite !== undefined) cacheWrite = input - cached;
  }

  const output = call.outputTokens;
  const usage: CallUsage = {
    input,
    cached,
    cacheWrite,
    cacheWrite1h,
    output,
    reasoning: Math.min(call.reasoningTokens ?? 0, output),
  };
  const result: MeteredCall = { usage, costPico: callCostPico(pricing, usage) };
  if (recordedInputDelta !== undefined) result.recordedInputDelta = recordedInputDelta;
  return result;
}
