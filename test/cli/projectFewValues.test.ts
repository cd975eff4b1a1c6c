/**
 * `project` of the 38 mini-swe-agent runs showed a p99 per run with no caveat: a nearest-rank p99 of fewer than
 * 100 values is the largest of them (a p95 of fewer than 20 too), so from 38 runs it is the dearest run, not a
 * tail measured. A line now says so, for each row (runs, simulated days, simulated periods) whose p99 has no value
 * above it, with the rule. And the period's p95 falling below the top of the mean's interval (times the runs in
 * a period) is said to be no contradiction, and why: the interval's top is a 97.5% point widened for a small
 * sample, a period's p95 the 95th percentile of the simulated periods.
 */
import { describe, expect, it } from 'vitest';
import { nearestRank } from '../../src/metrics/population.js';
import { valuesForOneAbove } from '../../src/report/projectTails.js';
import { formatUsdNumber } from '../../src/report/money.js';
import { cli, cliJson, oneEntryScenario, tempDir } from './run.js';

const MINI = '../shared/traces/mini-swe-agent';
const text = async (...argv: string[]) => (await cli('project', ...argv)).stdout.replace(/\s+/g, ' ');

describe('project: percentiles drawn from too few values say so', () => {
  it('the rule the line states is the rank rule the table uses: a p99 has a value above it from 100 values, a p95 from 20', () => {
    const ascending = (n: number) => Array.from({ length: n }, (_, i) => i);
    expect(valuesForOneAbove(0.99)).toBe(100);
    expect(valuesForOneAbove(0.95)).toBe(20);
    expect(nearestRank(ascending(99), 0.99)).toBe(98);
    expect(nearestRank(ascending(100), 0.99)).toBe(98);
    expect(nearestRank(ascending(19), 0.95)).toBe(18);
    expect(nearestRank(ascending(20), 0.95)).toBe(18);
  });

  it('38 runs: the p99 per run is the largest run, the p95 the 2nd largest, and the line says it', async () => {
    const json = await cliJson('project', MINI, '--runs-per-day', '2000', '--trials', '200');
    expect(json.perRunUsd.runs).toBe(38);
    expect(json.perRunUsd.p99).toBe(json.perRunUsd.max);
    const said = await text(MINI, '--runs-per-day', '2000', '--trials', '200');
    expect(said).toContain(
      'Percentiles of few values: per run, the p99 of 38 runs is the largest of them and the p95 the 2nd largest: the top of the sample, not a tail measured (nearest rank: a p99 has a value above it only from 100 values, a p95 from 20).',
    );
    // 200 simulated periods and 6,000 days: their p99s have values above them, so those rows are not named.
    expect(said).not.toMatch(/per day, the p99|per 30 days, the p99/);
  });

  it('few simulated periods are named as such; 100 runs or more are not named', async () => {
    expect(await text(MINI, '--trials', '30', '--days', '1')).toContain('per 1 days, the p99 of 30 simulated periods is the largest of them and the p95 the 2nd largest');
    const scenario = oneEntryScenario(tempDir(), 'many.yaml', { runs: '100' });
    const many = await text(scenario, '--trials', '200');
    expect(many).not.toContain('Percentiles of few values');
  });

  it("the period's p95 below the top of the mean's interval is said to be no contradiction, with the figures", async () => {
    const json = await cliJson('project', MINI, '--runs-per-day', '2000', '--trials', '200');
    const top = json.confidence.meanPerRunUsd[1] as number;
    const runs = 2000 * 30;
    // What the line is for: the month's p95 a run below the top of the mean's interval.
    expect(json.perPeriodUsd.p95 / runs).toBeLessThan(top);
    const said = await text(MINI, '--runs-per-day', '2000', '--trials', '200');
    expect(said).toContain(`The p95 per 30 days (${formatUsdNumber(json.perPeriodUsd.p95)}, $`);
    expect(said).toContain(
      `a run) sits below the top of the mean's interval (${formatUsdNumber(top)}): no contradiction, as that top is a 97.5% point widened for a small sample, and a period's p95 the 95th percentile of the 200 simulated periods.`,
    );
    // One run a day: the period's p95 is above the interval's top, and nothing is said.
    const few = await cliJson('project', MINI, '--runs-per-day', '1', '--days', '1', '--trials', '200');
    expect(few.perPeriodUsd.p95).toBeGreaterThan(few.confidence.meanPerRunUsd[1]);
    expect(await text(MINI, '--runs-per-day', '1', '--days', '1', '--trials', '200')).not.toContain('sits below the top of the mean');
  });
});
