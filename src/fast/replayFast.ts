/**
 * The compiled replay: a CompiledTrace replayed under brakes, strategy, cache mode, prices and latency
 * model, with the same figures as the readable path to the last digit (test/core/fastPath*.test.ts).
 * Every rule is a kernel function, applied call by call by the per-step loop (steps.ts); stretches of
 * plain calls go in closed form (closedForm.ts) where it applies, and the repeat and same-error brakes
 * were run over the trace when it was compiled (precompute.ts), so one binary search per run finds the
 * first call where one fires. Design note: docs/fast-path.md.
 *
 * Not reentrant: one run at a time uses the module's context tracker and state (a run calls no code
 * that could start another).
 */
import type { BrakeConfig } from '../brakes/config.js';
import type { CacheMode, ContextStrategy } from '../context/strategy.js';
import { repeatStop, sameErrorStop } from '../kernel/brakes.js';
import { ContextTracker } from '../kernel/context.js';
import { brakeLimits, Limit, RepeatModeCode, type BrakeLimits } from '../kernel/limits.js';
import type { FlatPrices } from '../kernel/prices.js';
import { StopCode } from '../kernel/stopCodes.js';
import { CacheModeCode } from '../kernel/meter.js';
import { CallField } from '../kernel/callRecord.js';
import type { LatencyModel } from '../loop/latency.js';
import { advanceClosedForm, closedFormApplies, stepSums, uncappedSums, type StepSums } from './closedForm.js';
import { advanceRecorded, recordedFormApplies, recordedLead } from './recordedForm.js';
import { ClosedAt, CompiledField, type CompiledTrace } from './layout.js';
import { outcomeOf, resetRun, Run, type FastOutcome, type RunState } from './runState.js';
import { RunSetting, runSettings, type RunSettings } from './settings.js';
import { buildRunTable } from './plainTable.js';
import type { RunTable } from './runTable.js';
import { runCalls, type RunPlan } from './steps.js';
import { callStop } from './callStop.js';
import { stopInTable } from './tableStop.js';
import { replayStepwise, runsStepwise } from './strategySteps.js';

export type { FastOutcome } from './runState.js';
export { flattenPrices, type FlatPrices } from '../kernel/prices.js';

/** Below this many plain calls, the per-step loop is as quick as the closed form's searches. */
const CLOSED_FORM_MIN_CALLS = 16;
/** The same for the recorded closed form (its search looks at the stretch's last call first: short stretches pay). */
const RECORDED_FORM_MIN_CALLS = 3;

