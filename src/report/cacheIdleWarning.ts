/**
 * `--cache on` serves every unchanged prefix however long ago it was sent: loopcost does not model the cache
 * expiring. A provider does: Anthropic's cache lasts 5 minutes from its last use (an hour for 1-hour writes),
 * OpenAI's is cleared after 5–10 minutes idle. So a run whose calls come far apart by its own clock (a tool call
 * that took 20 minutes) reads from a cache no provider still holds, and its cost is shown low. One warning (code
 * `cache_idle`) counts the calls that came more than that lifetime after the call before, and the runs they are in.
 *
 * The run's clock, as the loop keeps it (kernel/latency.ts): a call's start is the call before's start plus its
 * latency and its tool calls' (recorded, else the latency model's). Counted over a recording's calls in order
 * (failed calls, backtracks and compactions take their time too); a strategy's summary calls are left out.
 */
import { CallField } from '../kernel/callRecord.js';
import { callLatencyMs, toolLatencyMs } from '../kernel/latency.js';
import { CompiledField, type CompiledTrace } from '../fast/layout.js';
import type { LatencyModel } from '../loop/latency.js';
import type { CallRecord, Trace } from '../trace/types.js';
import { counted } from '../plural.js';
import type { ReportWarning } from './warnings.js';

/** How long a provider's cache holds a prefix unused: five minutes (Anthropic's default, OpenAI's shortest). */
export const CACHE_LIFETIME_MS = 5 * 60_000;
/** The lifetime of 1-hour cache writes (Anthropic's `ttl: 1h`). */
export const CACHE_LIFETIME_HOUR_MS = 60 * 60_000;

/** The run writes its cache for an hour: a call records more 1-hour writes than 5-minute ones (as the meter's `on` then writes: kernel meter.ts writesForAnHour). */
function writesForAnHour(calls: readonly CallRecord[]): boolean {
  return calls.some((call) => (call.cacheWrite1hTokens ?? 0) > (call.cacheWriteTokens ?? 0));
}

/** Milliseconds from `call`'s start to the next call's: its latency and its tool calls'. */
function callSpanMs(call: CallRecord, latency: LatencyModel | undefined): number {
  let ms = callLatencyMs(call.latencyMs ?? NaN, latency, call.inputTokens ?? 0, call.outputTokens);
  for (const tool of call.toolCalls ?? []) ms += toolLatencyMs(tool.latencyMs ?? NaN, latency);
  return ms;
}

/** Calls of `trace` that start more than its cache's lifetime after the call before, by the run's clock (`latency`: the latency model, if any). */
export function idleCallsOf(trace: Pick<Trace, 'calls'>, latency?: LatencyModel): number {
  const lifetimeMs = writesForAnHour(trace.calls) ? CACHE_LIFETIME_HOUR_MS : CACHE_LIFETIME_MS;
  let idle = 0;
  for (let i = 1; i < trace.calls.length; i++) if (callSpanMs(trace.calls[i - 1]!, latency) > lifetimeMs) idle += 1;
  return idle;
}

/** idleCallsOf of a compiled trace (a sweep's runs, whose calls are let go once compiled), by recorded latencies (no latency model). */
export function idleCallsOfCompiled(t: Pick<CompiledTrace, 'calls' | 'records' | 'toolStart' | 'toolLatencyMs'>): number {
  const { records } = t;
  let hourly = false;
  for (let i = 0; i < t.calls && !hourly; i++) {
    const at = i * CompiledField.Stride;
    hourly = records[at + CallField.RecordedCacheWrite1h]! > records[at + CallField.RecordedCacheWrite]!;
  }
  const lifetimeMs = hourly ? CACHE_LIFETIME_HOUR_MS : CACHE_LIFETIME_MS;
  let idle = 0;
  for (let i = 0; i + 1 < t.calls; i++) {
    let ms = callLatencyMs(records[i * CompiledField.Stride + CallField.LatencyMs]!, undefined, 0, 0);
    for (let k = t.toolStart[i]!; k < t.toolStart[i + 1]!; k++) ms += toolLatencyMs(t.toolLatencyMs[k]!, undefined);
    if (ms > lifetimeMs) idle += 1;
  }
  return idle;
}

/** Idle calls (idleCallsOf) counted run by run, or added up from counts made apart. */
export class CacheIdleTally {
  calls = 0;
  runs = 0;

  /** One run's idle calls (0 or undefined: none). */
  add(idleCalls: number | undefined): this {
    if (idleCalls !== undefined && idleCalls > 0) {
      this.calls += idleCalls;
      this.runs += 1;
    }
    return this;
  }

  /** Counts made apart (another thread's). */
  addCounted(counts: { calls: number; runs: number } | undefined): this {
    if (counts !== undefined) {
      this.calls += counts.calls;
      this.runs += counts.runs;
    }
    return this;
  }

  warnings(): ReportWarning[] {
    return cacheIdleWarnings(this);
  }
}

/** The warning, when any call came after its cache's lifetime (the cache modelled `on`: the caller's to know). */
export function cacheIdleWarnings(counts: { calls: number; runs: number }): ReportWarning[] {
  if (counts.calls === 0) return [];
  return [
    {
      code: 'cache_idle',
      message:
        `${counted(counts.calls, 'call')} (in ${counted(counts.runs, 'run')}) came more than 5 minutes after the call before: their cache reads assume the cache still held; ` +
        `providers expire it after ~5 minutes idle (an hour for 1-hour writes), so the cost shown may be low`,
    },
  ];
}
