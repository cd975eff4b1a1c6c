import { describe, expect, it } from 'vitest';
import { NO_BRAKES } from '../../src/brakes/config.js';
import { UserError } from '../../src/errors.js';
import { gridConfigurations, parseGrid, type FixedSettings, type GridConfiguration } from '../../src/population/grid.js';
import { refuseModesWithoutBrakes } from '../../src/population/gridModes.js';

/** The issue refuseModesWithoutBrakes throws for `grid` and `fixed` (with `change` made to the configurations), or undefined. */
function refusal(grid: string[], brakeFlags: FixedSettings['brakeFlags'], change = (c: GridConfiguration[]) => c): unknown {
  const axes = parseGrid(grid);
  const fixed: FixedSettings = { brakeFlags, contextFlags: {} };
  try {
    refuseModesWithoutBrakes(axes, fixed, change(gridConfigurations(axes, fixed)));
    return undefined;
  } catch (error) {
    if (!(error instanceof UserError)) throw error;
    return error.issues[0];
  }
}

/** The configurations with a scenario file's own brakes (perScenario) set to `own` under each. */
const withOwn = (own: Partial<typeof NO_BRAKES>) => (configurations: GridConfiguration[]) =>
  configurations.map((c) => ({ ...c, config: { ...c.config, perScenario: [undefined, { brakes: { ...NO_BRAKES, ...own }, strategy: c.config.strategy }] } }));

describe('refuseModesWithoutBrakes: a mode no configuration gives its brake (the rule of flags/modesWithoutBrake.ts)', () => {
  it('a fixed mode: refused on the flag, the hint naming the grid form too', () => {
    expect(refusal(['max-steps=5,10'], { repeatMode: 'total' })).toMatchObject({
      field: '--repeat-mode',
      code: 'flag_without_effect',
      message: 'has no effect without --max-repeat: no configuration has it',
      hint: 'add --max-repeat N or --grid max-repeat=N,..., or drop --repeat-mode',
    });
  });

  it('a mode as a grid axis: refused on the axis; with no axes at all, the hint names only the flag', () => {
    expect(refusal(['same-error-mode=total,consecutive'], {})).toMatchObject({ field: '--grid same-error-mode', message: 'has no effect without --max-same-error: no configuration has it' });
    expect(refusal([], { repeatAction: 'skip' })).toMatchObject({ field: '--repeat-action', hint: 'add --max-repeat N, or drop --repeat-action' });
  });

  it('the first mode of the table is named (repeat-mode before budget-mode)', () => {
    expect(refusal([], { budgetMode: 'predict', repeatMode: 'total' })).toMatchObject({ field: '--repeat-mode' });
  });

  it('accepted when one configuration has the brake, fixed or by the grid', () => {
    expect(refusal(['max-repeat=2,3'], { repeatMode: 'total' })).toBeUndefined();
    expect(refusal(['repeat-mode=total'], { maxRepeat: '3' })).toBeUndefined();
    expect(refusal(['max-cost=0.1,0.2'], { budgetMode: 'predict' })).toBeUndefined();
  });

  it("a scenario file's own brake counts: accepted; its other brakes do not", () => {
    expect(refusal(['max-steps=5,10'], { repeatMode: 'total' }, withOwn({ maxRepeat: 3 }))).toBeUndefined();
    expect(refusal(['max-steps=5,10'], { repeatMode: 'total' }, withOwn({ maxSameError: 3 }))).toMatchObject({ field: '--repeat-mode' });
  });

  it('a per-agent cost limit (sweep --tree) gives the budget mode an effect, and no other mode', () => {
    const subagent = (c: GridConfiguration[]) => c.map((one) => ({ ...one, config: { ...one.config, subagent: { maxCostPico: 100_000_000_000 } } }));
    expect(refusal([], { budgetMode: 'predict' }, subagent)).toBeUndefined();
    expect(refusal([], { sameErrorMode: 'total' }, subagent)).toMatchObject({ field: '--same-error-mode' });
  });
});
