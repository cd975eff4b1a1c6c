/**
 * A price change that moves what the brakes do (the review: a 2× price passed with `0 baseline figures drifted`
 * while the $1 budget stopped twice the runs that would finish, `completionRate 76.67% → 70.67% … price change`).
 * Money the new prices moved is no brake regression; a brake outcome they moved past the tolerance fails as
 * `budget binds`, naming the budget and what to set it to (budgetBinds.ts), in text, JSON and JUnit.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempDir } from '../cli/run.js';
import { priceRatios } from '../../src/check/budgetBinds.js';
import type { PriceRow } from '../../src/check/modelPrices.js';

const SCENARIO = `scenario: loopcost.scenario/1
name: review
model: gpt-4o
systemTokens: 900
goalTokens: { kind: lognormal, median: 300, p95: 1200 }
brakes: { max-steps: 30, max-cost: BUDGET, max-repeat: 3 }
context: { context: full, cache: on }
runs: 300
seed: 3
expect:
  population:
    completionRate: { min: 0.6 }
population:
  - behaviour: healthy
    weight: 70
    steps: { kind: lognormal, median: 10, p95: 25 }
    outputTokens: { kind: lognormal, median: 200, p95: 600 }
    toolResultTokens: { kind: lognormal, median: 1500, p95: 6000 }
  - behaviour: perfectionist
    weight: 6
    repeatQuery: 0.5
    outputTokens: { kind: lognormal, median: 180, p95: 450 }
    toolResultTokens: { kind: lognormal, median: 1500, p95: 6000 }
  - behaviour: repeater
    weight: 6
    leadSteps: { kind: uniform, min: 0, max: 4 }
    cycle: [{ by: type }, { by: date }]
    outputTokens: { kind: lognormal, median: 120, p95: 450 }
    toolResultTokens: { kind: lognormal, median: 1500, p95: 6000 }
  - behaviour: retrier
    weight: 6
    leadSteps: { kind: uniform, min: 0, max: 4 }
    givesUpAfter: 30
    outputTokens: { kind: lognormal, median: 80, p95: 200 }
    toolResultTokens: 40
  - behaviour: backtracker
    weight: 6
    steps: { kind: uniform, min: 4, max: 12 }
    backtrackShare: 0.25
    outputTokens: { kind: lognormal, median: 120, p95: 450 }
    toolResultTokens: { kind: lognormal, median: 1500, p95: 6000 }
  - behaviour: forgetful
    weight: 6
    steps: { kind: uniform, min: 5, max: 15 }
    observationTokens: { kind: lognormal, median: 4000, p95: 9000 }
    needEvery: 2
    outputTokens: { kind: lognormal, median: 250, p95: 700 }
    toolResultTokens: 60
`;

/** gpt-4o's table prices ($2.5 / $1.25 cached / $10 per million tokens) times `k`, as a price override file. */
function gpt4oTimes(dir: string, k: number): string {
  const path = join(dir, `gpt-4o-x${k}.json`);
  writeFileSync(path, JSON.stringify({ 'gpt-4o': { input_cost_per_token: 2.5e-6 * k, output_cost_per_token: 1e-5 * k, cache_read_input_token_cost: 1.25e-6 * k } }));
  return path;
}

/** The scenario with a budget of `budget` USD, a baseline of it at the table's prices, in a directory of their own. */
async function withBaseline(budget = '1.0'): Promise<{ dir: string; scenario: string; baseline: string }> {
  const dir = tempDir();
  const scenario = join(dir, 'r.yaml');
  writeFileSync(scenario, SCENARIO.replace('BUDGET', budget));
  const baseline = join(dir, 'bl.json');
  expect((await cli('check', scenario, '--update-baseline', baseline)).code).toBe(0);
  return { dir, scenario, baseline };
}

type Row = { figure: string; status: string; baseline: number; measured: number; atBaselinePrices?: number };
const statusOf = (rows: Row[], figure: string) => rows.find((row) => row.figure === figure)?.status;
const flat = (text: string) => text.replace(/\s+/g, ' ');

