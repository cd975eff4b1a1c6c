/**
 * A run's brakes as its recording's header states them (`recordedSettings`), and back. The real loop's
 * recorder writes every brake the run had, exactly (recordedSettingsOf); `--preset recorded` and what-if's
 * baseline read them back (replay/whatif.ts recordedBrakes), so that a recording replayed with its own
 * brakes stops where, after as many steps and at the cost the run did.
 */
import type { BrakeConfig } from '../brakes/config.js';
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
  if (brakes.maxCostPico !== undefined) settings.maxCostPico = brakes.maxCostPico;
  if (brakes.timeoutMs !== undefined) settings.timeoutMs = brakes.timeoutMs;
  return settings as RecordedSettings;
}
