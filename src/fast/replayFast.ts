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
import { flattenPrices, type FlatPrices } from '../kernel/prices.js';
import { StopCode } from '../kernel/stopCodes.js';
import { CallField } from '../kernel/callRecord.js';
import type { LatencyModel } from '../loop/latency.js';
import { advanceClosedForm, closedFormApplies, stepSums } from './closedForm.js';
import { CompiledField, SLOW_FLAGS, type CompiledTrace } from './layout.js';
import { outcomeOf, resetRun, Run, type FastOutcome, type RunState } from './runState.js';
import { RunSetting, runSettings, type RunSettings } from './settings.js';
import { runCalls, type RunPlan } from './steps.js';

export type { FastOutcome } from './runState.js';
export { flattenPrices, type FlatPrices } from '../kernel/prices.js';

/** Below this many plain calls, the per-step loop is as quick as the closed form's searches. */
const CLOSED_FORM_MIN_CALLS = 16;

/** The first index whose value makes `stops` fire, in a non-decreasing array (its length when none). */
function firstFiring(reach: Int32Array, limits: BrakeLimits, stops: (limits: BrakeLimits, count: number) => StopCode): number {
  let lo = 0;
  let hi = reach.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (stops(limits, reach[mid]!) !== StopCode.None) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** The first call where a repeat or same-error brake fires if the run gets there. */
export function toolStopCall(t: CompiledTrace, limits: BrakeLimits): number {
  const mode = limits[Limit.RepeatMode]!;
  const repeat = mode === RepeatModeCode.Total ? t.repeatReachTotal : mode === RepeatModeCode.Consecutive ? t.repeatReachConsecutive : t.repeatReachCycle;
  const errors = limits[Limit.SameErrorTotal] === 1 ? t.errorReachTotal : t.errorReachConsecutive;
  return Math.min(firstFiring(repeat, limits, repeatStop), firstFiring(errors, limits, sameErrorStop));
}

const tracker = new ContextTracker();
const state: RunState = new Float64Array(Run.Size);

/**
 * Replays `t` and leaves the run's figures in the returned state (the module's: read it before the
 * next replay). outcomeOf(t, state, limits) turns it into the readable path's figures.
 */
export function replayCompiled(t: CompiledTrace, settings: RunSettings, limits: BrakeLimits, prices: FlatPrices): RunState {
  const st = state;
  resetRun(st);
  tracker.resetTo(t.fixedTokens, settings[RunSetting.Keep]!, settings[RunSetting.Cap]!);
  const plan: RunPlan = {
    t,
    settings,
    limits,
    prices,
    ctx: tracker,
    toolStop: toolStopCall(t, limits),
    exactTime: t.latencyIntegral && settings[RunSetting.IntegralModel] === 1,
  };
  if (!closedFormApplies(plan)) {
    runCalls(plan, st, Infinity);
    return st;
  }
  const sums = stepSums(t, settings[RunSetting.Cap]!);
  const keep = settings[RunSetting.Keep]!;
  const n = t.calls;
  for (;;) {
    const i = st[Run.Calls]!;
    if (i >= n) break;
    // A stretch of plain calls: up to the next call that is not plain, the first tool brake or the step limit.
    const plain = ((t.records[i * CompiledField.Stride + CallField.Flags]! | 0) & SLOW_FLAGS) === 0;
    let end = plain ? t.nextNotPlain[i]! : i;
    if (plan.toolStop < end) end = plan.toolStop;
    const stepLimit = limits[Limit.MaxSteps]! + t.nonStepsBefore[i]!;
    if (stepLimit < end) end = stepLimit <= i ? i : Math.ceil(stepLimit);
    if (sums !== null && end - i >= CLOSED_FORM_MIN_CALLS) {
      // Under a window the closed form needs a window of this stretch's steps that slid at the call before.
      let from = keep === Infinity ? i : i + keep + 1;
      // One call first when it carries a prompt overhead in (the predictive bound's estimate adds it).
      if (st[Run.OverheadTokens] !== 0 && from === i) from = i + 1;
      if (from < end) {
        if (runCalls(plan, st, from) !== StopCode.None) return st;
        advanceClosedForm(plan, sums, from, end, st);
      }
    }
    // The rest of the stretch and the call after it, one by one.
    if (runCalls(plan, st, Math.max(end, t.nextNotPlain[st[Run.Calls]!]!) + 1) !== StopCode.None) return st;
  }
  runCalls(plan, st, Infinity);
  return st;
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
  const st = replayCompiled(t, runSettings(strategy, cache, latency), limits, prices);
  return outcomeOf(t, st, limits);
}

