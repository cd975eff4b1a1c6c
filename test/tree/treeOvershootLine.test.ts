/**
 * `replay --tree` under a budget brake says what each tree spent past the tree's budget, in the flat
 * replay's words (`overshoot past the budget: total $X, largest tree $Y`), computed by the kernel's rule (overshootPico) over the
 * tree's totals; without a budget brake there is no such line, and no tree's figure in JSON (the summary's are 0, as the flat replay's).
 */
import { describe, expect, it } from 'vitest';
import { overshootPico } from '../../src/kernel/brakes.js';
import { formatUsdNumber } from '../../src/report/money.js';
import { treeOvershootPico } from '../../src/report/treeOvershoot.js';
import { cli } from '../cli/run.js';

const SHARED = '../shared/agent-logs/claude-code';
const BUDGET_PICO = 2_000_000_000_000;

interface TreeJson {
  sessionId: string;
  totals: { costUsd: number };
  overshootUsd?: number;
}

describe('replay --tree: the overshoot line', () => {
  it('under --max-cost 2: each tree overspent by the kernel rule, summed and the largest, as the flat replay words it', async () => {
    const json = await cli('replay', '--tree', SHARED, '--max-cost', '2', '--format', 'json');
    expect(json.code, json.stderr).toBe(0);
    const report = JSON.parse(json.stdout) as { trees: TreeJson[]; summary: { totalOvershootUsd?: number; maxOvershootUsd?: number } };
    const overshoots = report.trees.map((tree) => overshootPico(Math.round(tree.totals.costUsd * 1e12), BUDGET_PICO));
    // Both shared sessions spend past $2 before the check stops them: the 258c7280 tree by ~$0.016, ae4a77f8 by ~$0.45.
    expect(overshoots.every((pico) => pico > 0)).toBe(true);
    expect(report.trees.map((tree) => Math.round(tree.overshootUsd! * 1e12))).toEqual(overshoots);
    const total = overshoots.reduce((sum, pico) => sum + pico, 0);
    expect(Math.round(report.summary.totalOvershootUsd! * 1e12)).toBe(total);
    expect(Math.round(report.summary.maxOvershootUsd! * 1e12)).toBe(Math.max(...overshoots));

    const table = await cli('replay', '--tree', SHARED, '--max-cost', '2');
    expect(table.stdout).toContain(`\novershoot past the budget: total ${formatUsdNumber(total / 1e12)}, largest tree ${formatUsdNumber(Math.max(...overshoots) / 1e12)}\n`);
    // The flat replay of the same runs says it in the same words.
    expect((await cli('replay', SHARED, '--max-cost', '2')).stdout).toMatch(/^overshoot past the budget +total \$[0-9.]+, largest run \$/m);

    const csv = (await cli('replay', '--tree', SHARED, '--max-cost', '2', '--format', 'csv')).stdout.trim().split('\n');
    const header = csv[0]!.split(',');
    const at = header.indexOf('overshootUsd');
    expect(at).toBeGreaterThan(0);
    const treeRows = csv.slice(1).filter((line) => line.split(',')[1] === 'tree');
    expect(treeRows.map((line) => Math.round(Number(line.split(',')[at]) * 1e12))).toEqual(overshoots);
  });

  it('without a budget brake: no overshoot line, no tree overshoot in JSON, and the summary\'s 0 as the flat replay gives it', async () => {
    const table = await cli('replay', '--tree', SHARED, '--max-steps', '30');
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).not.toContain('overshoot');
    const report = JSON.parse((await cli('replay', '--tree', SHARED, '--max-steps', '30', '--format', 'json')).stdout);
    // The summary has the flat replay's shape (report/treeSummary.ts): its overshoot figures are there, 0.
    expect([report.summary.totalOvershootUsd, report.summary.maxOvershootUsd]).toEqual([0, 0]);
    expect(report.trees[0].overshootUsd).toBeUndefined();
  });

  it('a tree within its budget overshoots 0; past it, by the spend past the limit', () => {
    expect(treeOvershootPico({ costPico: 5 }, {})).toBe(0);
    expect(treeOvershootPico({ costPico: 5 }, { maxCostPico: 7 })).toBe(0);
    expect(treeOvershootPico({ costPico: 7 }, { maxCostPico: 7 })).toBe(0);
    expect(treeOvershootPico({ costPico: 9 }, { maxCostPico: 7 })).toBe(2);
  });
});
