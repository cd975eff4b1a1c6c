import type { Pico } from '../money.js';
import { usdToPico } from '../money.js';
import { OptionIssues } from '../options/issues.js';
import { brakeSettingIssues } from '../options/brakeSettings.js';
import { deepFreeze } from '../deepFreeze.js';
import { MODE_DEFAULTS } from '../flags/modeBrakes.js';

export type RepeatMode = 'total' | 'consecutive' | 'cycle';
export type SameErrorMode = 'consecutive' | 'total';
export type BudgetMode = 'check' | 'predict';

/** The `max_tokens` assumed when BrakeConfig.maxOutputTokens is unset. */
export const DEFAULT_MAX_OUTPUT_TOKENS = 4096;

/** The max_tokens a loop's calls send under `brakes` (`--max-output-tokens`, default 4096). */
export function maxOutputTokensSent(brakes: Pick<BrakeConfig, 'maxOutputTokens'>): number {
  return brakes.maxOutputTokens ?? DEFAULT_MAX_OUTPUT_TOKENS;
}

/** Tokens of the warning observation a skipped repeated action adds when BrakeConfig.skipWarningTokens is unset. */
export const DEFAULT_SKIP_WARNING_TOKENS = 40;

/** Brake settings. Every brake is off unless its limit is set. */
export interface BrakeConfig {
  /** Steps (model calls that are not backtracks) allowed. */
  maxSteps?: number;
  /** Spend allowed, in picodollars. */
  maxCostPico?: Pico;
  /** `check`: stop once spent ≥ limit (the reference loop). `predict`: refuse a call whose bound would cross it. */
  budgetMode: BudgetMode;
  /**
   * The `max_tokens` a real loop sends with each call (default 4096): the output part of the predictive
   * budget's bound, and under `contextWindow: 'model'` part of what must fit the window. A response longer
   * than this is not bounded, so predict mode may then overshoot.
   */
  maxOutputTokens?: number;
  /** Virtual time allowed (model latency + tool latency), in milliseconds. */
  timeoutMs?: number;
  /** An action may be seen this many times; the next identical one stops the run. */
  maxRepeat?: number;
  repeatMode: RepeatMode;
  /** What a repeated action does: `stop` the run (default), or `skip` it (not executed, a warning observation added, the step counted). */
  repeatAction?: 'stop' | 'skip';
  /** Under `skip`: skips allowed; the next repeated action stops the run (unset: no limit). */
  maxSkips?: number;
  /** Under `skip`: tokens of the warning observation (default DEFAULT_SKIP_WARNING_TOKENS). */
  skipWarningTokens?: number;
  /** The run stops when the same tool fails with the same error this many times. */
  maxSameError?: number;
  sameErrorMode: SameErrorMode;
  /** Input + output tokens allowed over the run. */
  maxTokens?: number;
  /** Backtracks allowed; the next one stops the run. */
  maxBacktracks?: number;
  /**
   * Largest prompt allowed: n tokens; `model` = what the model's own context window leaves once the
   * `max_tokens` sent (maxOutputTokens) is counted against it, as a provider counts it (kernel/limits.ts).
   */
  contextWindow?: number | 'model';
}

/** Frozen, as every constant the library exports (test/library/frozenExports.test.ts): a caller's write cannot change later runs. */
export const NO_BRAKES: Readonly<BrakeConfig> = Object.freeze({
  budgetMode: MODE_DEFAULTS.budgetMode,
  repeatMode: MODE_DEFAULTS.repeatMode,
  sameErrorMode: MODE_DEFAULTS.sameErrorMode,
});

/**
 * Brake settings as a library caller writes them: any limits, any modes; what is left out is as on the
 * command line (no limit; `--budget-mode check`, `--repeat-mode total`, `--same-error-mode consecutive`).
 */
export type BrakeSettings = Partial<BrakeConfig>;

/**
 * The full BrakeConfig for `settings`: NO_BRAKES (the CLI's defaults) with each setting given (undefined: left
 * out). Settings the brake flags would refuse (options/brakeSettings.ts: NaN, a fraction, a misspelt key, not
 * an object, a budget or timeout of 0, a mode other than its default without its brake, a skip limit without
 * `repeatAction: 'skip'`) are one UserError, `<brakeConfig arguments>` field 'settings.maxSteps', never a config.
 */
export function brakeConfig(settings: BrakeSettings = {}): BrakeConfig {
  // Said as options/given.ts argumentsFile says it; not imported from there: given.ts reaches modules that read NO_BRAKES as they load.
  const issues = new OptionIssues('<brakeConfig arguments>');
  brakeSettingIssues(issues.add, settings, { field: 'settings' });
  issues.throwIfAny();
  return filledBrakeConfig(settings);
}

/**
 * brakeConfig unchecked: for settings an entry point has checked by its own rules, under its own name
 * (runAgentLoop's brakes; a replay's, which may be a recording's: a recorded budget of 0 is one).
 */
export function filledBrakeConfig(settings: BrakeSettings = {}): BrakeConfig {
  const config: BrakeConfig = { ...NO_BRAKES };
  for (const [key, value] of Object.entries(settings)) if (value !== undefined) (config as unknown as Record<string, unknown>)[key] = value;
  return config;
}

/** The reference loop's four brakes: 12 steps, $0.50, 120 s, an action repeated 3 times (total). */
export const REFERENCE_PRESET: Readonly<BrakeConfig> = Object.freeze({
  ...NO_BRAKES,
  maxSteps: 12,
  maxCostPico: usdToPico(0.5),
  timeoutMs: 120_000,
  maxRepeat: 3,
  repeatMode: 'total',
});

/**
 * Other runtimes' default limits, as far as these brakes can express them (docs/presets.md gives each
 * one's source and what it leaves out). Usable as `--preset NAME` and as a sweep axis (`--grid preset=...`).
 */
export const RUNTIME_PRESETS: Readonly<Record<string, Readonly<BrakeConfig>>> = deepFreeze({
  /** OpenAI Agents SDK: `max_turns` defaults to 10 (DEFAULT_MAX_TURNS). */
  'openai-agents': { ...NO_BRAKES, maxSteps: 10 },
  /** LangGraph: `recursion_limit` defaults to 25 super-steps. */
  langgraph: { ...NO_BRAKES, maxSteps: 25 },
  /** smolagents: MultiStepAgent `max_steps` defaults to 20. */
  smolagents: { ...NO_BRAKES, maxSteps: 20 },
  /** CrewAI: Agent `max_iter` of 25 iterations. */
  crewai: { ...NO_BRAKES, maxSteps: 25 },
  /** mini-swe-agent: `cost_limit` $3 checked before each query, no step limit (`step_limit: 0`). */
  'mini-swe-agent': { ...NO_BRAKES, maxCostPico: usdToPico(3), budgetMode: 'check' },
  /** OpenHands stuck detector: 4 identical actions in a row stop the run (the 4th), as do 3 identical errors. */
  openhands: { ...NO_BRAKES, maxRepeat: 3, repeatMode: 'consecutive', maxSameError: 3, sameErrorMode: 'consecutive' },
});

export const PRESETS: Readonly<Record<string, Readonly<BrakeConfig>>> = Object.freeze({
  none: NO_BRAKES,
  reference: REFERENCE_PRESET,
  ...RUNTIME_PRESETS,
});
