/**
 * What a brake's stop of a run was worth, judged against the same run with no brakes (its baseline) — the
 * one rule sweep, check, project and calibrate count false stops, caught runs and their savings by:
 *
 * - With ground truth (a synthetic run, or a trace `loopcost generate` wrote, whose header carries it): a
 *   **false stop** is a brake stopping the run before the step at which, with no brakes, its task is done,
 *   among the runs whose task is done with no brakes. A run that "completes" without doing its task (a
 *   retrier that gives up and answers anyway) is none; a run stopped after its task was done (stuck
 *   verifying done work) is a catch, not a false stop. Its calls up to a stop are its no-brake run's, so it
 *   stopped with its task undone exactly when it stopped before that step.
 * - Without (a recorded run): by outcome, a brake stopped a run that completes with no brakes.
 *
 * Either way a brake stop that is no false stop, before the no-brake run's end, is **caught** (it saves
 * what the rest of the run would have cost). Pure: no node:*, no clock.
 */
import { isBrakeStop, STOP_REASONS } from '../brakes/stopReasons.js';
import { StopCode } from '../kernel/stopCodes.js';

/** What a run's no-brake run really did (ground truth): the step its task is done at, the step it got stuck from (each: if it did). */
export interface BaselineTruth {
  doneAtStep?: number | undefined;
  stuckFromStep?: number | undefined;
}

/** What the rule reads of a baseline: its stop code and steps, and its ground truth when known. */
export interface JudgedBaseline {
  stop: number;
  steps: number;
  truth?: BaselineTruth | undefined;
}

/** A stop's verdict (numbers: a sweep judges every cell). */
export const Verdict = { Neither: 0, FalseStop: 1, Caught: 2 } as const;
export type Verdict = (typeof Verdict)[keyof typeof Verdict];

/** By stop code (StopCode follows STOP_REASONS' order): a brake ended the run. */
const BRAKED: readonly boolean[] = STOP_REASONS.map(isBrakeStop);

/** Whether the baseline counts toward false stops (the false-stop rate's denominator): its task is done with no brakes (ground truth), else it completes with no brakes. */
export function completesWithoutBrakes(baseline: Pick<JudgedBaseline, 'stop' | 'truth'>): boolean {
  const truth = baseline.truth;
  return truth === undefined ? baseline.stop === StopCode.Completed : truth.doneAtStep !== undefined;
}

/**
 * Whether a run stopped by `stop` after `steps` steps is a false stop, against its baseline's stop and ground
 * truth (when known); `ownDone`: a closed-loop run's own (RunPair.truth): a brake stop of a run whose
 * task is done with no brakes and not done here.
 */
export function isFalseStop(stop: number, steps: number, baseline: Pick<JudgedBaseline, 'stop' | 'truth'>, ownDone?: boolean): boolean {
  if (BRAKED[stop] !== true) return false;
  const truth = baseline.truth;
  return truth === undefined ? baseline.stop === StopCode.Completed : truth.doneAtStep !== undefined && !countsAsDone(stop, steps, truth, ownDone);
}

/**
 * Whether a run counts toward a target completion rate (a sweep's recommendation): with ground truth, its
 * task is done — it got as far as the step its task is done at with no brakes (a retrier that gives up and
 * answers anyway is not done; a run a brake stopped after that step is); without (a recorded run), its stop
 * reason is `completed`. The twin of isFalseStop: a run with ground truth a brake stops is a false stop
 * exactly when its task is done with no brakes and it is not done here. A run that ran closed loop knows its
 * own (`ownDone`: RunPair.truth): under brakes that change what the agent sees (a skip), it need not
 * follow its unbraked run, so steps past that run's done step prove nothing (a forgetful agent starved by
 * skips went 55 steps, task undone).
 */
export function countsAsDone(stop: number, steps: number, truth: BaselineTruth | undefined, ownDone?: boolean): boolean {
  if (ownDone !== undefined && truth !== undefined) return ownDone;
  return truth === undefined ? stop === StopCode.Completed : truth.doneAtStep !== undefined && steps >= truth.doneAtStep;
}

/** A run stopped by `stop` after `steps` steps, against its baseline: a false stop, caught (a brake stop before the baseline's end that is no false stop), or neither. */
export function stopVerdict(stop: number, steps: number, baseline: JudgedBaseline, ownDone?: boolean): Verdict {
  if (BRAKED[stop] !== true) return Verdict.Neither;
  if (isFalseStop(stop, steps, baseline, ownDone)) return Verdict.FalseStop;
  return steps < baseline.steps ? Verdict.Caught : Verdict.Neither;
}
