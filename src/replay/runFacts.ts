/**
 * What a report reads of a run's recorded calls besides replaying them — how many there are, whether
 * any recorded its prompt size, the recorded cost, the table's price of the calls as recorded — taken
 * from its compiled trace when a cache of compiled traces handed one over (compiledRuns.ts), so a run
 * served from that cache is never decoded; else from the calls. Tests hold the two equal.
 */
import { CallField, CallFlag } from '../kernel/callRecord.js';
import { billedCall } from '../kernel/cost.js';
import { billedRequest } from '../kernel/meter.js';
import { callRecordsCache } from '../kernel/cacheLost.js';
import { compiledRecordsCache } from '../fast/recordsCache.js';
import { CompiledField, type CompiledTrace } from '../fast/layout.js';
import { usdToPico } from '../money.js';
import { checkRecordedCosts, recordedCostCheck, type RecordedCallCost, type RecordedCostCheck } from '../pricing/recordedCost.js';
import type { CallUsage, ModelPricing } from '../pricing/types.js';
import type { Trace } from '../trace/types.js';
import { handedOverCompiled } from './compiledRuns.js';

/** Calls the trace holds. */
export function recordedCallCount(trace: Trace): number {
  const c = handedOverCompiled(trace);
  return c === undefined ? trace.calls.length : compiledCallCount(c);
}

/** A compiled trace's calls, its provider's refusal of the last included (compiled without it: src/fast/refusal.ts). */
function compiledCallCount(c: CompiledTrace): number {
  return c.calls + (c.refusal.length > 0 ? 1 : 0);
}

/** Some call recorded its prompt size. */
export function hasRecordedInput(trace: Trace): boolean {
  const compiled = handedOverCompiled(trace);
  return compiled === undefined ? trace.calls.some((call) => call.inputTokens !== undefined) : compiled.hasRecordedInput;
}

/** Some call recorded cache reads or writes (a recording `generate` made with the cache on carries them). */
export function hasRecordedCache(trace: Trace): boolean {
  const c = handedOverCompiled(trace);
  return c === undefined ? trace.calls.some(callRecordsCache) : compiledRecordsCache(c);
}

/**
 * The web searches the run's billed calls record (CallRecord.webSearchRequests), summed: a call its provider
 * did not bill (billedCall, src/kernel/cost.ts) pays none of the searches it records (callFeesPico), so
 * they are no searches the table left unpriced either.
 */
export function recordedWebSearches(trace: Trace): number {
  const c = handedOverCompiled(trace);
  if (c === undefined) return trace.calls.reduce((sum, call) => sum + (billedCall(call.failed !== undefined, call.inputTokens) ? (call.webSearchRequests ?? 0) : 0), 0);
  let searches = 0;
  for (let at = 0; at < c.calls * CompiledField.Stride; at += CompiledField.Stride) {
    if (billedRequest(c.records, at)) searches += c.records[at + CallField.WebSearches]!;
  }
  return searches;
}

/** Σ of recorded per-call costs (pico) when every call recorded one, else undefined. */
export function recordedCallsCostPico(trace: Trace): number | undefined {
  const c = handedOverCompiled(trace);
  if (c === undefined) {
    if (trace.calls.length > 0 && trace.calls.every((call) => call.recordedCostUsd !== undefined)) return trace.calls.reduce((sum, call) => sum + usdToPico(call.recordedCostUsd!), 0);
    return undefined;
  }
  return compiledCallsCostPico(c);
}

function compiledCallsCostPico(c: CompiledTrace): number | undefined {
  // (A refused call records no cost: a run that ends in one has a call without.)
  return c.calls > 0 && c.recordedCostCallsBefore[c.calls] === compiledCallCount(c) ? c.recordedCostBefore[c.calls]! : undefined;
}

/** recordedCostCheck (src/pricing/recordedCost.ts): the table's price of the calls as recorded beside the recorded cost. */
export function recordedCostCheckOf(trace: Trace, pricing: ModelPricing): RecordedCostCheck | undefined {
  const c = handedOverCompiled(trace);
  if (c === undefined) return recordedCostCheck(trace, pricing);
  const totalPico = trace.end.recordedCostUsd === undefined ? undefined : usdToPico(trace.end.recordedCostUsd);
  return checkRecordedCosts({ calls: compiledCallCosts(c), refused: c.refusal.length > 0, totalPico }, pricing);
}

/** The compiled calls' usage as recorded and recorded cost (a refused call, compiled without, is the check's `refused`). */
function compiledCallCosts(c: CompiledTrace): RecordedCallCost[] {
  const counted = c.recordedCostCallsBefore;
  const summed = c.recordedCostBefore;
  return Array.from({ length: c.calls }, (_, i) => ({
    usage: recordedUsageOf(c, i),
    recordedPico: counted[i + 1]! > counted[i]! ? summed[i + 1]! - summed[i]! : undefined,
  }));
}

/** recordedUsage (src/pricing/recordedCost.ts) of call i, from its kernel record. */
function recordedUsageOf(c: CompiledTrace, i: number): CallUsage | undefined {
  const r = c.records;
  const at = i * CompiledField.Stride;
  const flags = r[at + CallField.Flags]! | 0;
  if ((flags & (CallFlag.RecordedInput | CallFlag.Failed)) === 0) return undefined;
  return {
    input: r[at + CallField.RecordedInput]!,
    cached: r[at + CallField.RecordedCached]!,
    cacheWrite: r[at + CallField.RecordedCacheWrite]!,
    cacheWrite1h: r[at + CallField.RecordedCacheWrite1h]!,
    output: r[at + CallField.Output]!,
    reasoning: r[at + CallField.Reasoning]!,
    ...(r[at + CallField.WebSearches]! > 0 ? { webSearches: r[at + CallField.WebSearches]! } : {}),
    ...(billedRequest(r, at) ? {} : { unbilled: true as const }),
  };
}
