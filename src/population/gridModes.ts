/**
 * A brake mode (`--repeat-mode`, `--repeat-action`, `--same-error-mode`, `--budget-mode`), fixed or a grid
 * axis, that no configuration of the grid gives its brake: it would do nothing, so it is refused before
 * any work, by the rule replay and a scenario file's `brakes:` are held to (flags/modesWithoutBrake.ts).
 * A scenario file's own brake counts: the configurations carry each file's own (GridConfiguration
 * perScenario: scenarioBase.ts).
 */
import type { BrakeConfig } from '../brakes/config.js';
import { MODE_BRAKES, modePart } from '../flags/modeBrakes.js';
import { modesWithoutBrake, type GivenModes } from '../flags/modesWithoutBrake.js';
import { UserError } from '../errors.js';
import type { FixedSettings, GridAxis, GridConfiguration } from './grid.js';

export function refuseModesWithoutBrakes(axes: readonly GridAxis[], fixed: FixedSettings, configurations: readonly GridConfiguration[]): void {
  const [first] = modesWithoutBrake(givenModes(axes, fixed), brakesTaken(configurations), subagentBudget(configurations));
  if (first === undefined) return;
  const { name: mode, brake } = modePart(first.mode);
  const where = axes.some((axis) => axis.key === mode) ? `--grid ${mode}` : `--${mode}`;
  throw new UserError({
    file: '<command line>',
    field: where,
    code: 'flag_without_effect',
    message: `has no effect without --${brake}: no configuration has it`,
    hint: axes.length > 0 ? `add --${brake} N or --grid ${brake}=N,..., or drop ${where}` : `add --${brake} N, or drop ${where}`,
  });
}

/** The modes given: as a flag every configuration shares, or as a grid axis. */
function givenModes(axes: readonly GridAxis[], fixed: FixedSettings): GivenModes {
  const given: GivenModes = { ...fixed.brakeFlags };
  for (const { mode } of MODE_BRAKES) if (axes.some((axis) => axis.key === modePart(mode).name)) given[mode] = true;
  return given;
}

/** The brakes the runs take, each once: every configuration's, and a scenario file's own under it (configurations share BrakeConfig objects). */
function brakesTaken(configurations: readonly GridConfiguration[]): BrakeConfig[] {
  const taken = new Set<BrakeConfig>();
  for (const { config } of configurations) {
    taken.add(config.brakes);
    for (const own of config.perScenario ?? []) if (own !== undefined) taken.add(own.brakes);
  }
  return [...taken];
}

/** A per-agent cost limit (sweep --tree): a budget the budget mode applies to as well (src/tree/budget.ts). */
function subagentBudget(configurations: readonly GridConfiguration[]): boolean {
  return configurations.some((c) => c.config.subagent?.maxCostPico !== undefined);
}