/** The first call where the repeat brake fires, on a non-decreasing running maximum of "already seen" counts. */
function firstRepeat(reach: Int32Array, limits: BrakeLimits): number {
  let lo = 0;
  let hi = reach.length;
  if (hi === 0 || repeatStop(limits, reach[hi - 1]!) === StopCode.None) return hi;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (repeatStop(limits, reach[mid]!) !== StopCode.None) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** The first call where the same-error brake fires, on a non-decreasing running maximum of error counts. */
function firstSameError(reach: Int32Array, limits: BrakeLimits): number {
  let lo = 0;
  let hi = reach.length;
  if (hi === 0 || sameErrorStop(limits, reach[hi - 1]!) === StopCode.None) return hi;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sameErrorStop(limits, reach[mid]!) !== StopCode.None) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** The first call where a repeat or same-error brake fires if the run gets there. */
export function toolStopCall(t: CompiledTrace, limits: BrakeLimits): number {
  const mode = limits[Limit.RepeatMode]!;
  const errorTotal = limits[Limit.SameErrorTotal] === 1;
  // The trace's largest counts first: below the limits (the usual case) no reach array is read.
  const repeatMax = mode === RepeatModeCode.Total ? t.repeatMaxTotal : mode === RepeatModeCode.Consecutive ? t.repeatMaxConsecutive : t.repeatMaxCycle;
  const errorMax = errorTotal ? t.errorMaxTotal : t.errorMaxConsecutive;
  if (repeatStop(limits, repeatMax) === StopCode.None && sameErrorStop(limits, errorMax) === StopCode.None) return t.calls;
  const repeat = mode === RepeatModeCode.Total ? t.repeatReachTotal : mode === RepeatModeCode.Consecutive ? t.repeatReachConsecutive : t.repeatReachCycle;
  const errors = errorTotal ? t.errorReachTotal : t.errorReachConsecutive;
  return Math.min(firstRepeat(repeat, limits), firstSameError(errors, limits));
}

const tracker = new ContextTracker();
const state: RunState = new Float64Array(Run.Size);
/** The run plan, reused by every run (one at a time). */
const runPlan: RunPlan = { t: null as unknown as CompiledTrace, settings: new Float64Array(0), limits: new Float64Array(0), prices: null as unknown as FlatPrices, ctx: tracker, toolStop: 0, exactTime: false, table: null };

/** Run tables kept per compiled trace: a few (settings, prices) pairs, the most recent first. */
interface TableCache {
  entries: RunTable[];
  /** The last (settings, prices) replayed without a table: a second replay of it builds one. */
  lastSettings: RunSettings | null;
  lastPrices: FlatPrices | null;
}

const TABLES_PER_TRACE = 4;
const tableCaches = new WeakMap<CompiledTrace, TableCache>();

/**
 * The run table for (settings, prices) when one is kept, or built now because this pair was replayed
 * just before (a what-if or sweep replays one trace under many brakes) or because the run's costs are
 * fixed by the prices (recorded prompts and cache figures as sent); null otherwise.
 */
function tableFor(t: CompiledTrace, settings: RunSettings, prices: FlatPrices): RunTable | null {
  let cache = tableCaches.get(t);
  if (cache === undefined) {
    cache = { entries: [], lastSettings: null, lastPrices: null };
    tableCaches.set(t, cache);
  }
  for (const table of cache.entries) if (table.settings === settings && table.prices === prices) return table;
  // Recorded prompts as sent with recorded cache figures: every call's cost is fixed by the prices alone,
  // so the table is worth building on the first replay.
  const fixedCosts = settings[RunSetting.Identity] === 1 && settings[RunSetting.CacheMode] === CacheModeCode.Recorded;
  if (!fixedCosts && (cache.lastSettings !== settings || cache.lastPrices !== prices)) {
    cache.lastSettings = settings;
    cache.lastPrices = prices;
    return null;
  }
  const table = buildRunTable(t, settings, prices);
  cache.entries.unshift(table);
  if (cache.entries.length > TABLES_PER_TRACE) cache.entries.pop();
  return table;
}

/**
 * Replays `t` and leaves the run's figures in the returned state (the module's: read it before the
 * next replay). outcomeOf(t, state, limits) turns it into the readable path's figures. A first replay
 * under (settings, prices) runs call by call (closed forms where they apply); a second builds a run
 * table, from which this and later ones are binary searches (`useTables: false` never does).
 */
export function replayCompiled(t: CompiledTrace, settings: RunSettings, limits: BrakeLimits, prices: FlatPrices, useTables = true): RunState {
  const st = state;
  // Masking, summaries and the skip guard go call by call (strategySteps.ts).
  if (runsStepwise(settings, limits)) return replayStepwise(t, settings, limits, prices, st);
  const table = useTables ? tableFor(t, settings, prices) : null;
  if (table !== null && stopInTable(table, t, limits, toolStopCall(t, limits), st) !== StopCode.None) return st;
  // (A window's lost cache hits are counted as calls are made: the per-step loop's tracker, the closed forms' sums.)
  return replayCalls(t, settings, limits, prices, st);
}

/** The (one, reused) run plan for `t` under these settings: the per-step loop's and the closed forms' view of the run. */
function planFor(t: CompiledTrace, settings: RunSettings, limits: BrakeLimits, prices: FlatPrices): RunPlan {
  tracker.resetTo(t.fixedTokens, settings[RunSetting.Keep]!, settings[RunSetting.Cap]!);
  tracker.reserve(t.calls + 1);
  const plan = runPlan;
  plan.t = t;
  plan.settings = settings;
  plan.limits = limits;
  plan.prices = prices;
  plan.toolStop = toolStopCall(t, limits);
  plan.exactTime = t.latencyIntegral && settings[RunSetting.IntegralModel] === 1;
  return plan;
}

function replayCalls(t: CompiledTrace, settings: RunSettings, limits: BrakeLimits, prices: FlatPrices, st: RunState): RunState {
  resetRun(st);
  const plan = planFor(t, settings, limits, prices);
  const plainForm = closedFormApplies(t, settings, prices);
  if (!plainForm && !recordedFormApplies(t, settings, prices, limits)) {
    runCalls(plan, st, Infinity);
    return st;
  }
  // Otherwise the recorded closed form (recordedForm.ts): cache as recorded, never with the plain one.
  const cap = settings[RunSetting.Cap]!;
  const sums = !plainForm ? null : cap === Infinity ? uncappedSums(t) : stepSums(t, cap);
  const n = t.calls;
  const closedSums = t.closedSums;
  for (;;) {
    // (An int32 index: a double one is converted at every read.)
    const i = st[Run.Calls]! | 0;
    if (i >= n) break;
    // A stretch of plain calls: up to the next call that is not plain, the first tool brake or the step limit.
    // (nextNotPlain and nonStepsBefore from the interleaved record the closed form reads at i.)
    const next = closedSums[i * ClosedAt.Stride + ClosedAt.NextNotPlain]!;
    let end = next;
    if (plan.toolStop < end) end = plan.toolStop;
    const stepLimit = limits[Limit.MaxSteps]! + closedSums[i * ClosedAt.Stride + ClosedAt.NonSteps]!;
    if (stepLimit < end) end = stepLimit <= i ? i : Math.ceil(stepLimit);
    const lead = plainForm ? 0 : recordedLead(settings, i);
    if (!plainForm && end - i >= RECORDED_FORM_MIN_CALLS && i + lead < end) {
      // The call after the stretch may end the run inside it (an answer, a final call): then it goes too.
      const ending = end === next && end < n && end < plan.toolStop && end < stepLimit && endsRunInside(t, end, limits);
      if (recordedStretchStopped(plan, st, i + lead, end, ending)) return st;
    } else if (sums !== null && end - i >= CLOSED_FORM_MIN_CALLS) {
      if (plainStretchStopped(plan, st, sums, end)) return st;
    }
    // The rest of the stretch and the call after it, one by one (on to the run's end when that is the
    // trace's last call: one per-step set-up, not a second for the trace running out).
    const until = Math.max(end, closedSums[((st[Run.Calls]! * ClosedAt.Stride) | 0) + ClosedAt.NextNotPlain]!) + 1;
    if (runCalls(plan, st, until >= n ? Infinity : until) !== StopCode.None) return st;
  }
  runCalls(plan, st, Infinity);
  return st;
}

/**
 * The recorded closed form over calls `from`..`end`−1 (the calls before `from` one by one first) and,
 * when `ending`, the call at `end` that ends the run: true when the run stopped.
 */
function recordedStretchStopped(plan: RunPlan, st: RunState, from: number, end: number, ending: boolean): boolean {
  if (st[Run.Calls]! < from && runCalls(plan, st, from) !== StopCode.None) return true;
  if (advanceRecorded(plan, from, ending ? end + 1 : end, st, ending) !== end + 1) return false;
  st[Run.Stop] = StopCode.Completed;
  return true;
}

/**
 * The plain closed form over the stretch of calls from the run's next call to `end` (under a window, from
 * the call after the window slid; calls before that one by one): true when the run stopped.
 */
function plainStretchStopped(plan: RunPlan, st: RunState, sums: StepSums, end: number): boolean {
  const i = st[Run.Calls]! | 0;
  const keep = plan.settings[RunSetting.Keep]!;
  // Under a window the closed form needs a window of this stretch's steps that slid at the call before.
  let from = keep === Infinity ? i : i + keep + 1;
  // One call first when it carries a prompt overhead in (the predictive bound's estimate adds it).
  if (st[Run.OverheadTokens] !== 0 && from === i) from = i + 1;
  // A window from the run's start fills over calls 0..w as full history does: with the cache off, in
  // the window's own form (clamped at the first step: one stretch); else those calls first.
  if (from > i && i === 0 && keep !== Infinity && tracker.length === 0) {
    if (plan.settings[RunSetting.CacheMode] === CacheModeCode.Off && advanceClosedForm(plan, sums, 0, end, st) > 0) from = end;
    else advanceClosedForm(plan, sums, 0, Math.min(from, end), st, true);
  }
  if (from < end) {
    if (st[Run.Calls]! < from && runCalls(plan, st, from) !== StopCode.None) return true;
    advanceClosedForm(plan, sums, from, end, st);
  }
  return false;
}

/** Whether the call ends the run inside it when it is made and no tool brake can fire (kernel order: callStop). */
function endsRunInside(t: CompiledTrace, call: number, limits: BrakeLimits): boolean {
  const flags = t.records[((call * CompiledField.Stride) | 0) + CallField.Flags]! | 0;
  return callStop(t, call, flags, limits, t.seenTotal, t.errorTotal, false) === StopCode.Completed;
}

/** Replays `t` under these settings: the readable path's figures. */
export function replayFast(
  t: CompiledTrace,
  brakes: BrakeConfig,
  strategy: ContextStrategy,
  cache: CacheMode,
  prices: FlatPrices,
  latency?: LatencyModel,
): FastOutcome {
  const limits = brakeLimits(brakes, prices.contextWindow);
  const st = replayCompiled(t, runSettings(strategy, cache, latency), limits, prices, false);
  return outcomeOf(t, st, limits, prices);
}

