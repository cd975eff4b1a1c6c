/**
 * Each brake mode and the brake it modifies, written once: a mode means something only beside its brake
 * (`--repeat-mode` without `--max-repeat` changes nothing), so the command line (cli/actions/flagChecks.ts)
 * and a trace's recorded settings (trace/recordedSettings.ts) refuse a mode given alone by this table. Pure.
 */
import { NO_BRAKES, type BrakeConfig } from '../brakes/config.js';

export interface ModeBrake {
  mode: 'repeatMode' | 'repeatAction' | 'sameErrorMode' | 'budgetMode';
  brake: keyof BrakeConfig;
  modeFlag: string;
  brakeFlag: string;
  /** What the mode is when left out (the CLI's default). */
  unset: string;
}

export const MODE_BRAKES: readonly ModeBrake[] = [
  { mode: 'repeatMode', brake: 'maxRepeat', modeFlag: '--repeat-mode', brakeFlag: '--max-repeat', unset: NO_BRAKES.repeatMode },
  { mode: 'repeatAction', brake: 'maxRepeat', modeFlag: '--repeat-action', brakeFlag: '--max-repeat', unset: 'stop' },
  { mode: 'sameErrorMode', brake: 'maxSameError', modeFlag: '--same-error-mode', brakeFlag: '--max-same-error', unset: NO_BRAKES.sameErrorMode },
  { mode: 'budgetMode', brake: 'maxCostPico', modeFlag: '--budget-mode', brakeFlag: '--max-cost', unset: NO_BRAKES.budgetMode },
];

/** A mode as a list of brakes names it (`--try` syntax, a report's settings: `repeat-mode=total`): its flag and its brake's without `--`, and its value when left out. */
export function modePart(mode: ModeBrake['mode']): { name: string; brake: string; unset: string } {
  const found = MODE_BRAKES.find((entry) => entry.mode === mode)!;
  return { name: found.modeFlag.slice(2), brake: found.brakeFlag.slice(2), unset: found.unset };
}
