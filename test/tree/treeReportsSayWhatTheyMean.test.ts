/**
 * Tree reports that do not mislead, on the two shared Claude Code sessions (bundled prices): whatif
 * --tree's baseline is the recorded limits with no per-agent limits (the --try cells keep them);
 * --budget-mode counts the per-agent budget as its brake; the tree's stop detail describes the tree; the
 * model column keeps the model's family (and with --wide its whole name).
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_VIEW } from '../../src/report/view.js';
import { modelWithoutDate, renderTreeTable, type TreeReport } from '../../src/report/treeReport.js';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cli, tempDir } from '../cli/run.js';

const SHARED = '../shared/agent-logs/claude-code';
const A = `${SHARED}/258c7280-ae70-4798-800f-63464d01a85d.jsonl.gz`;
const B = `${SHARED}/ae4a77f8-aedd-4bc1-888f-c94edc91af04.jsonl.gz`;

interface TreeJson {
  stopReason: string;
  stopDetail: string;
  totals: { steps: number; costUsd: number };
  agents: { agent: string; stopReason: string; stopDetail: string; stoppedBy: string; costUsd: number }[];
}

async function trees(...args: string[]): Promise<TreeJson[]> {
  const run = await cli('replay', '--tree', ...args, '--format', 'json');
  expect(run.code, run.stderr).toBe(0);
  return (JSON.parse(run.stdout) as { trees: TreeJson[] }).trees;
}

describe('whatif --tree: the baseline is what its label says', () => {
  it('with --subagent-max-steps 2 the baseline is still the tree under its recorded limits (155 / 220 steps, $18.4273); each --try keeps the per-agent limit', async () => {
    const run = await cli('whatif', '--tree', SHARED, '--try', 'max-cost=2', '--subagent-max-steps', '2', '--format', 'json');
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout) as { baseline: { costUsd: number }; runs: { source: string; baselineSteps: number; baselineCostUsd: number; steps: number; costUsd: number }[]; warnings: { code: string; message: string }[] };
    const bare = await trees(SHARED);
    expect(report.runs.map((row) => row.baselineSteps)).toEqual(bare.map((tree) => tree.totals.steps));
    expect(report.runs.map((row) => row.baselineSteps)).toEqual([155, 220]);
    expect(report.runs.map((row) => row.baselineCostUsd)).toEqual(bare.map((tree) => tree.totals.costUsd));
    expect(report.baseline.costUsd).toBeCloseTo(18.427298, 6); // 18.398303 before the sub-agents' last outputs were their Task results'
    // The --try cell is replay --tree of that setting with the same per-agent limit: $2.0160 and $2.4307.
    const limited = await trees(SHARED, '--max-cost', '2', '--subagent-max-steps', '2');
    expect(report.runs.map((row) => [row.steps, row.costUsd])).toEqual(limited.map((tree) => [tree.totals.steps, tree.totals.costUsd]));
    expect(report.runs.reduce((sum, row) => sum + row.costUsd, 0)).toBeCloseTo(4.44663925, 6);
    expect(report.warnings.find((w) => w.code === 'tree')?.message).toContain("the baseline is each tree under its recordings' limits");
    expect(report.warnings.find((w) => w.code === 'tree')?.message).toContain('a --try on top of it keeps those per-agent limits, with subagent-max-steps=2 on top');
  });
});

describe('--budget-mode with a per-agent budget alone', () => {
  it('replay --tree --subagent-max-cost 0.1 --budget-mode predict: accepted, and the sub-agent stops before the call that would pass $0.10', async () => {
    const [checked] = await trees(A, '--subagent-max-cost', '0.1');
    const [predicted] = await trees(A, '--subagent-max-cost', '0.1', '--budget-mode', 'predict');
    const sub = (tree: TreeJson) => tree.agents.find((agent) => agent.agent === 'a881341')!;
    expect(sub(checked!).costUsd).toBeGreaterThan(0.1);
    expect(sub(predicted!)).toMatchObject({ stopReason: 'budget', stoppedBy: 'subagent' });
    expect(sub(predicted!).costUsd).toBeLessThanOrEqual(0.1);
    expect(sub(predicted!).stopDetail).toMatch(/^\$[0-9.]+ spent; the next call \(up to \$/);
  });

  it('still refused with no budget at all, and the per-agent budget without --tree is refused as before (exit 2)', async () => {
    for (const args of [['--tree', '--budget-mode', 'predict'], ['--subagent-max-cost', '0.1', '--budget-mode', 'predict']]) {
      const run = await cli('replay', A, ...args);
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.stderr).not.toMatch(/\n\s+at /);
    }
  });

  it('whatif --tree: budget-mode=predict in a --try counts the --subagent-max-cost budget; without it, refused', async () => {
    const run = await cli('whatif', '--tree', A, '--subagent-max-cost', '0.1', '--try', 'max-steps=200,budget-mode=predict', '--format', 'json');
    expect(run.code, run.stderr).toBe(0);
    const alone = await trees(A, '--subagent-max-cost', '0.1', '--max-steps', '200', '--budget-mode', 'predict');
    expect((JSON.parse(run.stdout) as { runs: { costUsd: number }[] }).runs[0]!.costUsd).toBe(alone[0]!.totals.costUsd);
    const refused = await cli('whatif', '--tree', A, '--try', 'max-steps=200,budget-mode=predict');
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('budget-mode has no effect without max-cost');
  });

  it('sweep --tree: --budget-mode predict (or a budget-mode axis) beside a per-agent budget is accepted', async () => {
    const fixed = await cli('sweep', '--tree', A, '--subagent-max-cost', '0.1', '--budget-mode', 'predict', '--grid', 'max-steps=200', '--format', 'json', '--workers', '1');
    expect(fixed.code, fixed.stderr).toBe(0);
    const axis = await cli('sweep', '--tree', A, '--grid', 'subagent-max-cost=0.1', '--grid', 'budget-mode=check,predict', '--format', 'json', '--workers', '1');
    expect(axis.code, axis.stderr).toBe(0);
    const costs = (JSON.parse(axis.stdout) as { configurations: { costUsd: number }[] }).configurations.map((row) => row.costUsd);
    expect(costs[1]).toBeLessThan(costs[0]!); // the mode has an effect: predict stops the sub-agent a call earlier
  });
});

describe("the tree's stop detail describes the tree", () => {
  it("a tree that completed names the agent and part the detail is of, and the tree's steps", async () => {
    const [a, b] = await trees(SHARED);
    expect(a!.stopDetail).toBe('main, part 3 of 3: final answer after 1 step; tree: 155 steps');
    expect(b!.stopDetail).toBe('main, part 3 of 3: final answer after 79 steps; tree: 220 steps');
    const table = await cli('replay', '--tree', A);
    expect(table.stdout).toContain('completed (main, part 3 of 3: final answer after 1 step; tree: 155 steps)');
  });

  it("a stop by the tree's brakes is told on the tree's totals, as before", async () => {
    const [tree] = await trees(B, '--max-steps', '60');
    expect(tree!.stopDetail).toBe('60 steps taken, limit 60');
  });
});

/**
 * A price file that prices the sub-agent's model under its dated name, so that the name its figures were
 * priced as (the model column's) keeps its date: the bundled table prices it as claude-sonnet-4-5.
 */
