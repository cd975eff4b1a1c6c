/**
 * The brakes, written once: each limit's comparison, and the fixed order in which they are checked.
 * The readable session, the compiled replay, its closed forms and sweeps all call these.
 *
 *   before each model call   beforeCallStop → max_steps, timeout, budget (check, then predict),
 *                                             token_limit, context_overflow — the first that fires wins
 *   after a backtrack call   backtrackStop  → backtrack_limit
 *   before each tool call    repeatStop     → repeat         (seen = times the action already ran)
 *   after each tool call     sameErrorStop  → error_limit    (count includes this failure)
 */
import { StopCode } from './stopCodes.js';
import { Limit, type BrakeLimits } from './limits.js';
import type { CallRecord } from '../trace/types.js';

/** What the step cap counts: every call but a backtrack or a compaction (the compiled path counts the same from a call's flags: precompute.ts). */
export function countsAsStep(call: Pick<CallRecord, 'backtrack' | 'compaction'>): boolean {
  return call.backtrack !== true && call.compaction !== true;
}

/** The step cap: `steps` already taken reach the limit. */
export function stepCapReached(steps: number, maxSteps: number): boolean {
  return steps >= maxSteps;
}

/**
 * The virtual clock has run past the timeout: strictly greater, as the reference loop's
 * `time.time() - started > TIMEOUT` (with a virtual clock, elapsed time lands exactly on a limit often).
 */
export function timedOut(elapsedMs: number, timeoutMs: number): boolean {
  return elapsedMs > timeoutMs;
}

/** What a run spent past its budget (0 within it): its overshoot, in picodollars. */
export function overshootPico(spentPico: number, budgetPico: number): number {
  return spentPico > budgetPico ? spentPico - budgetPico : 0;
}

/** Check mode: the budget is spent. */
export function budgetSpent(spentPico: number, budgetPico: number): boolean {
  return spentPico >= budgetPico;
}

/** Predict mode: the next call, at its bound, would take spend past the budget. */
export function budgetWouldCross(spentPico: number, boundPico: number, predictBudgetPico: number): boolean {
  return spentPico + boundPico > predictBudgetPico;
}

/** Input + output tokens over the run reach the cap. */
export function tokenCapReached(tokensUsed: number, maxTokens: number): boolean {
  return tokensUsed >= maxTokens;
}

/**
 * The next prompt is larger than the context-window brake allows (`Limit.ContextWindow`: n, or under
 * `'model'` the model's window less the max_tokens sent — a provider refuses prompt + max_tokens past it).
 */
export function promptTooLarge(promptTokens: number, promptAllowedTokens: number): boolean {
  return promptTokens > promptAllowedTokens;
}

/**
 * Brakes before a model call, in the fixed order. `boundPico` is the predictive bound of the call
 * (only read in predict mode), `promptTokens` the prompt it would send.
 */
export function beforeCallStop(
  limits: BrakeLimits,
  steps: number,
  elapsedMs: number,
  spentPico: number,
  boundPico: number,
  tokensUsed: number,
  promptTokens: number,
): StopCode {
  return beforeCallStopWithin(
    limits[Limit.MaxSteps]!,
    limits[Limit.TimeoutMs]!,
    limits[Limit.BudgetPico]!,
    limits[Limit.PredictBudgetPico]!,
    limits[Limit.MaxTokens]!,
    limits[Limit.ContextWindow]!,
    steps,
    elapsedMs,
    spentPico,
    boundPico,
    tokensUsed,
    promptTokens,
  );
}

/**
 * beforeCallStop with the limits as numbers (a hot loop reads them once, into registers). The order of
 * the brakes is this function's.
 */
