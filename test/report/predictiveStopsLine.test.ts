/**
 * A predictive budget (`--budget-mode predict`) stops runs well short of the budget: its bound prices the
 * whole prompt at the dearest prompt-token price (the cache-write price with caching) plus max_tokens of
 * output. The per-run stop detail said so, but tables said nothing; now replay, whatif, sweep and project
 * say under the table how many runs the bound stopped, why, and how to compare (`--budget-mode check`).
 */
import { describe, expect, it } from 'vitest';
import { cli } from '../cli/run.js';
import { isPredictiveStop } from '../../src/report/predictiveStops.js';

const MIX = ['scenarios/production-mix.yaml', '--runs', '40'];
const flat = (text: string) => text.replace(/\s+/g, ' ');
const LINE = /(\d+) runs? (\([^)]*\) |of the \d+ )?(?:was|were) stopped by the predictive budget bound \(budget-mode predict\): before each call it prices the whole prompt at the dearest prompt-token price \(with caching, the cache-write price, as if nothing were read from the cache\) plus max_tokens of output, so a run stops well short of spending its budget; to compare, the same budget checked after each call: --budget-mode check\./;

describe('the predictive-bound line under the tables', () => {
  it('replay: counts the runs whose stop detail is the bound\'s refusal; none under check mode', async () => {
    const argv = ['replay', ...MIX, '--preset', 'none', '--max-cost', '0.005', '--budget-mode', 'predict'];
    const runs = JSON.parse((await cli(...argv, '--format', 'json')).stdout).runs as { stopReason: string; stopDetail: string }[];
    const predictive = runs.filter(isPredictiveStop).length;
    expect(predictive).toBeGreaterThan(0);
    expect(flat((await cli(...argv)).stdout).match(LINE)?.[1]).toBe(String(predictive));
    const check = (await cli('replay', ...MIX, '--preset', 'none', '--max-cost', '0.005', '--budget-mode', 'check')).stdout;
    expect(check).not.toContain('predictive budget bound');
  });

  it('whatif: per setting, the baseline too', async () => {
    const r = await cli('whatif', ...MIX, '--try', 'max-cost=0.005,budget-mode=predict', '--try', 'max-cost=0.005,budget-mode=check', '--format', 'json');
    const report = JSON.parse(r.stdout);
    const [predict, check] = report.totals;
    expect(predict.predictiveBudgetStops).toBe(predict.stopReasons.budget);
    expect(check.predictiveBudgetStops).toBeUndefined();
    const text = flat((await cli('whatif', ...MIX, '--try', 'max-cost=0.005,budget-mode=predict', '--try', 'max-cost=0.005,budget-mode=check')).stdout);
    expect(text).toMatch(LINE);
    expect(text).toContain(`${predict.predictiveBudgetStops} runs (${predict.predictiveBudgetStops} under #1) were stopped by the predictive budget bound`);
  });

  it('sweep and project: the runs, and in how many configurations', async () => {
    const sweep = await cli('sweep', ...MIX, '--grid', 'max-cost=0.005,0.01', '--budget-mode', 'predict', '--format', 'json');
    const budget = JSON.parse(sweep.stdout).configurations.reduce((sum: number, row: { stopReasons: Record<string, number> }) => sum + (row.stopReasons.budget ?? 0), 0);
    expect(budget).toBeGreaterThan(0);
    const table = flat((await cli('sweep', ...MIX, '--grid', 'max-cost=0.005,0.01', '--budget-mode', 'predict')).stdout);
    expect(table).toContain(`${budget} runs (in 2 configurations) were stopped by the predictive budget bound`);
    expect(flat((await cli('sweep', ...MIX, '--grid', 'max-cost=0.005,0.01')).stdout)).not.toContain('predictive budget bound');
    const project = flat((await cli('project', ...MIX, '--preset', 'none', '--max-cost', '0.005', '--budget-mode', 'predict', '--days', '2', '--trials', '20')).stdout);
    expect(project).toMatch(/\d+ runs of the 40 were stopped by the predictive budget bound/);
  });
});
