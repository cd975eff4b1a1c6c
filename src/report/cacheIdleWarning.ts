/**
 * `--cache on` serves every unchanged prefix however long ago it was sent: loopcost does not model the cache
 * expiring. A provider does: Anthropic's cache lasts 5 minutes from its last use (an hour for 1-hour writes),
 * OpenAI's is cleared after 5–10 minutes idle. So a run whose calls come far apart by its own clock (a tool call
 * that took 20 minutes) reads from a cache no provider still holds, and its cost is shown low. One warning (code
 * `cache_idle`) counts the calls that came more than that lifetime after the call before, and the runs they are in.
 *
 * The run's clock, as the loop keeps it (kernel/latency.ts): a call's start is the call before's start plus its
 * latency and its tool calls' (recorded, else the latency model's). Counted over a recording's calls in order
 * (failed calls, backtracks and compactions take their time too), up to where the replay that made the report
 * stopped when it is known (`callsMade`: a call after a brake's stop is never made, so its gap expires nothing);
 * a strategy's summary calls are left out (the replay keeps no time of where each came).
 */
import { CallField } from '../kernel/callRecord.js';
import { callLatencyMs, toolLatencyMs } from '../kernel/latency.js';
import { hourlyWrites, writesForAnHour } from '../kernel/meter.js';
import { CompiledField, type CompiledTrace } from '../fast/layout.js';
import type { LatencyModel } from '../loop/latency.js';
import type { RunResult } from '../replay/replay.js';
import type { CallRecord, Trace } from '../trace/types.js';
import { counted } from '../plural.js';
import type { ReportWarning } from './warnings.js';

/** How long a provider's cache holds a prefix unused: five minutes (Anthropic's default, OpenAI's shortest). */
export const CACHE_LIFETIME_MS = 5 * 60_000;
/** The lifetime of 1-hour cache writes (Anthropic's `ttl: 1h`). */
export const CACHE_LIFETIME_HOUR_MS = 60 * 60_000;

/** A run's calls as the idle count reads them, whatever holds them (a trace's records, a compiled trace's arrays). */
interface TimedCalls {
  /** How many calls the run made (of those held). */
  made: number;
  /** Whether call `i` recorded its cache writes for an hour (the kernel's rule: meter.ts writesForAnHour). */
  writesForAnHour(i: number): boolean;
  /** Milliseconds from call `i`'s start to the next call's: its latency and its tool calls'. */
  spanMs(i: number): number;
}

/**
 * The one count: calls that start more than the cache's lifetime after the call before. The run writes its
 * cache for an hour when a call it made records more 1-hour writes than 5-minute ones (as the meter's `on` then
 * writes: kernel meter.ts writesForAnHour).
 */
function idleCallsIn(calls: TimedCalls): number {
  let hourly = false;
  for (let i = 0; i < calls.made && !hourly; i++) hourly = calls.writesForAnHour(i);
  const lifetimeMs = hourly ? CACHE_LIFETIME_HOUR_MS : CACHE_LIFETIME_MS;
  let idle = 0;
  for (let i = 1; i < calls.made; i++) if (calls.spanMs(i - 1) > lifetimeMs) idle += 1;
  return idle;
}

/** What idleCallsOf reads besides the calls: the latency model, if any; the calls the replay made, when known (default: all of them). */
export interface IdleCount {
  latency?: LatencyModel;
  callsMade?: number;
}

/** Calls of `trace` that start more than its cache's lifetime after the call before, by the run's clock, among the first `callsMade`. */
export function idleCallsOf(trace: Pick<Trace, 'calls'>, count: IdleCount = {}): number {
  const { calls } = trace;
  const { latency } = count;
  return idleCallsIn({
    made: Math.min(count.callsMade ?? calls.length, calls.length),
    writesForAnHour: (i) => hourlyWrites(calls[i]!.cacheWrite1hTokens ?? 0, calls[i]!.cacheWriteTokens ?? 0),
    spanMs: (i) => callSpanMs(calls[i]!, latency),
  });
}