function datedSonnetPrices(): string {
  const path = join(tempDir(), 'dated-sonnet.json');
  writeFileSync(path, JSON.stringify({ 'claude-sonnet-4-5-20250929': { input_cost_per_token: 3e-6, output_cost_per_token: 1.5e-5, cache_read_input_token_cost: 3e-7, cache_creation_input_token_cost: 3.75e-6 } }));
  return path;
}

describe('the tree table keeps model names readable', () => {
  it('--wide cuts no model name; without it the date goes first (claude-sonnet-4-5…), never the middle of the name', async () => {
    const prices = ['--prices-override', datedSonnetPrices()];
    const wide = await cli('replay', '--tree', A, ...prices, '--wide');
    expect(wide.stdout).toMatch(/^a881341 +main +claude-sonnet-4-5-20250929 /m);
    const narrow = await cli('replay', '--tree', A, ...prices);
    expect(narrow.stdout).toMatch(/^a881341 +main +claude-sonnet-4-5… /m);
    expect(narrow.stdout).not.toContain('sonn…');
    for (const line of narrow.stdout.split('\n')) expect(line.length).toBeLessThanOrEqual(120);
  });

  it('a table that fits keeps the whole name; one too narrow even without dates is cut by the table', async () => {
    const report = JSON.parse((await cli('replay', '--tree', A, '--prices-override', datedSonnetPrices(), '--format', 'json')).stdout) as TreeReport;
    expect(renderTreeTable(report, { ...DEFAULT_VIEW, width: 200 })).toContain('claude-sonnet-4-5-20250929');
    const tight = renderTreeTable(report, { ...DEFAULT_VIEW, width: 100 });
    expect(tight).not.toContain('claude-sonnet-4-5-20250929');
    expect(modelWithoutDate('claude-sonnet-4-5-20250929')).toBe('claude-sonnet-4-5…');
    expect(modelWithoutDate('gpt-4o-2024-08-06')).toBe('gpt-4o…');
    expect(modelWithoutDate('claude-opus-4-6')).toBe('claude-opus-4-6');
  });
});
