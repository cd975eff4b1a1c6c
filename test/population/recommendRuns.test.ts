/**
 * The runs a sweep keeps for how sure its recommendation is (src/population/recommendRuns.ts, sweep.ts):
 * units tallied in any order, on any number of talliers (threads), merged give every configuration's runs in
 * the order of the units — each run's cost and completion, the same as one tallier adding them in order.
 */
import { describe, expect, it } from 'vitest';
import { loadTraceFiles } from '../../src/import/index.js';
import { collectInputs } from '../../src/io/collectInputs.js';
import { gridConfigurations, parseGrid } from '../../src/population/grid.js';
import { keptUnits, takeRunOutcomes } from '../../src/population/recommendRuns.js';
import { mergeSweepTallies, SweepPopulation, SweepTallier, sweepTallyMetrics, type SweepTally } from '../../src/population/sweep.js';
import { loadPriceTable } from '../../src/pricing/index.js';
import { collectAsync } from '../helpers.js';

const traces = await collectAsync(loadTraceFiles(collectInputs(['test/fixtures/mini-swe-agent'])));
const prices = loadPriceTable({ pricesFile: 'test/fixtures/prices/deepseek-recorded.json' });
const configs = gridConfigurations(parseGrid(['max-steps=3,8,40']), { brakeFlags: {}, contextFlags: {} }).map((c) => c.config);

/** Units of the traces (one trace each, `order` its place), tallied by `threads` talliers taking them in `taken` order, round robin. */
function tallied(taken: readonly number[], threads: number): SweepTally[][] {
  const talliers = Array.from({ length: threads }, () => new SweepTallier(configs, prices, new Map(), { keepRuns: true }));
  taken.forEach((t, k) => talliers[k % threads]!.unit(t).add(new SweepPopulation([traces[t]!], [])));
  return talliers.map((tallier) => tallier.finish());
}

const merged = (perThread: SweepTally[][]) => configs.map((_, c) => mergeSweepTallies(perThread.map((tallies) => tallies[c]!)));

describe('runs kept for the recommendation bootstrap', () => {
  it('merged, in the order of the units whichever tallier took which, as one tallier adding them in order', () => {
    expect(traces.length).toBeGreaterThanOrEqual(4);
    const inOrder = traces.map((_, t) => t);
    const expected = merged(tallied(inOrder, 1)).map((tally) => tally.runs);
    const reversed = [...inOrder].reverse();
    for (const threads of [1, 2, 3]) expect(merged(tallied(reversed, threads)).map((tally) => tally.runs)).toEqual(expected);
    // Each run's figures: completion and cost, one tally per configuration over the same runs.
    const costs = expected[2]!.costPico;
    expect(costs).toHaveLength(traces.length);
    expect([...costs].reduce((n, c) => n + c, 0)).toBe(Number(merged(tallied(inOrder, 1))[2]!.population.totalPico));
    expect([...expected[2]!.completed].reduce((n, c) => n + c, 0)).toBe(merged(tallied(inOrder, 1))[2]!.population.completed);
  });

  it('a copy: the costs selected in place for the quantiles leave the runs as they were; the rows carry them until taken', () => {
    const [tally] = merged(tallied([3, 1, 0, 2], 2));
    const before = Float64Array.from(tally!.runs!.costPico);
    const row = { settings: 'x', ...sweepTallyMetrics(tally!) };
    expect(tally!.runs!.costPico).toEqual(before);
    const taken = takeRunOutcomes([row]);
    expect(taken?.[0]!.costPico).toEqual(before);
    expect('runOutcomes' in row).toBe(false);
  });

  it('a rollback forgets the runs added since the mark, and the units begun since', () => {
    const tallier = new SweepTallier(configs, prices, new Map(), { keepRuns: true });
    tallier.unit(0).add(new SweepPopulation([traces[0]!], []));
    const mark = tallier.mark();
    tallier.unit(1).add(new SweepPopulation([traces[1]!], []));
    tallier.rollback(mark);
    tallier.unit(2).add(new SweepPopulation([traces[2]!], []));
    expect(tallier.finish()[0]!.kept!.units).toEqual([{ order: 0, runs: 1 }, { order: 2, runs: 1 }]);
  });

  it('units: runs added before any unit begun are one at order 0; a unit of no run is dropped', () => {
    expect(keptUnits([], 5)).toEqual([{ order: 0, runs: 5 }]);
    expect(keptUnits([{ order: 3, from: 2 }, { order: 1, from: 4 }, { order: 2, from: 4 }], 7)).toEqual([{ order: 0, runs: 2 }, { order: 3, runs: 2 }, { order: 2, runs: 3 }]);
  });
});