/** Milliseconds from `call`'s start to the next call's: its latency and its tool calls'. */
function callSpanMs(call: CallRecord, latency: LatencyModel | undefined): number {
  let ms = callLatencyMs(call.latencyMs ?? NaN, latency, call.inputTokens ?? 0, call.outputTokens);
  for (const tool of call.toolCalls ?? []) ms += toolLatencyMs(tool.latencyMs ?? NaN, latency);
  return ms;
}

/** idleCallsOf of a compiled trace (a sweep's runs, whose calls are let go once compiled), by recorded latencies (no latency model), over all its calls. */
export function idleCallsOfCompiled(t: Pick<CompiledTrace, 'calls' | 'records' | 'toolStart' | 'toolLatencyMs'>): number {
  const { records } = t;
  return idleCallsIn({
    made: t.calls,
    writesForAnHour: (i) => writesForAnHour(records, i * CompiledField.Stride),
    spanMs: (i) => {
      let ms = callLatencyMs(records[i * CompiledField.Stride + CallField.LatencyMs]!, undefined, 0, 0);
      for (let k = t.toolStart[i]!; k < t.toolStart[i + 1]!; k++) ms += toolLatencyMs(t.toolLatencyMs[k]!, undefined);
      return ms;
    },
  });
}

/**
 * How many of its recording's calls a replay made, in order: its model calls but the strategy's summary calls,
 * which no recording holds — unless the run was replayed as its loop ran it (`summariesRecorded`:
 * replay/recordedStrategy.ts), whose summary calls are its recording's compaction calls.
 */
export function recordedCallsMade(run: Pick<RunResult, 'modelCalls' | 'summaryCalls' | 'recordedCalls'>, summariesRecorded: boolean): number {
  const made = summariesRecorded ? run.modelCalls : run.modelCalls - (run.summaryCalls ?? 0);
  return Math.min(made, run.recordedCalls);
}

/** What the idle calls were counted over: the calls the replay made (replay's one setting), or the whole recordings (several settings, or none known). */
export interface IdleCounts {
  calls: number;
  runs: number;
  /** Counted over every call of the recordings, not only those a setting's replay made (a sweep's, whatif's): a setting that stops a run sooner reaches fewer. */
  wholeRecordings?: boolean;
}

/** Idle calls (idleCallsOf) counted run by run, or added up from counts made apart. */
export class CacheIdleTally implements IdleCounts {
  calls = 0;
  runs = 0;
  wholeRecordings = false;

  /** One run's idle calls (0 or undefined: none), counted over its whole recording (`overWholeRecording`) or over the calls its replay made. */
  add(idleCalls: number | undefined, overWholeRecording: boolean): this {
    if (idleCalls !== undefined && idleCalls > 0) {
      this.calls += idleCalls;
      this.runs += 1;
      if (overWholeRecording) this.wholeRecordings = true;
    }
    return this;
  }

  /** Counts made apart (another thread's), with what they were counted over. */
  addCounted(counts: IdleCounts | undefined): this {
    if (counts !== undefined) {
      this.calls += counts.calls;
      this.runs += counts.runs;
      if (counts.wholeRecordings === true) this.wholeRecordings = true;
    }
    return this;
  }

  /** What it counted (a copy), said as counted: none when no call came idle. */
  counted(): IdleCounts | undefined {
    return this.calls === 0 ? undefined : { calls: this.calls, runs: this.runs, ...(this.wholeRecordings ? { wholeRecordings: true } : {}) };
  }

  warnings(): ReportWarning[] {
    return cacheIdleWarnings(this);
  }
}

/** The warning, when any call came after its cache's lifetime (the cache modelled `on`: the caller's to know). */
export function cacheIdleWarnings(counts: IdleCounts): ReportWarning[] {
  if (counts.calls === 0) return [];
  const over = counts.wholeRecordings === true ? ' (counted over the whole recordings: a setting that stops a run sooner reaches fewer of them)' : '';
  return [
    {
      code: 'cache_idle',
      message:
        `${counted(counts.calls, 'call')} (in ${counted(counts.runs, 'run')}) came more than 5 minutes after the call before${over}: their cache reads assume the cache still held; ` +
        `providers expire it after ~5 minutes idle (an hour for 1-hour writes), so the cost shown may be low`,
    },
  ];
}
