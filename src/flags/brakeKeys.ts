/**
 * The brake settings a --try names, by their flags' names without `--` (a module of its own, with no
 * imports: whatif's command line refuses the flags themselves, whatifBrakeFlags.ts, without loading the settings' parsers).
 */
import type { BrakeFlags } from './settingsFlags.js';

/** Each brake setting a --try names, by its flag's name without `--` (whatif refuses the flags themselves: whatifBrakeFlags.ts). */
export const BRAKE_KEYS: Record<string, keyof BrakeFlags> = {
  preset: 'preset',
  'max-steps': 'maxSteps',
  'max-cost': 'maxCost',
  timeout: 'timeout',
  'max-repeat': 'maxRepeat',
  'repeat-mode': 'repeatMode',
  'repeat-action': 'repeatAction',
  'max-skips': 'maxSkips',
  'skip-warning': 'skipWarning',
  'max-same-error': 'maxSameError',
  'same-error-mode': 'sameErrorMode',
  'max-tokens': 'maxTokens',
  'max-backtracks': 'maxBacktracks',
  'budget-mode': 'budgetMode',
  'context-window': 'contextWindow',
  'max-output-tokens': 'maxOutputTokens',
};

/** The brake flags whatif refuses (every --try key but `preset`, refused on its own: whatifPreset.ts), as `[flag name, option attribute]`. */
export const WHATIF_REFUSED_BRAKE_FLAGS: readonly (readonly [string, keyof BrakeFlags])[] = Object.entries(BRAKE_KEYS).filter(([name]) => name !== 'preset');
