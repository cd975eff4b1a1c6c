/**
 * Cache hits a sliding window loses (kernel ContextTracker.cacheLostTokens), for the plain compiled
 * replay. Off the strategySteps path the context a call sees depends only on the trace and the
 * strategy (brakes only cut the run short), so the tokens lost before each call are a prefix sum over
 * the trace, computed once per (trace, window, cap) by the kernel's tracker; a run's total is read off
 * it at the calls it made, and the per-call loops stay as they are.
 */
import { CallField, CallFlag, TOOLS_DO_NOT_RUN } from '../kernel/callRecord.js';
import { ContextTracker } from '../kernel/context.js';
import { CacheModeCode } from '../kernel/meter.js';
import { CompiledField, type CompiledTrace } from './layout.js';
import { RunSetting, type RunSettings } from './settings.js';

const tracker = new ContextTracker();
const computed = new WeakMap<CompiledTrace, Map<string, Float64Array>>();

/** lost[k]: cache-hit tokens lost to the window over calls 0..k−1 (k = 0..calls). */
export function windowLostBefore(t: CompiledTrace, keepSteps: number, capTokens: number): Float64Array {
  if (last.t === t && last.keep === keepSteps && last.cap === capTokens) return last.lost;
  const lost = lostOf(t, keepSteps, capTokens);
  last.t = t;
  last.keep = keepSteps;
  last.cap = capTokens;
  last.lost = lost;
  return lost;
}

/** The last array asked for (a what-if or sweep asks for one trace's again and again). */
const last: { t: CompiledTrace | null; keep: number; cap: number; lost: Float64Array } = { t: null, keep: NaN, cap: NaN, lost: new Float64Array(0) };

function lostOf(t: CompiledTrace, keepSteps: number, capTokens: number): Float64Array {
  let byWindow = computed.get(t);
  if (byWindow === undefined) computed.set(t, (byWindow = new Map()));
  const key = `${keepSteps}/${capTokens}`;
  let lost = byWindow.get(key);
  if (lost !== undefined) return lost;
  lost = new Float64Array(t.calls + 1);
  const ctx = tracker;
  ctx.resetTo(t.fixedTokens, keepSteps, capTokens);
  ctx.reserve(t.calls + 1);
  for (let i = 0; i < t.calls; i++) {
    lost[i + 1] = lost[i]! + ctx.cacheLostTokens();
    ctx.markSent();
    const at = i * CompiledField.Stride;
    const flags = t.records[at + CallField.Flags]! | 0;
    if ((flags & CallFlag.Backtrack) !== 0) ctx.dropLastStep();
    if ((flags & TOOLS_DO_NOT_RUN) !== 0) continue;
    ctx.addStep(t.records[at + CallField.Output]!);
    for (let j = t.toolStart[i]!, end = t.toolStart[i + 1]!; j < end; j++) ctx.addToolResult(t.resultTokens[j]!);
    ctx.closeStep();
  }
  byWindow.set(key, lost);
  return lost;
}

/** A plain (not stepwise) run's cache hits lost to its window, over the `calls` it made; 0 without a window or cache. */
export function plainRunCacheLost(t: CompiledTrace, settings: RunSettings, calls: number): number {
  const keep = settings[RunSetting.Keep]!;
  if (keep === Infinity || settings[RunSetting.CacheMode] === CacheModeCode.Off) return 0;
  return windowLostBefore(t, keep, settings[RunSetting.Cap]!)[calls]!;
}
