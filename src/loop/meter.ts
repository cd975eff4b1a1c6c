/**
 * The kernel meter (src/kernel/meter.ts) for one CallRecord, with its usage as an object: what the
 * readable session and the per-step rows work with.
 */
import type { CacheMode, ContextStrategy } from '../context/strategy.js';
import { isIdentity } from '../context/strategy.js';
import { writeCallRecord, CallField, CallFlag } from '../kernel/callRecord.js';
import type { PromptView } from '../kernel/context.js';
import { CacheModeCode, Metered, Prompt, meterCall as meterKernel } from '../kernel/meter.js';
import type { FlatPrices } from '../kernel/prices.js';
import type { CallUsage } from '../pricing/types.js';
import type { CallRecord } from '../trace/types.js';

export interface MeteredCall {
  usage: CallUsage;
  costPico: number;
  /** Recorded prompt size minus the growth model's full-history size; undefined when not recorded. */
  recordedInputDelta?: number | undefined;
  /** Cache on: cached tokens the provider's minimum cacheable prefix rule did not serve. */
  cacheRuleLostTokens: number;
}

export function cacheModeCode(cache: CacheMode): CacheModeCode {
  return cache === 'recorded' ? CacheModeCode.Recorded : cache === 'on' ? CacheModeCode.On : CacheModeCode.Off;
}

const record = new Float64Array(CallField.Size);
const out = new Float64Array(Metered.Size);
const prompt = new Float64Array(Prompt.Size);

/** `call`'s figures in the CallField layout (kernel/callRecord.ts writeCallRecord), in the meter's record: read them before anything is metered again. */
export function writeCallFields(call: CallRecord): Float64Array {
  writeCallRecord(record, 0, call);
  return record;
}

/**
 * The figures of the call metered last, as the meter wrote them (meterCallInto): for a caller that metered a
 * call and reads them before anything is metered again, the call unchanged since (LoopSession.recordResponse after
 * its own meter: a call's fields read once, for its meter, its flags and its cost alone).
 */
export function meteredCallFields(): Float64Array {
  return record;
}

/** What meters a run's calls, resolved once per run: its prices, whether its strategy is full history, its cache mode. */
export interface MeterSettings {
  prices: FlatPrices;
  identity: boolean;
  cacheMode: CacheModeCode;
  /** The recorded prompts were sent as the strategy's view shapes them (a live loop, a recording replayed as its loop ran it): the growth model a recorded size is compared with is the view, not full history. */
  asSent?: boolean;
}

export function meterSettings(strategy: ContextStrategy, cache: CacheMode, prices: FlatPrices): MeterSettings {
  return { prices, identity: isIdentity(strategy), cacheMode: cacheModeCode(cache) };
}

export function meterCall(call: CallRecord, view: PromptView, settings: MeterSettings): MeteredCall {
  return meterCallInto(newMeteredCall(), call, view, settings);
}

/** A MeteredCall to meter into call after call (meterCallInto), for a driver that keeps none of them. */
export function newMeteredCall(): MeteredCall {
  return { usage: { input: 0, cached: 0, cacheWrite: 0, cacheWrite1h: 0, output: 0, reasoning: 0 }, costPico: 0, recordedInputDelta: undefined, cacheRuleLostTokens: 0 };
}

/** The call metered into `into` (every field written): `into`, its usage as billed and its cost. */
export function meterCallInto(into: MeteredCall, call: CallRecord, view: PromptView, settings: MeterSettings): MeteredCall {
  writeCallRecord(record, 0, call);
  prompt[Prompt.View] = view.inputTokens;
  prompt[Prompt.Full] = settings.asSent === true ? view.inputTokens : view.fullInputTokens;
  prompt[Prompt.Unchanged] = view.unchangedPrefixTokens;
  meterKernel(out, settings.prices, settings.identity, settings.cacheMode, record, 0, prompt);
  const usage = into.usage;
  usage.input = out[Metered.Input]!;
  usage.cached = out[Metered.Cached]!;
  usage.cacheWrite = out[Metered.CacheWrite]!;
  usage.cacheWrite1h = out[Metered.CacheWrite1h]!;
  usage.output = out[Metered.Output]!;
  usage.reasoning = out[Metered.Reasoning]!;
  into.costPico = out[Metered.CostPico]!;
  into.cacheRuleLostTokens = out[Metered.RuleLost]!;
  // A recorded prompt (CallFlag.RecordedInput: `inputTokens` given) of a call that did not fail, read from its flags.
  into.recordedInputDelta = ((record[CallField.Flags]! | 0) & (CallFlag.RecordedInput | CallFlag.Failed)) === CallFlag.RecordedInput ? out[Metered.RecordedDelta]! : undefined;
  return into;
}
