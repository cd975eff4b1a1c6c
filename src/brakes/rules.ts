/**
 * The rules of the brake settings, written once for the command line and the library.
 * - BRAKE_NUMBERS: each numeric brake's flag and the rule its value is held to (flags/numberFlags.ts
 *   NumberFlagRule: whole or not, 0 taken or not, its most). The flags read their values by it
 *   (flags/settingsFlags.ts brakesFromFlags), and a library caller's settings are held to it
 *   (options/rules.ts brakeIssues, and flagRuleIssues below), so both say the same words:
 *   `'0' is not a whole number greater than 0` on the command line, `0 is not a whole number greater than 0`
 *   at `<brakeConfig arguments>` field 'settings.maxSteps'.
 * - flagRuleIssues: what a flag refuses though the brakes could hold it, so that settings a caller writes
 *   (brakeConfig, runAgentLoop's brakes, a sub-agent's, a curve's) are refused where the command line refuses
 *   them: a budget or timeout of 0 (`--max-cost 0`: every run would stop before it did anything; a recording
 *   may hold one, which the replay entry points take as recorded: replay/whatif.ts recordedBrakes), a mode
 *   other than its default without its brake (`--repeat-mode` without `--max-repeat`: flags/modesWithoutBrake.ts),
 *   and a skip limit without the skip action (`--repeat-action stop,max-skips=2`).
 * Pure: no node:*.
 */
import type { BrakeConfig } from './config.js';
import { MODE_BRAKES } from '../flags/modeBrakes.js';
import { modesWithoutBrake, type GivenModes } from '../flags/modesWithoutBrake.js';
import { numberFault, numberKind, type NumberFlagRule } from '../flags/numberFlags.js';
import { MAX_LATENCY_MS } from '../io/limits.js';
import { shown, type Issue } from '../options/issues.js';

/** A numeric brake: the flag that sets it (a skip limit is an option of `--repeat-action`) and its value's rule, in the setting's own unit. */
export interface BrakeNumber {
  flag: string;
  rule: NumberFlagRule;
}

const COUNT: NumberFlagRule = { whole: true };
const COUNT_FROM_ZERO: NumberFlagRule = { whole: true, zero: true };

export const BRAKE_NUMBERS = {
  maxSteps: { flag: '--max-steps', rule: COUNT },
  maxRepeat: { flag: '--max-repeat', rule: COUNT },
  maxSameError: { flag: '--max-same-error', rule: COUNT },
  maxTokens: { flag: '--max-tokens', rule: COUNT },
  maxOutputTokens: { flag: '--max-output-tokens', rule: COUNT },
  contextWindow: { flag: '--context-window', rule: COUNT },
  // 0 means none allowed.
  maxBacktracks: { flag: '--max-backtracks', rule: COUNT_FROM_ZERO },
  maxSkips: { flag: '--repeat-action', rule: COUNT_FROM_ZERO },
  skipWarningTokens: { flag: '--repeat-action', rule: COUNT_FROM_ZERO },
  // Held in picodollars and milliseconds (the flags take USD and seconds): at least one of each, as --max-cost 1e-13 is refused.
  maxCostPico: { flag: '--max-cost', rule: { whole: true, unit: 'picodollars', example: 'usdToPico(0.5)', limit: { max: Number.MAX_SAFE_INTEGER, text: '2^53 − 1', why: "the most one run's spend is counted exactly" } } },
  timeoutMs: { flag: '--timeout', rule: { unit: 'milliseconds', example: '120000 for two minutes', limit: { max: MAX_LATENCY_MS, text: '2^53 − 1', why: "the most a run's clock holds" } } },
} as const satisfies Record<string, BrakeNumber>;

export type NumericBrake = keyof typeof BRAKE_NUMBERS;

/** Where settings were written: their field (`brakes`, `settings`), and whether a cost limit other than maxCostPico binds (a sub-agent's, under `subagentLimits`), which the budget mode applies to. */
export interface SettingsPlace {
  field: string;
  budgetBinds?: boolean;
  /** What to do with a budget mode given alone, where no maxCostPico may be set beside it (a sub-agent's brakes). */
  budgetModeHint?: string;
}

/**
 * What the brake flags refuse in `settings` though each value is one the brakes hold (see above), each at
 * `place.field`.key. For settings whose values are the brakes' (options/rules.ts brakeIssues found nothing).
 */
export function flagRuleIssues(issue: Issue, settings: Record<string, unknown>, place: SettingsPlace): void {
  const at = (key: string) => `${place.field}.${key}`;
  for (const [key, { flag, rule }] of Object.entries(BRAKE_NUMBERS) as [NumericBrake, BrakeNumber][]) {
    const value = settings[key];
    if (typeof value !== 'number' || numberFault(value, rule) === undefined) continue;
    const why = value === 0 ? `: a limit of 0 would stop every run before it did anything (${flag} takes no 0 either)` : ` (as ${flag} takes it)`;
    issue(at(key), 'invalid_number', `${shown(value)} is not ${numberKind(rule)}${why}`, 'leave it out for no limit');
  }
  const given: GivenModes = {};
  for (const { mode, unset } of MODE_BRAKES) if (settings[mode] !== undefined && settings[mode] !== unset) given[mode] = settings[mode];
  for (const { mode, brake, modeFlag, brakeFlag } of modesWithoutBrake(given, [settings as Partial<BrakeConfig> as BrakeConfig], place.budgetBinds === true)) {
    const hint = mode === 'budgetMode' && place.budgetModeHint !== undefined ? place.budgetModeHint : `set ${brake} beside it, or leave ${mode} out`;
    issue(at(mode), 'setting_without_effect', `has no effect without ${brake} (as ${modeFlag} has none without ${brakeFlag}): ${shown(settings[mode])} would change nothing`, hint);
  }
  for (const key of ['maxSkips', 'skipWarningTokens'] as const) {
    if (settings[key] === undefined || settings.repeatAction === 'skip') continue;
    issue(at(key), 'setting_without_effect', `has no effect without repeatAction: 'skip' (as --repeat-action takes max-skips and warning only after skip: skip,max-skips=S,warning=W)`, `set repeatAction: 'skip' (and maxRepeat) beside it, or leave ${key} out`);
  }
}
