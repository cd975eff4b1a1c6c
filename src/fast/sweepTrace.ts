/**
 * What a sweep works out once per trace, for every pass: the call at which each cell's step cap is
 * reached (it fires there), and per distinct set of brakes without a step cap (SweepPlan.noCaps) the
 * stops no context strategy changes — the first call where a repeat or same-error brake fires
 * (toolStopCall), and for closed-form passes the first call before which the timeout or the backtrack
 * limit may stop the run (elapsed time over plain calls with recorded whole latencies is the compiled
 * running total, the same under every strategy). The reference sweep hoists its timeout and repeat
 * stops the same way.
 */
import { timedOut } from '../kernel/brakes.js';
import { endsBeforeNextCall } from '../kernel/gaveUp.js';
import { Limit, type BrakeLimits } from '../kernel/limits.js';
import type { CompiledTrace } from './layout.js';
import { toolStopCall } from './replayFast.js';
import { firstBacktrackStop } from './tableStop.js';

/** A cap call that no run reaches (no cap, or more steps than the trace has). */
export const NO_CAP_CALL = 0x7fffffff;

/**
 * Per trace: for each cell and each distinct step cap, the first call before which its steps were taken (a step cap fires there), or NO_CAP_CALL
 * — also when that call is the one after the last of a recording whose run asked for no other (its model gave up, or it was aborted): the run ends before its brakes (kernel/gaveUp.ts).
 */
export class CapCalls {
  /** Per cell. */
  calls = new Int32Array(0);
  /** Per distinct cap (SweepPlan.caps). */
  byCap = new Int32Array(0);
  private atStep = new Int32Array(64);
  /** The trace length and caps the cap calls are for when every call was a step (then they depend on nothing else). */
  private identityFor = -1;
  private capsFor: Int32Array | null = null;
  /** And whether that trace's run asked for no call after its last (no cap fires after it). */
  private endsAfterLastFor = false;

  /** Works out the cap calls on `t` (caps: SweepPlan.caps, −1 without a cap; capIds: each cell's). */
  of(t: CompiledTrace, caps: Int32Array, capIds: Int32Array): void {
    if (this.calls.length !== capIds.length) this.calls = new Int32Array(capIds.length);
    if (this.byCap.length !== caps.length) this.byCap = new Int32Array(caps.length);
    const byCap = this.byCap;
    // Every call a step: the call is the step count.
    if (t.nonStepsBefore[t.calls] === 0) {
      if (this.identityFor === t.calls && this.capsFor === caps && this.endsAfterLastFor === t.endsAfterLastCall) return;
      this.identityFor = t.calls;
      this.capsFor = caps;
      this.endsAfterLastFor = t.endsAfterLastCall;
      for (let j = 0; j < caps.length; j++) {
        const steps = caps[j]!;
        byCap[j] = steps >= 0 && steps <= t.calls && !endsBeforeNextCall(steps, t.calls, t.endsAfterLastCall) ? steps : NO_CAP_CALL;
      }
    } else {
      this.identityFor = -1;
      if (this.atStep.length < t.calls + 2) this.atStep = new Int32Array(t.calls + 2);
      // steps before call k = k − non-steps before k, non-decreasing by 0 or 1 per call.
      let m = 0;
      for (let k = 0; k <= t.calls; k++) {
        const steps = k - t.nonStepsBefore[k]!;
        while (m <= steps) this.atStep[m++] = k;
      }
      for (let j = 0; j < caps.length; j++) {
        const steps = caps[j]!;
        byCap[j] = steps >= 0 && steps < m && !endsBeforeNextCall(this.atStep[steps]!, t.calls, t.endsAfterLastCall) ? this.atStep[steps]! : NO_CAP_CALL;
      }
    }
    for (let c = 0; c < capIds.length; c++) this.calls[c] = byCap[capIds[c]!]!;
  }
}

/** The first call of `t` before which `steps` steps were taken (a cap of that many fires there), as CapCalls works it out. */
export function capCallOf(t: CompiledTrace, steps: number): number {
  if (t.nonStepsBefore[t.calls] === 0) return steps;
  // steps before call k = k − non-steps before k: non-decreasing.
  let lo = 0;
  let hi = t.calls;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (mid - t.nonStepsBefore[mid]! >= steps) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** Per trace and brake set without a step cap: the stops no strategy changes. */
export class TraceStops {
  /** The first call where a repeat or same-error brake fires if the run gets there (toolStopCall). */
  toolStop = new Int32Array(0);
  /** Closed-form passes: min(toolStop, the first call before which the timeout may fire, the backtrack stop, t.calls). */
  hardStop = new Int32Array(0);

  /** Works out the stops of `t` under each of `limits` (one per SweepPlan.noCaps). */
  of(t: CompiledTrace, limits: readonly BrakeLimits[]): void {
    const n = limits.length;
    if (this.toolStop.length < n) {
      this.toolStop = new Int32Array(n);
      this.hardStop = new Int32Array(n);
    }
    for (let u = 0; u < n; u++) {
      const l = limits[u]!;
      const tool = toolStopCall(t, l);
      this.toolStop[u] = tool;
      this.hardStop[u] = Math.min(tool, firstTimeout(t, l[Limit.TimeoutMs]!), firstBacktrackStop(t, l));
    }
  }
}

/** The first call k before which the elapsed time (compiled step latencies) times out; t.calls when none. */
function firstTimeout(t: CompiledTrace, timeoutMs: number): number {
  const elapsed = t.stepLatencyBefore;
  const end = t.calls;
  if (timeoutMs === Infinity || !timedOut(elapsed[end]!, timeoutMs)) return end;
  let lo = 0;
  let hi = end;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (timedOut(elapsed[mid]!, timeoutMs)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}
