/**
 * A sweep over the real mini-swe-agent runs gives, per configuration, exactly the completions, spend and
 * false stops that replaying each setting alone gives; grids are read by the flags' own parsers.
 */
import { describe, expect, it } from 'vitest';
import { NO_BRAKES } from '../../src/brakes/config.js';
import { loadTraceFiles } from '../../src/import/index.js';
import { collectInputs } from '../../src/io/collectInputs.js';
import { populationMetrics } from '../../src/metrics/population.js';
import { gridConfigurations, parseGrid, checkGridSize } from '../../src/population/grid.js';
import { runFigures } from '../../src/population/run.js';
import { SweepPopulation, sweepMetrics } from '../../src/population/sweep.js';
import { loadPriceTable } from '../../src/pricing/index.js';
import { replayTrace } from '../../src/replay/replay.js';
import { whatIf } from '../../src/replay/whatif.js';
import { collectAsync, userErrorOf } from '../helpers.js';

const mini = await collectAsync(loadTraceFiles(collectInputs(['../shared/traces/mini-swe-agent'])));
const prices = loadPriceTable({ pricesFile: 'test/fixtures/prices/deepseek-recorded.json' });

describe('sweep over recorded runs', () => {
  const axes = parseGrid(['max-steps=5,10,20,40,80', 'max-repeat=2,3,5']);
  const configurations = gridConfigurations(axes, { brakeFlags: { repeatMode: 'total' }, contextFlags: {} });

  it('equals replaying each setting alone (max-steps × max-repeat, total)', () => {
    expect(configurations.map((c) => c.settings).slice(0, 4)).toEqual(['max-steps=5,max-repeat=2', 'max-steps=5,max-repeat=3', 'max-steps=5,max-repeat=5', 'max-steps=10,max-repeat=2']);
    const swept = sweepMetrics(new SweepPopulation(mini, []), configurations.map((c) => c.config), prices);
    const alone = whatIf(mini, configurations.map((c) => ({ name: c.settings, brakes: c.config.brakes })), { strategy: { kind: 'full' }, prices });
    configurations.forEach((c, i) => {
      const pairs = mini.map((trace) => ({
        run: runFigures(replayTrace(trace, { brakes: c.config.brakes, strategy: c.config.strategy, prices })),
        baseline: runFigures(replayTrace(trace, { brakes: NO_BRAKES, strategy: c.config.strategy, prices })),
      }));
      expect(swept[i]).toEqual(populationMetrics(pairs));
      // whatIf (baseline: the recorded limits, which the mini-swe-agent runs do not reach) agrees on completions, spend and false stops.
      const total = alone.totals[i]!;
      expect([swept[i]!.completed, swept[i]!.falseStops, swept[i]!.stopReasons]).toEqual([total.completed, total.falseStops, total.stopReasons]);
      expect(BigInt(Math.round(swept[i]!.costUsd * 1e12))).toBe(total.costPico);
    });
    // The grid matters: the tightest cap stops runs the loosest lets complete.
    expect(swept[0]!.falseStops).toBeGreaterThan(swept.at(-1)!.falseStops);
  });

  it('refuses bad grids naming the key', () => {
    expect(userErrorOf(() => parseGrid(['max-stepz=1'])).issues[0]!.field).toBe('--grid max-stepz');
    expect(userErrorOf(() => parseGrid(['max-steps='])).issues[0]!.field).toBe('--grid max-steps');
    expect(userErrorOf(() => parseGrid(['max-steps=3,,4'])).issues[0]!.field).toBe('--grid max-steps');
    const refused = userErrorOf(() => parseGrid(['max-steps=3,-1']));
    expect([refused.issues[0]!.field, refused.issues[0]!.message]).toEqual(['--grid max-steps', "'-1' is not a whole number greater than 0"]);
    expect(userErrorOf(() => parseGrid(['repeat-mode=total,sometimes'])).issues[0]!.field).toBe('--grid repeat-mode');
    expect(userErrorOf(() => parseGrid(['preset=reference,nonsense'])).issues[0]!.field).toBe('--grid preset');
    const big = parseGrid(['max-steps=' + Array.from({ length: 1001 }, (_, i) => i + 1).join(','), 'max-repeat=' + Array.from({ length: 1000 }, (_, i) => i + 1).join(',')]);
    expect(userErrorOf(() => checkGridSize(big, false)).issues[0]!.field).toBe('--grid max-steps × max-repeat');
    expect(checkGridSize(big, true)).toBe(1_001_000);
  });
});
