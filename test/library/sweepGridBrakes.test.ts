/**
 * sweepCompiled's grid: its base brakes and each axis value's held to the rules replayTrace holds brakes to
 * (options/rules.ts brakeIssues, the one function), so a value no replay takes is refused naming its axis and
 * value instead of being swept (`maxSteps: -5` as 0 steps, `2.5` as 3, `maxCostPico: 0.5`, a misspelt key ignored).
 */
import { describe, expect, it } from 'vitest';
import { NO_BRAKES } from '../../src/brakes/config.js';
import { FULL_HISTORY } from '../../src/context/strategy.js';
import { compileTrace } from '../../src/fast/compile.js';
import type { SweepGrid } from '../../src/fast/sweep.js';
import { sweepCompiled } from '../../src/index.js';
import { flattenPrices } from '../../src/kernel/prices.js';
import { replayTrace } from '../../src/replay/replay.js';
import { distinctSteps, MINI, MINI_TABLE, trace, userErrorOf } from '../helpers.js';

const run = trace(distinctSteps(6), { model: 'mini' });
const traces = [{ compiled: compileTrace(run), prices: flattenPrices(MINI), cache: 'off' as const }];
const grid = (values: object[]): SweepGrid => ({ brakes: NO_BRAKES, strategy: FULL_HISTORY, axes: [{ name: 'steps', values: values as never }] });

describe('sweepCompiled refuses grid brakes replayTrace refuses', () => {
  it.each([
    [{ maxSteps: -5 }, 'maxSteps'],
    [{ maxSteps: 2.5 }, 'maxSteps'],
    [{ maxCostPico: 0.5 }, 'maxCostPico'],
    [{ maxStep: 3 }, 'maxStep'],
  ])('%o: named by axis and value', (brakes, key) => {
    const error = userErrorOf(() => sweepCompiled(traces, grid([{ brakes: { maxSteps: 3 } }, { brakes }])));
    expect(error.issues.map((issue) => [issue.file, issue.field])).toEqual([['<sweepCompiled arguments>', `grid.axes[0].values[1].brakes.${key}`]]);
    expect(error.issues[0]!.message).toMatch(/^axis "steps", value 1: /);
    // The same value refused by replayTrace, by the same rule.
    const replayed = userErrorOf(() => replayTrace(run, { brakes: brakes as never, strategy: FULL_HISTORY, prices: MINI_TABLE })).issues[0]!;
    expect(error.issues[0]!.code).toBe(replayed.code);
  });

  it('the base brakes too; a good grid sweeps as before', () => {
    expect(userErrorOf(() => sweepCompiled(traces, { ...grid([]), brakes: { ...NO_BRAKES, maxSteps: -1 } })).issues[0]!.field).toBe('grid.brakes.maxSteps');
    const result = sweepCompiled(traces, grid([{ brakes: { maxSteps: 2 } }, { brakes: { maxSteps: 4 } }]));
    expect(result.cells).toHaveLength(2);
  });
});
