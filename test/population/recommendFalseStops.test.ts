/**
 * sweep's recommendation and false stops (good runs cut short): the pick says its false stops and the
 * configuration reaching the target with fewer, and `--max-false-stops` (a share of the runs that complete with
 * no brakes: the rows' falseStopRate) bounds the pick — in its resamples too, so how sure it is speaks of the
 * same rule. On the 38 real mini-swe-agent runs: max-same-error=5,total is the cheapest at 60% (24/38, 4 of
 * 28 good runs cut short), max-same-error=3,consecutive costs 3.4% more per completed run and cuts none.
 */
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { recommendedIndex, type RankedRow } from '../../src/population/recommend.js';
import { fewerFalseStopsIndex } from '../../src/population/recommendReference.js';
import { resampleCounts, sliceChoices, type RunOutcomes } from '../../src/population/recommendBootstrap.js';
import { cli, tempDir } from '../cli/run.js';

const MINI = '../shared/traces/mini-swe-agent';
let prices = '';
const grid = () => [MINI, '--prices-override', prices, '--grid', 'max-same-error=2,3,5', '--grid', 'same-error-mode=consecutive,total', '--target-completion', '0.6', '--workers', '1'];

interface Pick {
  settings: string;
  text: string;
  falseStops: number;
  falseStopRate: number | null;
  fewerFalseStops?: { settings: string; falseStops: number; maxFalseStops: number };
  howSure?: { runnersUp: { settings: string }[] };
}

beforeAll(async () => {
  prices = join(tempDir(), 'prices.json');
  const derived = await cli('prices', 'derive', MINI, '--out', prices);
  expect(derived.code, derived.stderr).toBe(0);
}, 120_000);

describe('recommendedIndex with a false-stop bound', () => {
  const rows: RankedRow[] = [
    { completionRate: 0.7, costPerCompletedUsd: 0.08, costUsd: 2, falseStopRate: 0 },
    { completionRate: 0.65, costPerCompletedUsd: 0.07, costUsd: 1.8, falseStopRate: 0.15 },
    { completionRate: 0.62, costPerCompletedUsd: 0.075, costUsd: 1.9, falseStopRate: 0.05 },
  ];

  it('picks the cheapest within the bound, and names the cheapest with fewer false stops than the pick', () => {
    expect(recommendedIndex(rows, 0.6)).toBe(1);
    expect(recommendedIndex(rows, 0.6, { maxFalseStopRate: 0.05 })).toBe(2);
    expect(recommendedIndex(rows, 0.6, { maxFalseStopRate: 0 })).toBe(0);
    expect(fewerFalseStopsIndex(rows, 1, { target: 0.6, rule: {} })).toBe(2);
    expect(fewerFalseStopsIndex(rows, 0, { target: 0.6, rule: {} })).toBeUndefined();
  });

  it('resamples choose only the rows within the bound', () => {
    const runs = (cost: number, done: number[]): RunOutcomes => ({ costPico: Float64Array.from(done, () => cost), completed: Uint8Array.from(done) });
    const cheap = runs(1, [1, 1, 1, 0]);
    const dear = runs(2, [1, 1, 1, 1]);
    const counts = resampleCounts(4, { seed: 1, resamples: 50 });
    const free = sliceChoices([cheap, dear], { from: 0, counts, target: 0.5 });
    expect(free.some((choice) => choice.index === 0)).toBe(true);
    const bounded = sliceChoices([cheap, dear], { from: 0, counts, target: 0.5, eligible: [false, true] });
    expect(bounded.every((choice) => choice.index !== 0)).toBe(true);
  });
});

describe('sweep --target-completion: the pick says its false stops', { timeout: 120_000 }, () => {
  it('the cheapest pick says it cuts 4 of 28 good runs and names the configuration that cuts none, with the bound that picks it', async () => {
    const r = await cli('sweep', ...grid(), '--format', 'json');
    expect(r.code, r.stderr).toBe(0);
    const pick = (JSON.parse(r.stdout) as { recommendation: Pick }).recommendation;
    expect(pick.settings).toBe('max-same-error=5,same-error-mode=total');
    expect(pick.falseStops).toBe(4);
    expect(pick.falseStopRate).toBeCloseTo(4 / 28, 12);
    expect(pick.text).toContain('It stops 4 of the 28 runs that complete with no brakes (14.3%: false stops, good runs cut short).');
    expect(pick.fewerFalseStops).toMatchObject({ settings: 'max-same-error=3,same-error-mode=consecutive', falseStops: 0, maxFalseStops: 0 });
    expect(pick.text).toContain('--max-false-stops 0 picks it');
  });

  it('--max-false-stops 5% picks the configuration with no false stop; its resamples never pick one past the bound', async () => {
    const r = await cli('sweep', ...grid(), '--max-false-stops', '5%', '--format', 'json');
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout) as { maxFalseStops: number; recommendation: Pick; configurations: { settings: string; falseStopRate: number | null }[] };
    expect(report.maxFalseStops).toBe(0.05);
    expect(report.recommendation.settings).toBe('max-same-error=3,same-error-mode=consecutive');
    expect(report.recommendation.text).toMatch(/^For at least 60\.0% of runs completed with at most 5\.0% false stops, /);
    const over = new Set(report.configurations.filter((row) => (row.falseStopRate ?? 0) > 0.05).map((row) => row.settings));
    expect(report.recommendation.howSure!.runnersUp.filter((runnerUp) => over.has(runnerUp.settings))).toEqual([]);
  });

  it('--max-false-stops without --target-completion is refused (exit 2, no stack trace)', async () => {
    const r = await cli('sweep', MINI, '--prices-override', prices, '--grid', 'max-steps=50,100', '--max-false-stops', '0.05');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--max-false-stops');
    expect(r.stderr).toContain('--target-completion');
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });
});
