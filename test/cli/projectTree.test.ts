/**
 * `project --tree`: each session tree (an agent and its sub-agents) is one run of the projection, its cost
 * the tree's totals under the brakes binding the tree (`--max-cost` the tree's budget) — what `replay
 * --tree` gives for each tree — and its suggested cap verified over trees; the report says what a run is.
 * Scenario files and per-agent limits without --tree are refused; without --tree the session-parts warning
 * names project --tree.
 */
import { describe, expect, it } from 'vitest';
import { cli, oneEntryScenario, tempDir } from './run.js';

const SESSION = 'test/fixtures/claude-code/ae4a77f8-aedd-4bc1-888f-c94edc91af04.jsonl';
const SHARED = '../shared/agent-logs/claude-code';
const DAYS = ['--runs-per-day', '2000', '--days', '30', '--trials', '20'];

interface ProjectJson {
  perRunUsd: { mean: number; p50: number; max: number; runs: number };
  perDayUsd: { mean: number };
  inputs: { recordedRuns: number };
  tree?: { sessionTrees: number; subagentLimits: string };
  suggestCap?: { completedRuns: number; capUsd: number | null };
  notes: string[];
  warnings: { code: string; message: string }[];
}

async function project(...args: string[]): Promise<ProjectJson> {
  const r = await cli('project', ...args, ...DAYS, '--format', 'json');
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as ProjectJson;
}

/** Each tree's total cost under replay --tree with the same flags. */
async function treeCosts(...args: string[]): Promise<number[]> {
  const r = await cli('replay', '--tree', ...args, '--format', 'json');
  expect(r.code, r.stderr).toBe(0);
  return (JSON.parse(r.stdout) as { trees: { totals: { costUsd: number } }[] }).trees.map((tree) => tree.totals.costUsd);
}

describe('project --tree', () => {
  it("takes each tree as one run: its cost per run is replay --tree's tree total under the tree's budget", async () => {
    const report = await project('--tree', SESSION, '--max-cost', '1');
    // Hand-checked: replay --tree of this session at --max-cost 1 stops the tree by its budget at $1.1474611
    // ($1.1334061 before its sub-agent's last output was its Task result's 938 tokens, not 1).
    expect(await treeCosts(SESSION, '--max-cost', '1')).toEqual([1.1474611]);
    expect(report.perRunUsd).toMatchObject({ runs: 1, mean: 1.1474611, p50: 1.1474611, max: 1.1474611 });
    expect(report.perDayUsd.mean).toBeCloseTo(2000 * 1.1474611, 6);
    expect(report.inputs.recordedRuns).toBe(1);
    expect(report.tree).toEqual({ sessionTrees: 1, subagentLimits: 'none' });
    expect(report.notes.join('\n')).toContain('Settings (--tree): each session tree (an agent and its sub-agents; 1 here) is one task');
    expect(report.notes.join('\n')).toContain('open loop');
    expect(report.warnings.map((w) => w.code)).not.toContain('session_parts');
    // Without --tree each of the session's 4 parts is a run under its own $1 budget.
    const parts = await project(SESSION, '--max-cost', '1');
    expect(parts.perRunUsd.runs).toBe(4);
    expect(parts.tree).toBeUndefined();
  });

  it('over the two shared sessions, with per-agent limits: the runs are the trees replay --tree gives', async () => {
    const flags = ['--max-cost', '2', '--subagent-max-steps', '2'];
    const costs = (await treeCosts(SHARED, ...flags)).sort((a, b) => a - b);
    const report = await project('--tree', SHARED, ...flags);
    expect(report.perRunUsd.runs).toBe(2);
    expect(report.perRunUsd.p50).toBe(costs[0]);
    expect(report.perRunUsd.max).toBe(costs[1]);
    expect(report.tree).toEqual({ sessionTrees: 2, subagentLimits: 'subagent-max-steps=2' });
    const table = await cli('project', '--tree', SHARED, ...flags, ...DAYS);
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout.replace(/\s+/g, ' ')).toContain('drawn from 2 session trees, each one run');
  });

  it('suggests a cap from the trees that complete, verified over trees', async () => {
    const report = await project('--tree', SESSION, '--suggest-cap', '0.5');
    expect(report.suggestCap?.completedRuns).toBe(1);
    // The one tree's unbraked total is the cap (what replay --tree with no brakes gives).
    expect(report.suggestCap?.capUsd).toBeCloseTo((await treeCosts(SESSION))[0]!, 6);
  });

  it('refuses scenario files and per-agent limits without --tree', async () => {
    const scenario = oneEntryScenario(tempDir(), 'one.yaml', {});
    const withScenario = await cli('project', '--tree', scenario, ...DAYS);
    expect(withScenario.code).toBe(2);
    expect(withScenario.stderr).toContain('scenario files have no session trees');
    const limits = await cli('project', SESSION, '--subagent-max-steps', '2', ...DAYS);
    expect(limits.code).toBe(2);
    expect(limits.stderr).toContain('has no effect without --tree');
    expect(limits.stderr).toContain('loopcost project --help');
  });

  it('without --tree, the session-parts warning names project --tree', async () => {
    const report = await project(SESSION, '--max-cost', '12');
    const parts = report.warnings.find((w) => w.code === 'session_parts')!.message;
    expect(parts).toContain('project --tree projects each session as one task');
    expect(parts).not.toContain('project has no --tree');
  });
});
