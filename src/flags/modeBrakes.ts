/**
 * Each brake mode and the brake it modifies, written once: a mode means something only beside its brake
 * (`--repeat-mode` without `--max-repeat` changes nothing), so the command line (cli/actions/flagChecks.ts)
 * a trace's recorded settings (trace/recordedSettings.ts) and a library caller's settings (brakes/rules.ts)
 * refuse a mode given alone by this table. Pure. Each mode's default is written here (brakes/config.ts NO_BRAKES
 * reads it): no value is imported from config.ts, whose brakeConfig reads this table as the modules load.
 */
import type { BrakeConfig } from '../brakes/config.js';

/** Each mode when left out: the CLI's default (`--repeat-mode total`, …), and NO_BRAKES'. */
export const MODE_DEFAULTS = { repeatMode: 'total', repeatAction: 'stop', sameErrorMode: 'consecutive', budgetMode: 'check' } as const;

export interface ModeBrake {
  mode: 'repeatMode' | 'repeatAction' | 'sameErrorMode' | 'budgetMode';
  brake: keyof BrakeConfig;
  modeFlag: string;
  brakeFlag: string;
  /** What the mode is when left out (the CLI's default). */
  unset: string;
}

export const MODE_BRAKES: readonly ModeBrake[] = [
  { mode: 'repeatMode', brake: 'maxRepeat', modeFlag: '--repeat-mode', brakeFlag: '--max-repeat', unset: MODE_DEFAULTS.repeatMode },
  { mode: 'repeatAction', brake: 'maxRepeat', modeFlag: '--repeat-action', brakeFlag: '--max-repeat', unset: MODE_DEFAULTS.repeatAction },
  { mode: 'sameErrorMode', brake: 'maxSameError', modeFlag: '--same-error-mode', brakeFlag: '--max-same-error', unset: MODE_DEFAULTS.sameErrorMode },
  { mode: 'budgetMode', brake: 'maxCostPico', modeFlag: '--budget-mode', brakeFlag: '--max-cost', unset: MODE_DEFAULTS.budgetMode },
];

/** A mode as a list of brakes names it (`--try` syntax, a report's settings: `repeat-mode=total`): its flag and its brake's without `--`, and its value when left out. */
export function modePart(mode: ModeBrake['mode']): { name: string; brake: string; unset: string } {
  const found = MODE_BRAKES.find((entry) => entry.mode === mode)!;
  return { name: found.modeFlag.slice(2), brake: found.brakeFlag.slice(2), unset: found.unset };
}
