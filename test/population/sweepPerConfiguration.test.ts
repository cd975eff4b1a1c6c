/**
 * What a sweep spends per configuration (10^5 and more with --force): settings objects made once per
 * distinct setting and shared by the configurations and cells that have it, keys made once per object,
 * no typed array per tally before its first run, one share's tally not copied to be "merged", the table's
 * frontier looked up in a set — each with the figures and report it gave before.
 */
import { describe, expect, it } from 'vitest';
import { NO_BRAKES } from '../../src/brakes/config.js';
import { FULL_HISTORY } from '../../src/context/strategy.js';
import { SettingIds, sweepCells, type SweepGrid } from '../../src/fast/sweepGrid.js';
import { sweepPlan } from '../../src/fast/sweepPlan.js';
import { newTally, TallyBuilder } from '../../src/metrics/population.js';
import { configurationOf, gridConfigurations, parseGrid } from '../../src/population/grid.js';
import { mergeSweepTallies, type SweepTally } from '../../src/population/sweep.js';
import { renderSweepTable, type SweepReport, type SweepRow } from '../../src/report/sweepReport.js';
import { pricesRecord } from '../../src/report/pricedModels.js';

const fixed = { brakeFlags: { repeatMode: 'total' }, contextFlags: {} };

describe('a sweep per configuration', () => {
  it('configurations with the same brake (context) values share one brakes (strategy) object, equal to reading each alone', () => {
    const axes = parseGrid(['max-steps=5,10', 'context=full,window:4', 'max-cost=0.5,1']);
    const configurations = gridConfigurations(axes, fixed);
    expect(configurations).toHaveLength(8);
    for (const c of configurations) expect(c).toEqual(configurationOf(c.values, fixed));
    // max-steps=5,context=full,max-cost=0.5 and max-steps=5,context=window:4,max-cost=0.5: the same brakes, one object.
    expect(configurations[0]!.config.brakes).toBe(configurations[2]!.config.brakes);
    expect(configurations[0]!.config.brakes).not.toBe(configurations[1]!.config.brakes);
    expect(configurations[0]!.config.strategy).toBe(configurations[1]!.config.strategy);
    expect(configurations[0]!.config.strategy).toBe(configurations[5]!.config.strategy);
    expect(configurations[0]!.config.strategy).not.toBe(configurations[2]!.config.strategy);
    expect(new Set(configurations.map((c) => c.config.brakes)).size).toBe(4);
  });

  it('a cell takes the patch itself when it sets every key of the base, else base and patch spread', () => {
    const whole = { ...NO_BRAKES, maxSteps: 5 };
    const partial = { maxRepeat: 3 };
    const grid: SweepGrid = { brakes: NO_BRAKES, strategy: FULL_HISTORY, axes: [{ name: 'configuration', values: [{ brakes: whole }, { brakes: partial }, {}] }] };
    const cells = sweepCells(grid);
    expect(cells.map((cell) => cell.brakes)).toEqual([{ ...NO_BRAKES, ...whole }, { ...NO_BRAKES, ...partial }, { ...NO_BRAKES }]);
    expect(cells.map((cell) => cell.at)).toEqual([[0], [1], [2]]);
    expect(cells[0]!.brakes).toBe(whole);
    expect(cells[2]!.brakes).toBe(NO_BRAKES);
    expect(cells[0]!.strategy).toBe(FULL_HISTORY);
  });

  it('a plan makes each key once per settings object, and groups cells as equal keys say', () => {
    let made = 0;
    const ids = new SettingIds((value: { n: number }) => (made++, `${value.n}`));
    const a = { n: 1 };
    expect([ids.id(a), ids.id(a), ids.id({ n: 2 }), ids.id({ n: 1 }), ids.id(a)]).toEqual([0, 0, 1, 0, 0]);
    expect(made).toBe(3);
    // Cells sharing brakes objects (or holding equal ones) fall into the same cap groups and passes.
    const b5 = { ...NO_BRAKES, maxSteps: 5, maxRepeat: 2 };
    const b9 = { ...NO_BRAKES, maxSteps: 9, maxRepeat: 2 };
    const window = { kind: 'window' as const, windowSteps: 4 };
    const values = [b5, b9, { ...b5 }].flatMap((brakes) => [{ brakes, strategy: FULL_HISTORY }, { brakes, strategy: window }]);
    const plan = sweepPlan({ brakes: NO_BRAKES, strategy: FULL_HISTORY, axes: [{ name: 'configuration', values }] });
    expect(plan.passes.map((pass) => pass.cells)).toEqual([[0, 2, 4], [1, 3, 5]]);
    expect(plan.passes.map((pass) => pass.capGroups.map((g) => [...g.cells]))).toEqual([[[0, 4, 2]], [[1, 5, 3]]]);
    // Window cells map to the full-history cell of equal brakes (b5's: the last such cell, 4).
    expect([...plan.sharing.cells]).toEqual([-1, 4, -1, 2, -1, 4]);
  });

  it('a tally builder makes no array buffer before its first run', () => {
    const before = process.memoryUsage().arrayBuffers;
    const builders = Array.from({ length: 20_000 }, () => new TallyBuilder());
    // Before: a Float64Array of stop counts (~150 bytes) and an empty one per builder, ~3 MB here.
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(500_000);
    builders[0]!.addCoded({ stop: 0, steps: 1, costPico: 7, inputTokens: 1, cachedInputTokens: 0, outputTokens: 1, overshootPico: 0 }, { stop: 0, steps: 1, costPico: 7 });
    expect(builders[0]!.finish()).toMatchObject({ runs: 1, totalPico: 7n, completed: 1 });
  });

  it("one share's tally is the merged tally itself", () => {
    const tally: SweepTally = { population: newTally(), strategy: {} };
    expect(mergeSweepTallies([tally])).toBe(tally);
  });

  it("the table looks the frontier up once, not once per configuration", () => {
    const row = (k: number): SweepRow => ({
      settings: `max-steps=${k + 1}`, flags: `--max-steps ${k + 1}`, brakes: `max-steps=${k + 1}`, context: 'full', cache: 'off',
      runs: 1, completed: 1, completionRate: 1, costUsd: 0.5, costPerRunUsd: { mean: 0.5, p50: 0.5, p95: 0.5, max: 0.5 }, costPerCompletedUsd: 0.5,
      wastedUsd: 0, wastedShare: 0, falseStops: 0, falseStopRate: 0, caughtEarly: 0, savedUsd: 0, stopReasons: { completed: 1 }, tokens: { input: 1, cached: 0, output: 1 }, overshootUsd: 0, baselineCostUsd: 0.5,
    });
    const rows = [row(0), row(1), row(2)];
    let searched = 0;
    const pareto = Object.assign([rows[1]!.settings], { includes: (settings: string) => (searched++, settings === rows[1]!.settings) });
    const report: SweepReport = {
      tool: { name: 'loopcost', version: '0' }, command: 'sweep', settings: { brakes: 'none', context: 'full', cache: 'off', latency: 'none' },
      prices: pricesRecord({ name: 'test', version: '0', hash: '0', releasedOn: '2026-01-01' }, { models: [] }), grid: [{ key: 'max-steps', values: ['1', '2', '3'] }],
      inputs: { recordedRuns: 1, scenarios: [] } as unknown as SweepReport['inputs'], notes: [], warnings: [], configurations: rows, pareto,
    };
    const text = renderSweepTable(report, { width: 200, wide: false } as Parameters<typeof renderSweepTable>[1]);
    expect(text.split('\n').filter((line) => /^\*\d/.test(line))).toEqual([expect.stringMatching(/^\*2 /)]);
    expect(searched).toBe(0);
  });
});
