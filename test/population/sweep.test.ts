/**
 * A sweep over the real mini-swe-agent runs gives, per configuration, exactly the completions, spend and
 * false stops that replaying each setting alone gives; grids are read by the flags' own parsers.
 */
import { describe, expect, it } from 'vitest';
import { NO_BRAKES } from '../../src/brakes/config.js';
import { loadTraceFiles } from '../../src/import/index.js';
import { collectInputs } from '../../src/io/collectInputs.js';
import { contextTokenCurves, MAX_CURVE_STEPS } from '../../src/population/contextTokens.js';
import { configurationOf, gridConfigurations, parseGrid, checkGridSize } from '../../src/population/grid.js';
import { runFigures } from '../../src/population/run.js';
import { SweepPopulation, sweepMetrics } from '../../src/population/sweep.js';
import { loadPriceTable } from '../../src/pricing/index.js';
import { replayTrace } from '../../src/replay/replay.js';
import { whatIf } from '../../src/replay/whatif.js';
import { collectAsync, userErrorOf } from '../helpers.js';
import { sweptRowOf } from './sweptRow.js';

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
      expect(swept[i]).toEqual(sweptRowOf(pairs));
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
    expect(userErrorOf(() => checkGridSize(big, false)).issues[0]!.message).toBe('makes 1,001,000 configurations, more than 100,000 (each is a row of the report and ~4 KB of memory: this grid ~3.8 GB)');
    const steps = (n: number) => 'max-steps=' + Array.from({ length: n }, (_, i) => i + 1).join(',');
    expect(checkGridSize(parseGrid([steps(1000), 'max-repeat=' + Array.from({ length: 100 }, (_, i) => i + 1).join(',')]), false)).toBe(100_000);
    expect(userErrorOf(() => checkGridSize(parseGrid([steps(1001), 'max-repeat=' + Array.from({ length: 100 }, (_, i) => i + 1).join(',')]), false)).issues[0]!.message).toMatch(/^makes 100,100 configurations, more than 100,000 .*~391 MB\)$/);
  });
});

describe('sweep over context strategies and the skip guard', () => {
  it('gives each cell what replaying it alone gives, with summary calls, cache hits lost and skipped actions', () => {
    const fixture = mini;
    // mask:2 and mask:5 in one sweep: each has its own baseline (not the first mask's).
    const axes = parseGrid(['context=full,mask:2,mask:5,summary:trigger=6000,keep=2,tokens=400', 'repeat-action=stop,skip,max-skips=1']);
    expect(axes.map((a) => a.values)).toEqual([['full', 'mask:2', 'mask:5', 'summary:trigger=6000,keep=2,tokens=400'], ['stop', 'skip,max-skips=1']]);
    const configurations = gridConfigurations(axes, { brakeFlags: { maxRepeat: '1', repeatMode: 'total' }, contextFlags: { cache: 'on' } });
    const swept = sweepMetrics(new SweepPopulation(fixture, []), configurations.map((c) => c.config), prices);
    configurations.forEach((c, i) => {
      const runs = fixture.map((trace) => replayTrace(trace, { brakes: c.config.brakes, strategy: c.config.strategy, prices }));
      const pairs = fixture.map((trace, t) => ({ run: runFigures(runs[t]!), baseline: runFigures(replayTrace(trace, { brakes: NO_BRAKES, strategy: c.config.strategy, prices })) }));
      const sum = (pick: (r: (typeof runs)[number]) => number | undefined) => runs.reduce((n, r) => n + (pick(r) ?? 0), 0);
      const expected = {
        ...sweptRowOf(pairs),
        ...(sum((r) => r.summaryCalls) > 0 ? { summaryCalls: sum((r) => r.summaryCalls), summaryCostUsd: sum((r) => r.summaryCostPico) / 1e12 } : {}),
        ...(sum((r) => r.strategyCacheLostTokens) > 0 ? { strategyCacheLostTokens: sum((r) => r.strategyCacheLostTokens) } : {}),
        ...(sum((r) => r.skippedActions) > 0 ? { skippedActions: sum((r) => r.skippedActions) } : {}),
      };
      expect(swept[i], c.settings).toEqual(expected);
    });
    // The figures are there where the strategy makes them.
    expect(swept[0]!.summaryCalls ?? swept[0]!.strategyCacheLostTokens ?? swept[0]!.skippedActions).toBeUndefined();
    expect(swept[2]!.strategyCacheLostTokens).toBeGreaterThan(0);
    expect(swept[6]!.summaryCalls).toBeGreaterThan(0);
    expect(swept[1]!.skippedActions).toBeGreaterThan(0);
  });

  it("draws each strategy's cumulative prompt tokens per step: the last step is the mean run's prompt tokens with no brakes", () => {
    const strategies = ['full', 'window:3', 'mask:2', 'summary:trigger=6000,keep=2,tokens=400'].map((spec) => ({ spec, strategy: configurationOf({ context: spec }, { brakeFlags: {}, contextFlags: {} }).config.strategy }));
    const curves = contextTokenCurves(mini, strategies, prices);
    expect(curves.strategies).toEqual(strategies.map((s) => s.spec));
    expect(curves.steps.length).toBe(MAX_CURVE_STEPS);
    const last = curves.steps.at(-1)!;
    const longest = Math.max(...mini.map((trace) => replayTrace(trace, { brakes: NO_BRAKES, strategy: { kind: 'full' }, prices }).steps));
    expect(last.step).toBe(longest);
    strategies.forEach(({ strategy }, k) => {
      const mean = mini.reduce((n, trace) => n + replayTrace(trace, { brakes: NO_BRAKES, strategy, prices }).inputTokens, 0) / mini.length;
      expect(last.meanCumulativeInputTokens[k]).toBe(Math.round(mean));
    });
    // Cumulative: never falls; the window keeps fewer tokens than full history.
    for (let i = 1; i < curves.steps.length; i++) curves.strategies.forEach((_, k) => expect(curves.steps[i]!.meanCumulativeInputTokens[k]).toBeGreaterThanOrEqual(curves.steps[i - 1]!.meanCumulativeInputTokens[k]!));
    expect(last.meanCumulativeInputTokens[1]).toBeLessThan(last.meanCumulativeInputTokens[0]!);
  });
});
