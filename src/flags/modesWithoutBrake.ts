/**
 * The rule, written once, that a brake mode given without its brake is refused (it would change nothing):
 * the command line's (cli/actions/flagChecks.ts: `--repeat-mode` without `--max-repeat`), a grid's
 * (population/gridModes.ts: no configuration of sweep or calibrate has the brake) and a scenario
 * file's `brakes:` (scenario/fileBrakeRules.ts: `repeat-mode:` without `max-repeat:`), by the table of
 * modes and brakes (modeBrakes.ts). And the words `recorded` is refused with where one configuration holds
 * for every run. Pure: no node:*.
 */
import type { BrakeConfig } from '../brakes/config.js';
import { MODE_BRAKES, type ModeBrake } from './modeBrakes.js';

/** Which modes were given (a mode flag's value, a file's key): only whether each is set counts. */
export type GivenModes = Partial<Record<ModeBrake['mode'], unknown>>;

/**
 * The modes given in `given` whose brake none of `applied` (the brakes the runs take) sets. `budgetBinds`: a
 * cost limit other than `maxCostPico` applies (a per-agent budget under --tree, a run's own recorded limit
 * under `--preset recorded`), which the budget mode applies to as well.
 */
export function modesWithoutBrake(given: GivenModes, applied: readonly BrakeConfig[], budgetBinds = false): ModeBrake[] {
  const none = (brake: keyof BrakeConfig) => applied.every((brakes) => brakes[brake] === undefined);
  return MODE_BRAKES.filter(({ mode, brake }) => given[mode] !== undefined && none(brake) && !(mode === 'budgetMode' && budgetBinds));
}

/** `recorded` (each run's own limits) where every run takes one set of brakes: a sweep's grid, a projection, a scenario file's `brakes:`. */
export const RECORDED_NOT_ONE_CONFIGURATION = "'recorded' (each run's own limits) is not one configuration shared by every run";
