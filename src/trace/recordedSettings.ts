/**
 * A run's brakes as its recording's header states them (`recordedSettings`), and back. The real loop's
 * recorder writes every brake the run had, exactly (recordedSettingsOf); `--preset recorded` and what-if's
 * baseline read them back (replay/whatif.ts recordedBrakes), so that a recording replayed with its own
 * brakes stops where, after as many steps and at the cost the run did.
 */
import type { BrakeConfig } from '../brakes/config.js';
import { MODE_BRAKES, type ModeBrake } from '../flags/modeBrakes.js';
import { decimalPico, MAX_COST, MAX_TIMEOUT } from '../flags/settingsFlags.js';
import { MAX_LATENCY_MS } from '../io/limits.js';
import { usdToPico } from '../money.js';
import type { RuleViolation } from './rules.js';
import type { RecordedSettings } from './types.js';

/** The settings a header holds under the BrakeConfig field's own name and unit (counts, modes, tokens). */
export const SETTINGS_AS_IS = [
  'maxSteps',
  'budgetMode',
  'maxOutputTokens',
  'maxRepeat',
  'repeatMode',
  'repeatAction',
  'maxSkips',
  'skipWarningTokens',
  'maxSameError',
  'sameErrorMode',
  'maxTokens',
  'maxBacktracks',
  'contextWindow',
] as const satisfies readonly (keyof BrakeConfig & keyof RecordedSettings)[];

/** Every brake of `brakes` as a header's `recordedSettings`: the budget in picodollars and the timeout in ms, exactly. */
export function recordedSettingsOf(brakes: BrakeConfig): RecordedSettings {
  const settings: Record<string, unknown> = {};
  for (const key of SETTINGS_AS_IS) if (brakes[key] !== undefined) settings[key] = brakes[key];
  // A mode set alone changed nothing, and would be refused on reading (recordedSettingsViolations): left out.
  for (const rule of MODE_BRAKES) if (brakes[rule.brake] === undefined && settings[rule.mode] !== rule.unset) delete settings[rule.mode];
  if (brakes.maxCostPico !== undefined) settings.maxCostPico = brakes.maxCostPico;
  if (brakes.timeoutMs !== undefined) settings.timeoutMs = brakes.timeoutMs;
  return settings as RecordedSettings;
}

/** A recorded USD budget (`maxCostUsd`) as the picodollars its decimal names, at most 2^53 − 1: what a replay's brakes take (replay/whatif.ts recordedBrakes). */
export function recordedBudgetPico(usd: number): number {
  return Math.min(decimalPico(String(usd)) ?? usdToPico(usd), Number.MAX_SAFE_INTEGER);
}

const FIELD = 'recordedSettings';

/**
 * What a header's recorded brakes may not say, by the rules the brake flags take (src/flags): a budget or a
 * timeout past what its flag takes, a budget above 0 that is less than a picodollar (it would read as a
 * budget of 0; a recorded 0 is one, as the recorder writes it), and a mode other than its default recorded
 * without its brake (it changes nothing, as `--repeat-mode` alone is refused; the recorder writes the
 * defaults always).
 */
export function recordedSettingsViolations(settings: RecordedSettings): RuleViolation[] {
  const out: RuleViolation[] = [];
  const { maxCostUsd, timeoutSeconds, timeoutMs } = settings;
  if (maxCostUsd !== undefined && maxCostUsd > MAX_COST.max) out.push(tooLarge('maxCostUsd', `$${maxCostUsd}`, MAX_COST.text!, MAX_COST.why));
  else if (maxCostUsd !== undefined && maxCostUsd > 0 && recordedBudgetPico(maxCostUsd) === 0) {
    out.push({ field: `${FIELD}.maxCostUsd`, code: 'too_small', message: `$${maxCostUsd} is above 0 but less than a picodollar ($0.000000000001), the smallest budget held (as --max-cost takes it): it would read as a budget of 0`, hint: 'record the budget in USD, at least $0.000000000001; 0 for a budget of 0, or leave it out for none' });
  }
  if (timeoutSeconds !== undefined && timeoutSeconds > MAX_TIMEOUT.max) out.push(tooLarge('timeoutSeconds', String(timeoutSeconds), MAX_TIMEOUT.text!, MAX_TIMEOUT.why));
  if (timeoutMs !== undefined && timeoutMs > MAX_LATENCY_MS) out.push(tooLarge('timeoutMs', String(timeoutMs), `${MAX_LATENCY_MS} ms`, MAX_TIMEOUT.why));
  for (const rule of MODE_BRAKES) {
    const lone = loneMode(settings, rule);
    if (lone !== undefined) out.push(lone);
  }
  return out;
}

function tooLarge(key: string, value: string, most: string, why: string): RuleViolation {
  return { field: `${FIELD}.${key}`, code: 'too_large', message: `${value} is more than ${most}, ${why} (as its flag takes it)`, hint: 'record the limit the run had, or leave it out for none' };
}

/** A mode recorded other than its default while its brake is not: it changed nothing (the flag refuses it so). */
function loneMode(settings: RecordedSettings, rule: ModeBrake): RuleViolation | undefined {
  const value = settings[rule.mode];
  const brakes = rule.brake === 'maxCostPico' ? [settings.maxCostPico, settings.maxCostUsd] : [settings[rule.brake as keyof RecordedSettings]];
  if (value === undefined || value === rule.unset || brakes.some((brake) => brake !== undefined)) return undefined;
  const brake = rule.brake === 'maxCostPico' ? 'maxCostUsd or maxCostPico' : rule.brake;
  return {
    field: `${FIELD}.${rule.mode}`,
    code: 'setting_without_effect',
    message: `is '${value}', but no ${brake} is recorded: the mode has no effect without its brake (as ${rule.modeFlag} has none without ${rule.brakeFlag})`,
    hint: `record ${brake} beside it, or leave ${rule.mode} out`,
  };
}