describe('a price change that makes the budget bind differently fails (budget binds); one that moves only money passes', () => {
  it('2× prices: the $1 budget stops twice the runs, and check fails naming max-cost and raise it to 2', async () => {
    const { dir, scenario, baseline } = await withBaseline();
    const dearer = gpt4oTimes(dir, 2);
    const junit = join(dir, 'check.xml');
    const text = await cli('check', scenario, '--baseline', baseline, '--tolerance', '5%', '--prices-override', dearer, '--junit', junit);
    expect(text.code).toBe(1);
    expect(text.stdout).toMatch(/^loopcost check: FAIL: .*, 0 baseline figures drifted, the budget binds differently under the new prices in 1 scenario \(.*r\.yaml\)$/m);
    const said = flat(text.stdout);
    expect(said).toContain(' completionRate 76.67% 70.67% 76.67% BUDGET BINDS ↓ -6.0 points: at the new prices ');
    expect(said).toContain(' falseStopRate 6.12% 13.47% 6.12% BUDGET BINDS ↑ +7.3 points: at the new prices ');
    // Money the prices moved is still a price change, no failure.
    expect(said).toContain(' costPerRunUsd.mean $0.2766 $0.4682 $0.2766 price change ');
    expect(said).toContain("r.yaml: under the new prices max-cost (1) stops 36 of 300 runs, 16 at the baseline's: completionRate 76.67% → 70.67% (76.67% at the baseline's prices), falseStopRate 6.12% → 13.47% (6.12% at the baseline's prices)");
    expect(said).toContain("raise max-cost to 2 (1 × 2, the most a price of gpt-4o rose: no run reaches it sooner than it reached 1 at the baseline's prices), or if intended, accept it: run the same check with --update-baseline");

    const json = await cli('check', scenario, '--baseline', baseline, '--tolerance', '5%', '--prices-override', dearer, '--format', 'json');
    const report = JSON.parse(json.stdout);
    expect(report).toMatchObject({ passed: false, drifted: 0, budgetBinds: 2, scenarios: [{ passed: false, expectationsPassed: true, budgetBinds: 2 }] });
    expect(statusOf(report.drift.rows, 'completionRate')).toBe('budget binds');
    expect(statusOf(report.drift.rows, 'falseStopRate')).toBe('budget binds');
    expect(statusOf(report.drift.rows, 'costUsd')).toBe('price change');
    expect(report.drift.budgetBinds).toEqual([
      {
        scenario: expect.stringMatching(/r\.yaml$/),
        brake: 'max-cost',
        budget: '1',
        figures: [
          { figure: 'completionRate', baseline: expect.closeTo(0.7667, 4), measured: expect.closeTo(0.7067, 4), atBaselinePrices: expect.closeTo(0.7667, 4) },
          { figure: 'falseStopRate', baseline: expect.closeTo(0.0612, 4), measured: expect.closeTo(0.1347, 4), atBaselinePrices: expect.closeTo(0.0612, 4) },
        ],
        stops: { measured: 36, atBaselinePrices: 16, runs: 300 },
        models: ['gpt-4o'],
        advice: { way: 'raise', ratio: 2, toUsd: 2 },
      },
    ]);
    expect(report.drift.hint).toMatch(/--update-baseline/);

    const xml = readFileSync(junit, 'utf8');
    expect(xml).toMatch(/name="baseline completionRate">\n {6}<failure type="budget" message="budget binds ↓ -6\.0 points at the new prices: completionRate: baseline 76\.67%, measured 70\.67%, 76\.67% at the baseline&apos;s prices \(tolerance 5%\)">/);
    expect(xml).toMatch(/name="baseline falseStopRate">\n {6}<failure type="budget" /);
    expect(xml).toContain('raise max-cost to 2 (1 × 2');

    // Accepting it (writing the compared baseline again) passes.
    expect((await cli('check', scenario, '--baseline', baseline, '--tolerance', '5%', '--prices-override', dearer, '--update-baseline', baseline)).code).toBe(0);
  });

  it('the budget it advises binds as the old one did at the baseline prices: max-cost 2 at 2× gives the baseline outcomes', async () => {
    const { dir, scenario, baseline } = await withBaseline();
    const stored = JSON.parse(readFileSync(baseline, 'utf8')).scenarios[0].figures;
    writeFileSync(scenario, SCENARIO.replace('BUDGET', '2'));
    const r = await cli('check', scenario, '--prices-override', gpt4oTimes(dir, 2), '--format', 'json');
    const figures = JSON.parse(r.stdout).scenarios[0].figures;
    expect(figures.completionRate).toBe(stored.completionRate);
    expect(figures.falseStopRate).toBe(stored.falseStopRate);
  });

  it('a price change that moves only money (+10%) passes: every moved figure a price change, no budget binds', async () => {
    const { dir, scenario, baseline } = await withBaseline();
    const r = await cli('check', scenario, '--baseline', baseline, '--tolerance', '5%', '--prices-override', gpt4oTimes(dir, 1.1), '--format', 'json');
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report).toMatchObject({ passed: true, drifted: 0, budgetBinds: 0 });
    expect(report.drift.budgetBinds).toBeUndefined();
    expect(statusOf(report.drift.rows, 'costUsd')).toBe('price change');
    expect(report.drift.rows.filter((row: Row) => row.status === 'budget binds')).toEqual([]);
  });

  it('cheaper prices that make the budget stop nothing fail too, advising to lower it', async () => {
    const { dir, scenario, baseline } = await withBaseline();
    const r = await cli('check', scenario, '--baseline', baseline, '--tolerance', '5%', '--prices-override', gpt4oTimes(dir, 0.5));
    expect(r.code).toBe(1);
    expect(flat(r.stdout)).toContain("under the new prices max-cost (1) stops 0 of 300 runs, 16 at the baseline's: falseStopRate 6.12% → 1.63%");
    expect(flat(r.stdout)).toContain('the budget no longer stops the runs it stopped; lower max-cost to 0.5 (1 × 0.5, the least a price of gpt-4o fell to');
  });
});

function row(prices: PriceRow['pricesPicoPerToken'], tiers: PriceRow['tiers'] = []): PriceRow {
  return { model: 'm', pricedAs: 'm', pricesPicoPerToken: prices, tiers };
}

describe('priceRatios: the most and least any price moved by, over kinds of token and prompt sizes', () => {
  it('reads every tier of either row and the prices a row leaves out as they fall back', () => {
    const was = row({ input: 100, output: 400 });
    const now = row({ input: 110, output: 400 }, [{ aboveInputTokens: 200_000, pricesPicoPerToken: { input: 300, output: 400 } }]);
    // Above 200k tokens input is 3× (300 vs 100); cached input and cache writes follow input.
    expect(priceRatios([{ baseline: was, now }])).toEqual({ most: 3, least: 1 });
    expect(priceRatios([{ baseline: row({ input: 0, output: 4 }), now: row({ input: 1, output: 2 }) }])).toEqual({ most: Infinity, least: 0.5 });
  });
});
