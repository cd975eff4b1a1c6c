/**
 * A brake mode (`--repeat-mode`, `--repeat-action`, `--same-error-mode`, `--budget-mode`), fixed or a grid
 * axis, that no configuration of the grid gives its brake: it would do nothing, so it is refused before
 * any work, as replay refuses a mode without its brake (src/cli/actions/flagChecks.ts). A scenario file's
 * own brake counts: the configurations carry each file's own (GridConfiguration perScenario: scenarioBase.ts).
 */
import type { BrakeConfig } from '../brakes/config.js';
import type { BrakeFlags } from '../flags/settingsFlags.js';
import { MODE_BRAKES } from '../flags/modeBrakes.js';
import { UserError } from '../errors.js';
import type { FixedSettings, GridAxis, GridConfiguration } from './grid.js';

/** Each mode: its flag key, the field of BrakeFlags it sets, the brake it needs (flag and config field): flags/modeBrakes.ts's table. */
const MODES: readonly { mode: string; flag: keyof BrakeFlags; brake: string; field: keyof BrakeConfig }[] = MODE_BRAKES.map((entry) => ({
  mode: entry.modeFlag.slice(2),
  flag: entry.mode,
  brake: entry.brakeFlag.slice(2),
  field: entry.brake,
}));

export function refuseModesWithoutBrakes(axes: readonly GridAxis[], fixed: FixedSettings, configurations: readonly GridConfiguration[]): void {
  for (const { mode, flag, brake, field } of MODES) {
    const inGrid = axes.some((axis) => axis.key === mode);
    if (!inGrid && fixed.brakeFlags[flag] === undefined) continue;
    // A per-agent cost limit (sweep --tree) is a budget the budget mode applies to as well (src/tree/budget.ts).
    if (configurations.some((c) => c.config.brakes[field] !== undefined || (field === 'maxCostPico' && c.config.subagent?.maxCostPico !== undefined))) continue;
    // A scenario file's own brake (sweep, calibrate: its runs take it under the grid's, scenarioBase.ts).
    if (configurations.some((c) => c.config.perScenario?.some((own) => own?.brakes[field] !== undefined))) continue;
    const where = inGrid ? `--grid ${mode}` : `--${mode}`;
    throw new UserError({
      file: '<command line>',
      field: where,
      code: 'flag_without_effect',
      message: `has no effect without --${brake}: no configuration has it`,
      hint: axes.length > 0 ? `add --${brake} N or --grid ${brake}=N,..., or drop ${where}` : `add --${brake} N, or drop ${where}`,
    });
  }
}
