/**
 * Cache hits a sliding window loses (kernel ContextTracker.cacheLostTokens) before each call, for the
 * run tables (runTable.ts, sweeps). Off the strategySteps path the context a call sees depends only on
 * the trace and the strategy (brakes only cut the run short), so the tokens lost before each call are a
 * prefix sum over the trace, computed once per (trace, window, cap) by the kernel's tracker and kept
 * with the trace; a table's run reads its total off it at the calls it made. A first replay (no table)
 * counts them as it goes instead: the per-step loop's tracker, the closed forms' sums
 * (kernel/closedSteps.ts slidWindowLostOver).
 */
import { CallField } from '../kernel/callRecord.js';
import { enterWholeCall } from '../kernel/callContext.js';
import { ContextTracker } from '../kernel/context.js';
import { CompiledField, type CompiledTrace } from './layout.js';
import { compiledCountsCacheLost } from './recordsCache.js';
import { RunSetting, type RunSettings } from './settings.js';

interface LostEntry {
  keep: number;
  cap: number;
  /** lost[k]: tokens lost over calls 0..k−1. */
  lost: Float64Array;
}

const tracker = new ContextTracker();
const computed = new WeakMap<CompiledTrace, LostEntry[]>();

/** The run's lost tokens before each call (k = 0..calls) under `settings`; null when none can be lost (no window, or no cache: kernel/cacheLost.ts). */
export function windowLostBefore(t: CompiledTrace, settings: RunSettings): Float64Array | null {
  const keep = settings[RunSetting.Keep]!;
  if (keep === Infinity || !compiledCountsCacheLost(settings[RunSetting.CacheMode]!, t)) return null;
  const cap = settings[RunSetting.Cap]!;
  let entries = computed.get(t);
  if (entries === undefined) computed.set(t, (entries = []));
  for (const entry of entries) if (entry.keep === keep && entry.cap === cap) return entry.lost;
  const lost = lostOf(t, keep, cap);
  entries.push({ keep, cap, lost });
  return lost;
}

/** The calls replayed with no brake through the kernel's tracker, the lost tokens summed before each. */
function lostOf(t: CompiledTrace, keepSteps: number, capTokens: number): Float64Array {
  const lost = new Float64Array(t.calls + 1);
  const ctx = tracker;
  ctx.resetTo(t.fixedTokens, keepSteps, capTokens);
  ctx.reserve(t.calls + 1);
  for (let i = 0; i < t.calls; i++) {
    lost[i + 1] = lost[i]! + ctx.cacheLostTokens();
    ctx.markSent();
    const at = i * CompiledField.Stride;
    enterWholeCall(ctx, t.records[at + CallField.Flags]! | 0, t.records[at + CompiledField.ContextOutput]!, t.resultTokens, t.toolStart[i]!, t.toolStart[i + 1]!);
  }
  return lost;
}
