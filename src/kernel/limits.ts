/**
 * Brake settings as plain numbers at named offsets of one Float64Array: absent limits are Infinity,
 * modes small integers. Hot loops read them as doubles, whatever shape of object the caller built.
 */
import type { FlatPrices } from './prices.js';
import { DEFAULT_SKIP_WARNING_TOKENS, maxOutputTokensSent, type BrakeConfig } from '../brakes/config.js';

export const enum Limit {
  MaxSteps,
  TimeoutMs,
  /** Check mode: a call is refused once spent ≥ this. */
  BudgetPico,
  /** Predict mode: a call is refused when spent + its bound > this (Infinity in check mode). */
  PredictBudgetPico,
  /** The `max_tokens` a real loop sends: the output part of the predictive bound; under `contextWindow: 'model'`, counted against the window. */
  MaxOutputTokens,
  MaxTokens,
  /**
   * The largest prompt a call may send: n under `contextWindow: n`; under `'model'`, the model's window
   * less the `max_tokens` the loop sends (promptAllowedTokens). Infinity when off or the window is unknown.
   */
  ContextWindow,
  /** The window that limit is drawn from: n, or the model's under `'model'` (Infinity when off or unknown). */
  ContextWindowTokens,
  MaxRepeat,
  RepeatMode,
  MaxSameError,
  /** 1: same-error mode `total`; 0: `consecutive`. */
  SameErrorTotal,
  MaxBacktracks,
  /** 1: a repeated action is skipped (`--repeat-action skip`), 0: it stops the run. */
  RepeatSkip,
  /** Skips allowed before a repeat stops the run (Infinity: no limit). */
  MaxSkips,
  /** Tokens of the warning observation a skipped action adds. */
  SkipWarningTokens,
  Size,
}

export const enum RepeatModeCode {
  Total = 0,
  Consecutive = 1,
  Cycle = 2,
}

export type BrakeLimits = Float64Array;

const REPEAT_MODES = { total: RepeatModeCode.Total, consecutive: RepeatModeCode.Consecutive, cycle: RepeatModeCode.Cycle } as const;

/**
 * The largest prompt a call may send into a model's context window: OpenAI and Anthropic refuse a request
 * whose prompt + `max_tokens` passes the window, so the output the loop asks for counts against it. A
 * `max_tokens` at or past the window leaves no prompt, not even an empty one: the allowance goes below 0,
 * so `prompt > allowed` is exactly the provider's `prompt + max_tokens > window` (providerWindow.ts).
 */
export function promptAllowedTokens(windowTokens: number, maxOutputTokens: number): number {
  return windowTokens - maxOutputTokens;
}

/**
 * The brakes as numbers; `modelContextWindow` stands in for `contextWindow: 'model'` (Infinity when
 * unknown). Under `'model'` the prompt allowed is the window less the max_tokens sent (a provider refuses
 * more); an explicit `contextWindow: n` is the largest prompt itself. Written into `into` (every limit), else a new array.
 */
export function brakeLimits(config: BrakeConfig, modelContextWindow = Infinity, into: BrakeLimits = new Float64Array(Limit.Size)): BrakeLimits {
  const limits = into;
  const budget = config.maxCostPico ?? Infinity;
  const maxOutputTokens = maxOutputTokensSent(config);
  const windowTokens = config.contextWindow === 'model' ? modelContextWindow : (config.contextWindow ?? Infinity);
  limits[Limit.MaxSteps] = config.maxSteps ?? Infinity;
  limits[Limit.TimeoutMs] = config.timeoutMs ?? Infinity;
  limits[Limit.BudgetPico] = budget;
  limits[Limit.PredictBudgetPico] = config.budgetMode === 'predict' ? budget : Infinity;
  limits[Limit.MaxOutputTokens] = maxOutputTokens;
  limits[Limit.MaxTokens] = config.maxTokens ?? Infinity;
  limits[Limit.ContextWindow] = config.contextWindow === 'model' ? promptAllowedTokens(windowTokens, maxOutputTokens) : windowTokens;
  limits[Limit.ContextWindowTokens] = windowTokens;
  limits[Limit.MaxRepeat] = config.maxRepeat ?? Infinity;
  limits[Limit.RepeatMode] = REPEAT_MODES[config.repeatMode];
  limits[Limit.MaxSameError] = config.maxSameError ?? Infinity;
  limits[Limit.SameErrorTotal] = config.sameErrorMode === 'total' ? 1 : 0;
  limits[Limit.MaxBacktracks] = config.maxBacktracks ?? Infinity;
  limits[Limit.RepeatSkip] = config.repeatAction === 'skip' ? 1 : 0;
  limits[Limit.MaxSkips] = config.maxSkips ?? Infinity;
  limits[Limit.SkipWarningTokens] = config.skipWarningTokens ?? DEFAULT_SKIP_WARNING_TOKENS;
  return limits;
}

/** Whether the predictive budget is on (it costs a bound per call). */
export function predicts(limits: BrakeLimits): boolean {
  return limits[Limit.PredictBudgetPico] !== Infinity;
}

/**
 * The window a summary trigger is a share of and must stay under: the `--context-window` brake's when set
 * (n, or the model's whole window under `'model'`, not the prompt it allows), else the model's.
 */
export function contextWindowTokens(limits: BrakeLimits, prices: FlatPrices): number {
  const brake = limits[Limit.ContextWindowTokens]!;
  return brake !== Infinity ? brake : prices.contextWindow;
}

/** Whether the context-window limit counts the `max_tokens` sent against the window (`contextWindow: 'model'`). */
export function windowCountsOutput(limits: BrakeLimits): boolean {
  return limits[Limit.ContextWindow]! < limits[Limit.ContextWindowTokens]!;
}