export function beforeCallStopWithin(
  maxSteps: number,
  timeoutMs: number,
  budgetPico: number,
  predictBudgetPico: number,
  maxTokens: number,
  promptAllowedTokens: number,
  steps: number,
  elapsedMs: number,
  spentPico: number,
  boundPico: number,
  tokensUsed: number,
  promptTokens: number,
): StopCode {
  if (stepCapReached(steps, maxSteps)) return StopCode.MaxSteps;
  if (timedOut(elapsedMs, timeoutMs)) return StopCode.Timeout;
  if (budgetSpent(spentPico, budgetPico)) return StopCode.Budget;
  if (budgetWouldCross(spentPico, boundPico, predictBudgetPico)) return StopCode.Budget;
  if (tokenCapReached(tokensUsed, maxTokens)) return StopCode.TokenLimit;
  if (promptTooLarge(promptTokens, promptAllowedTokens)) return StopCode.ContextOverflow;
  return StopCode.None;
}

/**
 * Whether a stop is the predictive bound's refusal: a budget stop (`code`, from beforeCallStop) at a spend
 * (`spentPico`, what the run had spent when the call was refused) short of the budget. beforeCallStop checks
 * the spent budget first, so such a stop is budgetWouldCross's, never budgetSpent's; in check mode every
 * budget stop has reached the budget. What every path records on the run's stop (kernel/describe.ts stopOf)
 * and words its detail by, so a report counts these stops from the fact, not from the words.
 */
export function stoppedByBound(code: StopCode, spentPico: number, budgetPico: number): boolean {
  return code === StopCode.Budget && !budgetSpent(spentPico, budgetPico);
}

/** After a backtrack call: `backtracks` made so far, this one included. */
export function backtrackStop(limits: BrakeLimits, backtracks: number): StopCode {
  return backtracksPastCap(backtracks, limits[Limit.MaxBacktracks]!) ? StopCode.BacktrackLimit : StopCode.None;
}

/** The backtrack brake's comparison: `backtracks` made (the last one included) pass the cap `maxBacktracks` (a run table searches by it: fast/tableStop.ts). */
export function backtracksPastCap(backtracks: number, maxBacktracks: number): boolean {
  return backtracks > maxBacktracks;
}

/** Before a tool call runs: `seen` = times this action already ran, as the repeat mode counts. */
export function repeatStop(limits: BrakeLimits, seen: number): StopCode {
  return seen >= limits[Limit.MaxRepeat]! ? StopCode.Repeat : StopCode.None;
}

/** Whether the repeated-action brake can stop or skip any tool call (off: no `max-repeat`, nothing reads an action's count). */
export function repeatBrakeOn(limits: BrakeLimits): boolean {
  return limits[Limit.MaxRepeat] !== Infinity;
}

/** What the duplicate-action guard does with a tool call (`--repeat-action`). */
export const enum RepeatOutcome {
  Run = 0,
  /** Not executed: a warning observation takes its place, the step still counts. */
  Skip = 1,
  Stop = 2,
}

/**
 * Before a tool call runs: the repeat brake with its action. `skips` = tool calls already skipped in
 * the run; under `skip` the action is skipped until `max-skips` skips were made, then the run stops.
 */
export function repeatOutcome(limits: BrakeLimits, seen: number, skips: number): RepeatOutcome {
  if (repeatStop(limits, seen) === StopCode.None) return RepeatOutcome.Run;
  return limits[Limit.RepeatSkip] === 1 && skips < limits[Limit.MaxSkips]! ? RepeatOutcome.Skip : RepeatOutcome.Stop;
}

/**
 * A summary call may be made before the next call when the step, time, budget and token brakes would let
 * that call through; in predict mode, when its own bound (`summaryBoundPico`: it is a paid call too) stays
 * within the budget.
 */
export function summaryMayRun(limits: BrakeLimits, steps: number, elapsedMs: number, spentPico: number, tokensUsed: number, summaryBoundPico = 0): boolean {
  return beforeCallStop(limits, steps, elapsedMs, spentPico, summaryBoundPico, tokensUsed, 0) === StopCode.None;
}

/** After a failed tool call: `count` = its (tool, error) count as the same-error mode counts, this one included. */
export function sameErrorStop(limits: BrakeLimits, count: number): StopCode {
  return count >= limits[Limit.MaxSameError]! ? StopCode.ErrorLimit : StopCode.None;
}
