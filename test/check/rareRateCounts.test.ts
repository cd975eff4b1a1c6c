/**
 * The false-stop rate's denominator in a rare-rate count (rareRates.ts) is the runs that complete without
 * brakes, as the check's tally counted them (ScenarioCheck.baselineCompleted): read there, not counted again
 * from the runs for each figure. On six recorded runs counted by hand: 4 complete without brakes, 2 of them
 * stopped by max-steps 5 (false stops).
 */
import { describe, expect, it } from 'vitest';
import type { CheckInput } from '../../src/check/inputs.js';
import { figuresOf, type BaselineScenario } from '../../src/check/baselineFile.js';
import { figureRows } from '../../src/check/driftFigures.js';
import { rateRuns } from '../../src/check/rareRates.js';
import { checkScenario } from '../../src/check/run.js';
import { parseAnyScenario } from '../../src/scenario/load.js';
import { scenarioSettings } from '../../src/scenario/settings.js';
import { distinctSteps, MINI_TABLE, trace } from '../helpers.js';

const TEXT = ['scenario: loopcost.scenario/1', 'name: hand', 'traces: [runs.jsonl]', 'brakes: { max-steps: 5 }'].join('\n') + '\n';
const recorded = (steps: number, outcome: 'completed' | 'error') => trace(distinctSteps(steps), { outcome, origin: 'recorded' });
/** Complete without brakes: 3, 3 (run through), 8, 9 (false stops at max-steps 5). Do not: 8 (caught), 2 (an error). */
const RUNS = [recorded(3, 'completed'), recorded(3, 'completed'), recorded(8, 'completed'), recorded(9, 'completed'), recorded(8, 'error'), recorded(2, 'error')];
const HAND = { baselineCompleted: 4, falseStops: 2 };

function check() {
  const scenario = parseAnyScenario(TEXT, 'hand.yaml');
  const settings = scenarioSettings(scenario, {});
  const input = { scenario, settings, traceStrategy: settings.strategy, traceFiles: [] } as unknown as CheckInput;
  return checkScenario(input, RUNS, MINI_TABLE);
}

/** A baseline of the same runs whose stored false-stop rate was `falseStopRate`. */
function storedAt(checked: ReturnType<typeof check>, falseStopRate: number): BaselineScenario {
  return { source: checked.source, figures: { ...figuresOf(checked.metrics), falseStopRate } } as unknown as BaselineScenario;
}

describe("a rare rate's runs, counted by the tally", () => {
  it('the check carries the tally count of runs that complete without brakes: the hand count', () => {
    const checked = check();
    expect(checked.baselineCompleted).toBe(HAND.baselineCompleted);
    expect(checked.metrics.falseStops).toBe(HAND.falseStops);
    expect(checked.metrics.falseStopRate).toBe(HAND.falseStops / HAND.baselineCompleted);
  });

  it("the false-stop rate's runs against a stored rate: round(stored rate × the hand count) → the false stops now", () => {
    const checked = check();
    const row = figureRows(checked, storedAt(checked, 0.25), { tolerance: 0.05 }).find((r) => r.figure === 'falseStopRate')!;
    expect(row.rateRuns).toEqual({ was: Math.round(0.25 * HAND.baselineCompleted), is: HAND.falseStops });
  });

  it('with the count given, a rate now of 0 still has its runs (no longer told back from the rate alone)', () => {
    const now = { ...check().metrics, falseStops: 0, falseStopRate: 0 };
    const figures = { ...figuresOf(now), falseStopRate: 0.75 };
    expect(rateRuns('falseStopRate', { now, against: { figures }, baselineCompleted: 4 })).toEqual({ was: 3, is: 0 });
    expect(rateRuns('falseStopRate', { now, against: { figures } })).toBeUndefined();
  });
});
