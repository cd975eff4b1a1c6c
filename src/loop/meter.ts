/**
 * The kernel meter (src/kernel/meter.ts) for one CallRecord, with its usage as an object: what the
 * readable session and the per-step rows work with.
 */
import type { CacheMode, ContextStrategy } from '../context/strategy.js';
import { isIdentity } from '../context/strategy.js';
import { writeCallRecord, CallField } from '../kernel/callRecord.js';
import type { PromptView } from '../kernel/context.js';
import { CacheModeCode, Metered, Prompt, meterCall as meterKernel } from '../kernel/meter.js';
import type { FlatPrices } from '../kernel/prices.js';
import type { CallUsage } from '../pricing/types.js';
import type { CallRecord } from '../trace/types.js';

export interface MeteredCall {
  usage: CallUsage;
  costPico: number;
  /** Recorded prompt size minus the growth model's full-history size; undefined when not recorded. */
  recordedInputDelta?: number;
  /** Cache on: cached tokens the provider's minimum cacheable prefix rule did not serve. */
  cacheRuleLostTokens: number;
}

export function cacheModeCode(cache: CacheMode): CacheModeCode {
  return cache === 'recorded' ? CacheModeCode.Recorded : cache === 'on' ? CacheModeCode.On : CacheModeCode.Off;
}

const record = new Float64Array(CallField.Size);
const out = new Float64Array(Metered.Size);
const prompt = new Float64Array(Prompt.Size);

/** What meters a run's calls, resolved once per run: its prices, whether its strategy is full history, its cache mode. */
export interface MeterSettings {
  prices: FlatPrices;
  identity: boolean;
  cacheMode: CacheModeCode;
}

export function meterSettings(strategy: ContextStrategy, cache: CacheMode, prices: FlatPrices): MeterSettings {
  return { prices, identity: isIdentity(strategy), cacheMode: cacheModeCode(cache) };
}

export function meterCall(call: CallRecord, view: PromptView, settings: MeterSettings): MeteredCall {
  writeCallRecord(record, 0, call);
  prompt[Prompt.View] = view.inputTokens;
  prompt[Prompt.Full] = view.fullInputTokens;
  prompt[Prompt.Unchanged] = view.unchangedPrefixTokens;
  meterKernel(out, settings.prices, settings.identity, settings.cacheMode, record, 0, prompt);
  const usage: CallUsage = {
    input: out[Metered.Input]!,
    cached: out[Metered.Cached]!,
    cacheWrite: out[Metered.CacheWrite]!,
    cacheWrite1h: out[Metered.CacheWrite1h]!,
    output: out[Metered.Output]!,
    reasoning: out[Metered.Reasoning]!,
  };
  const result: MeteredCall = { usage, costPico: out[Metered.CostPico]!, cacheRuleLostTokens: out[Metered.RuleLost]! };
  if (call.inputTokens !== undefined && !call.failed) result.recordedInputDelta = out[Metered.RecordedDelta]!;
  return result;
}
