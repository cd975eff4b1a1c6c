/**
 * A sweep's (a calibration's) settings line names what every configuration shares: the brakes no grid
 * axis gives, and a brake mode set (not its default) whose brake a grid axis gives — brakeParts writes a
 * mode only beside its brake, so `--repeat-mode consecutive --grid max-repeat=3,5` said nothing of it,
 * the same line as `--repeat-mode total`, though the figures differ. A value the grid gives is not named
 * as if fixed (`--max-repeat 3 --grid repeat-mode=…` said `repeat-mode=total`).
 */
import { describe, expect, it } from 'vitest';
import { brakesFromFlags, strategyFromFlags, type BrakeFlags } from '../../src/flags/settingsFlags.js';
import { reportSettings } from '../../src/report/settings.js';
import { cli } from '../cli/run.js';

/** Each key an axis of two values (`max-steps=grid (1, 2)`), but `preset` and the modes: theirs are names. */
const AXIS_VALUES: Record<string, string[]> = { preset: ['reference', 'crewai'], 'repeat-mode': ['total', 'cycle'] };
const axesOf = (gridKeys: string[]) => gridKeys.map((key) => ({ key, values: AXIS_VALUES[key] ?? ['1', '2'] }));
/** What every configuration shares of the brakes: the line's brakes after its axes. */
const brakesLine = (flags: BrakeFlags, gridKeys: string[]) => {
  const line = reportSettings({ brakes: brakesFromFlags(flags), strategy: strategyFromFlags({}), grid: axesOf(gridKeys) }).brakes;
  const axes = axesOf(gridKeys).map((axis) => `${axis.key}=grid (${axis.values.join(', ')})`).join(',');
  expect(line.startsWith(axes), line).toBe(true);
  return line.slice(axes.length).replace(/^,/, '') || (axes === '' ? line : 'none');
};

describe("the settings line under a grid: every brake mode the grid's brakes run under", () => {
  it('a mode beside its brake on the grid: repeat-mode, repeat-action, same-error-mode, budget-mode; a preset axis too', () => {
    expect(brakesLine({ repeatMode: 'consecutive' }, ['max-steps', 'max-repeat'])).toBe('repeat-mode=consecutive');
    expect(brakesLine({ repeatMode: 'total' }, ['max-repeat'])).toBe('none');
    expect(brakesLine({ repeatAction: 'skip,max-skips=2' }, ['max-repeat'])).toBe('repeat-action=skip,max-skips=2');
    expect(brakesLine({ sameErrorMode: 'total' }, ['max-same-error'])).toBe('same-error-mode=total');
    expect(brakesLine({ budgetMode: 'predict', maxOutputTokens: '1000' }, ['max-cost'])).toBe('max-output-tokens=1000,budget-mode=predict');
    expect(brakesLine({ maxSteps: '20', repeatMode: 'cycle' }, ['preset'])).toBe('max-steps=20,repeat-mode=cycle');
  });

  it("a setting the grid gives is not named as the line's: a mode axis beside a fixed brake, a fixed preset's brake the grid varies", () => {
    expect(brakesLine({ maxRepeat: '3' }, ['repeat-mode'])).toBe('max-repeat=3');
    expect(brakesLine({ preset: 'reference' }, ['max-repeat'])).toBe('max-steps=12,max-cost=0.5,budget-mode=check,timeout=120,repeat-mode=total');
  });

  it('without a grid, as before', () => {
    expect(brakesLine({ repeatMode: 'consecutive' }, [])).toBe('none');
    expect(brakesLine({ maxRepeat: '3', repeatMode: 'consecutive' }, [])).toBe('max-repeat=3,repeat-mode=consecutive');
  });
});

describe('sweep and calibrate text: the settings line tells --repeat-mode consecutive from total under a max-repeat axis', () => {
  const settings = (text: string) => text.replace(/,\n {2,}/g, ',').replace(/\n {2,}/g, ' ').split('\n').find((line) => line.startsWith('settings: '))!;

  it('sweep (the reviewer\'s command) and calibrate', async () => {
    const scenario = 'scenarios/springfield-weather.yaml';
    for (const command of ['sweep', 'calibrate']) {
      const lines: string[] = [];
      for (const mode of ['total', 'consecutive']) {
        const r = await cli(command, scenario, '--preset', 'none', '--repeat-mode', mode, '--grid', 'max-steps=15', '--grid', 'max-repeat=3,5');
        expect(r.code, r.stderr).toBe(0);
        lines.push(settings(r.stdout));
      }
      expect(lines[0], command).toMatch(/^settings: brakes max-steps=15,max-repeat=grid \(3, 5\) · /);
      expect(lines[1], command).toMatch(/^settings: brakes max-steps=15,max-repeat=grid \(3, 5\),repeat-mode=consecutive · /);
    }
  });
});
