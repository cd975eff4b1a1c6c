/**
 * How long a run's cache writes may last: one fact per run, which the predictive bound reads (cost.ts
 * predictiveBoundPico: the dearest write price it prices a prompt token at), written once for every engine —
 * the readable loop (a step source's `cacheWrites`: ReplaySource, a synthetic agent; the session-tree replay;
 * the real loop's own setting), the compiled replay (CompiledTrace.cacheWrites) and a tree's budget (through
 * LoopSession.boundPico). The bound takes it as the cache mode leaves it (meter.ts boundWrites: a run that
 * writes only through the meter writes nothing with the cache off), so a sweep's configurations with the
 * cache on and off share one compiled trace.
 *
 * A live loop knows it before any call: the lifetime it asks its provider for is its own setting. A replay
 * knows it of a synthetic run — the meter's cache `on` writes for five minutes unless a call recorded writes
 * for an hour (meter.ts), and a synthetic agent records none — but not of a recording: the lifetime the
 * recorded loop asked for shows only in what each call was billed (Claude Code writes for an hour), so a
 * recording's writes may last an hour — unless its header states the lifetime its loop asked for (the real
 * loop's recorder writes its `cacheWrites`: header.cacheWrites), which is then the run's, as the live loop's
 * bound took it, in every engine and under any brakes.
 */
import { CACHE_WRITES_SETTINGS, type CacheWritesSetting, type Trace } from '../trace/types.js';

/** (Codes, not an order: promptPriceCeiling names each.) */
export const enum CacheWrites {
  /** Every cache write of the run lasts five minutes (a synthetic run's: only the meter's; a loop's or its recording's that says so): the bound takes the five-minute write price, none with the cache off. */
  FiveMinutes = 0,
  /** A cache write may last an hour (a recording's, or a loop that does not say): the bound takes the dearest write price. */
  MayLastAnHour = 1,
  /** No prompt token is written (a synthetic run with the cache off, a live loop that asks for no writes, its recording): the bound takes the input or read price (with the cache on, the meter's five-minute writes: meter.ts boundWrites). */
  None = 2,
}

/** The fact each stated lifetime stands for (a header's `cacheWrites`, the real loop's option of that name). */
const STATED: Record<CacheWritesSetting, CacheWrites> = {
  'five-minutes': CacheWrites.FiveMinutes,
  'may-last-an-hour': CacheWrites.MayLastAnHour,
  none: CacheWrites.None,
};

/** The fact a stated lifetime stands for. */
export function cacheWritesOfSetting(setting: CacheWritesSetting): CacheWrites {
  return STATED[setting];
}

/** The lifetime that stands for `writes`. */
export function settingOfCacheWrites(writes: CacheWrites): CacheWritesSetting {
  return CACHE_WRITES_SETTINGS.find((setting) => STATED[setting] === writes)!;
}

/**
 * The cache writes of the run `trace` records: the lifetime its header states (`cacheWrites`: what its loop
 * asked for, and its live bound took), exactly; else five minutes for a synthetic run (header origin `synthetic`:
 * a scenario's agent's, or a trace `generate` wrote) none of whose calls records a write for an hour and none
 * of whose failed calls records a write (a synthetic agent's failure bills nothing; the meter bills a failed
 * call as recorded whatever the cache, so one that records a write is no synthetic agent's: bounded as a
 * recording); else they may last an hour.
 */
export function cacheWritesOf(trace: Pick<Trace, 'header' | 'calls'>): CacheWrites {
  if (trace.header.cacheWrites !== undefined) return STATED[trace.header.cacheWrites];
  if (trace.header.origin !== 'synthetic') return CacheWrites.MayLastAnHour;
  for (const call of trace.calls) {
    if ((call.cacheWrite1hTokens ?? 0) > 0) return CacheWrites.MayLastAnHour;
    if (call.failed !== undefined && (call.cacheWriteTokens ?? 0) > 0) return CacheWrites.MayLastAnHour;
  }
  return CacheWrites.FiveMinutes;
}
