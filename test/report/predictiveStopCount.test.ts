/**
 * The predictive-bound line counts the runs whose stop the kernel flagged (stopByPredictiveBound), not
 * words of their stop detail, and not every budget stop under `budget-mode predict`: a run that spends past
 * the budget (here a recorded response longer than --max-output-tokens 1) is then stopped by spend
 * reaching the budget, which is no refusal of the bound, in replay, whatif, sweep and project alike.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempDir } from '../cli/run.js';
import { renderTable } from '../../src/report/render.js';
import type { ReplayReport } from '../../src/report/replayReport.js';

const RUN = 'scenarios/long-exploration.jsonl';
const MIX = ['scenarios/production-mix.yaml', '--runs', '40', '--preset', 'none'];
const PREDICT = ['--budget-mode', 'predict', '--max-output-tokens', '1'];
const LINE = /(\d+) runs? (?:\([^)]*\) |of the \d+ )?(?:was|were) stopped by the predictive budget bound/;
const flat = (text: string) => text.replace(/\s+/g, ' ');

describe('runs stopped by the predictive bound, counted from the kernel’s flag', () => {
  it('replay JSON: stopByPredictiveBound on the bound’s refusal alone; none on a budget stop by spend', async () => {
    const spent = JSON.parse((await cli('replay', RUN, '--max-cost', '0.005', ...PREDICT, '--format', 'json')).stdout).runs[0];
    expect(spent.stopReason).toBe('budget');
    expect(spent.stopDetail).toBe('$0.006250 spent, limit $0.005000');
    expect('stopByPredictiveBound' in spent).toBe(false);
    const bound = JSON.parse((await cli('replay', RUN, '--max-cost', '0.02', ...PREDICT, '--format', 'json')).stdout).runs[0];
    expect(bound.stopReason).toBe('budget');
    expect(bound.stopByPredictiveBound).toBe(true);
  });

  it('the table’s count survives other detail words (the count reads the flag)', async () => {
    const report = JSON.parse((await cli('replay', ...MIX, '--max-cost', '0.005', '--budget-mode', 'predict', '--format', 'json')).stdout) as ReplayReport;
    const flagged = report.runs.filter((run) => run.stopByPredictiveBound === true).length;
    expect(flagged).toBeGreaterThan(0);
    const reworded: ReplayReport = { ...report, runs: report.runs.map((run) => ({ ...run, stopDetail: 'the bound said no' })) };
    expect(flat(renderTable(reworded)).match(LINE)?.[1]).toBe(String(flagged));
  });

  it('whatif, sweep and project count no bound refusal where spend reached the budget', async () => {
    const whatif = JSON.parse((await cli('whatif', RUN, '--try', 'max-cost=0.005,budget-mode=predict,max-output-tokens=1', '--try', 'max-cost=0.02,budget-mode=predict,max-output-tokens=1', '--format', 'json')).stdout);
    expect(whatif.totals.map((t: { stopReasons: { budget?: number }; predictiveBudgetStops?: number }) => [t.stopReasons.budget, t.predictiveBudgetStops])).toEqual([[1, undefined], [1, 1]]);
    const sweep = JSON.parse((await cli('sweep', RUN, '--grid', 'max-cost=0.005,0.02', ...PREDICT, '--format', 'json')).stdout);
    expect(sweep.configurations.map((row: { stopReasons: { budget?: number }; predictiveBudgetStops?: number }) => [row.stopReasons.budget, row.predictiveBudgetStops])).toEqual([[1, undefined], [1, 1]]);
    expect(flat((await cli('sweep', RUN, '--grid', 'max-cost=0.005,0.02', ...PREDICT)).stdout)).toContain('1 run (in 1 configuration) was stopped by the predictive budget bound');
    expect((await cli('sweep', RUN, '--max-cost', '0.005', ...PREDICT)).stdout).not.toContain('predictive budget bound');
    expect((await cli('project', RUN, '--max-cost', '0.005', ...PREDICT, '--days', '2', '--trials', '20')).stdout).not.toContain('predictive budget bound');
    expect(flat((await cli('project', RUN, '--max-cost', '0.02', ...PREDICT, '--days', '2', '--trials', '20')).stdout)).toMatch(/1 run of the 1 was stopped by the predictive budget bound/);
  });
});

describe('a sweep shard carries each configuration’s predictiveBudgetStops', () => {
  it('shards merge to the one sweep’s JSON; a count past the budget stops is refused naming the field', async () => {
    const dir = tempDir();
    const sweep = ['sweep', RUN, 'scenarios/reverify-forever.jsonl', '--grid', 'max-cost=0.005,0.02', ...PREDICT];
    for (const k of [1, 2]) expect((await cli(...sweep, '--shard', `${k}/2`, '--out', join(dir, `s${k}.json`))).code).toBe(0);
    const merged = await cli('merge', join(dir, 's1.json'), join(dir, 's2.json'), '--format', 'json');
    const whole = await cli(...sweep, '--format', 'json');
    expect(merged.stdout).toBe(whole.stdout);
    expect(JSON.parse(whole.stdout).configurations.map((row: { predictiveBudgetStops?: number }) => row.predictiveBudgetStops)).toEqual([1, 1]);
    const shard = JSON.parse(readFileSync(join(dir, 's1.json'), 'utf8'));
    shard.configurations[0].predictiveBudgetStops = 3;
    writeFileSync(join(dir, 'bad.json'), JSON.stringify(shard));
    const refused = await cli('merge', join(dir, 'bad.json'), join(dir, 's2.json'), '--format', 'json');
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('configurations[0].predictiveBudgetStops');
  });
});
