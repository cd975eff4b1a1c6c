/**
 * Whether a run counts the cache hits its context strategy loses (ContextTracker.cacheLostTokens, reported as
 * "cache hits lost to strategy"): the one rule every engine applies — the readable loop (LoopSession and its
 * summary calls), the compiled replay (fast/steps.ts, fast/strategySteps.ts) and a run table (fast/windowLost.ts).
 *
 * With the cache on, always; off, never; as recorded, only for a run whose calls record a cache read or write.
 * A recording none of whose calls records one (its provider, or `loopcost serve`, ran with the cache off; or its
 * client reported none) had no cache hit to lose: the meter bills it none (meter.ts recordedCache), and its replay
 * says none lost — before, `replay --preset recorded` of a window:8 run served with the cache off said 1,849
 * prompt tokens of cache hits lost. (A source that does not say — a live loop, before its calls — counts them.)
 */
import type { CallRecord } from '../trace/types.js';
import { CacheModeCode } from './meter.js';

/** Whether the cache hits the strategy loses are counted, for a run metered under `cacheMode` whose calls record a cache (`recordsCache`) or not. */
export function countsCacheLost(cacheMode: CacheModeCode, recordsCache: boolean): boolean {
  return cacheMode === CacheModeCode.On || (cacheMode === CacheModeCode.Recorded && recordsCache);
}

/** Whether a recorded call read or wrote the cache. */
export function callRecordsCache(call: Pick<CallRecord, 'cachedInputTokens' | 'cacheWriteTokens' | 'cacheWrite1hTokens'>): boolean {
  return (call.cachedInputTokens ?? 0) + (call.cacheWriteTokens ?? 0) + (call.cacheWrite1hTokens ?? 0) > 0;
}
