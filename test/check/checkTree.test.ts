/**
 * `check --tree`: a scenario's `traces:` judged as session trees, each tree one run of every expectation
 * under the scenario's brakes binding the tree (its budget the tree's): a $1 budget every part of a session
 * keeps to on its own passes without --tree, and fails under it, where the tree spends past it and stops.
 * Scenarios without `traces:` and per-agent limits without --tree are refused (exit 2); --skip-bad leaves a tree
 * with a run in a bad file out whole (test/check/checkTreeSkipBad.test.ts).
 */
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, oneEntryScenario, tempDir } from '../cli/run.js';

const SESSION = 'test/fixtures/claude-code/ae4a77f8-aedd-4bc1-888f-c94edc91af04.jsonl';

/** A scenario over the session under `max-cost`, expecting every run to complete within `runMaxUsd` ($1.2). */
function sessionScenario(dir: string, maxCostUsd: string, runMaxUsd = '1.2'): string {
  const path = join(dir, 'sessions.yaml');
  writeFileSync(
    path,
    ['scenario: loopcost.scenario/1', 'name: sessions', `traces: [${resolve(SESSION)}]`, `brakes: { max-cost: ${maxCostUsd} }`, 'expect:', `  runs: { stopReason: completed, costUsd: { max: ${runMaxUsd} } }`, '  population: { completionRate: { min: 1 } }', ''].join('\n'),
  );
  return path;
}

interface CheckJson {
  passed: boolean;
  scenarios: { recordedRuns: number; tree?: { sessionTrees: number; subagentLimits: string }; expectations: { expectation: string; measured: unknown; pass: boolean }[]; figures: { runs: number; costUsd: number } }[];
  warnings: { code: string; message: string }[];
}

describe('check --tree', () => {
  it('holds the tree budget: parts that each keep to $1 pass without --tree, the tree that spends past it fails', async () => {
    const file = sessionScenario(tempDir(), '1');
    const parts = await cli('check', file, '--format', 'json');
    expect(parts.code, parts.stderr).toBe(0);
    expect((JSON.parse(parts.stdout) as CheckJson).scenarios[0]!.recordedRuns).toBe(4);

    const r = await cli('check', '--tree', file, '--format', 'json');
    expect(r.code, r.stderr).toBe(1);
    const report = JSON.parse(r.stdout) as CheckJson;
    const scenario = report.scenarios[0]!;
    expect(scenario.recordedRuns).toBe(1);
    expect(scenario.tree).toEqual({ sessionTrees: 1, subagentLimits: 'none' });
    const byName = Object.fromEntries(scenario.expectations.map((e) => [e.expectation, e]));
    expect(byName['runs.stopReason']).toMatchObject({ measured: { budget: 1 }, pass: false });
    expect(byName['population.completionRate']).toMatchObject({ measured: 0, pass: false });
    // The tree's spend is replay --tree's at the same budget.
    const replay = await cli('replay', '--tree', SESSION, '--max-cost', '1', '--format', 'json');
    const treeCost = (JSON.parse(replay.stdout) as { trees: { totals: { costUsd: number } }[] }).trees[0]!.totals.costUsd;
    expect(byName['runs.costUsd']!.measured).toEqual({ min: treeCost, max: treeCost });
    expect(scenario.figures.costUsd).toBe(treeCost);
    expect(report.warnings.map((w) => w.code)).not.toContain('session_parts');
    expect(report.warnings.find((w) => w.code === 'open_loop')?.message).toContain('1 recorded session tree is replayed as recorded');
  });

  it('passes under a budget the tree keeps to, and says the runs are trees and the per-agent limits', async () => {
    const file = sessionScenario(tempDir(), '2', '1.5');
    const r = await cli('check', '--tree', file, '--subagent-max-cost', '5');
    expect(r.code, r.stdout).toBe(0);
    const flat = r.stdout.replace(/\s+/g, ' ');
    expect(flat).toContain('runs.costUsd $1.4208 ≤ $1.5 pass'); // $1.4067 before the sub-agent's last output was its Task result's
    expect(flat).toContain('(--tree: the recorded runs are 1 session tree, each one run; per-agent limits subagent-max-cost=5)');
    const json = await cli('check', '--tree', file, '--subagent-max-cost', '5', '--format', 'json');
    const report = JSON.parse(json.stdout) as CheckJson;
    expect(report.passed).toBe(true);
    expect(report.scenarios[0]!.tree).toEqual({ sessionTrees: 1, subagentLimits: 'subagent-max-cost=5' });
  });

  it('refuses scenarios with no traces, and per-agent limits without --tree', async () => {
    const dir = tempDir();
    const synthetic = oneEntryScenario(dir, 'synthetic.yaml', { expect: '{ population: { completionRate: { min: 0 } } }' });
    const noTraces = await cli('check', '--tree', synthetic);
    expect(noTraces.code).toBe(2);
    expect(noTraces.stderr).toContain('synthetic.yaml');
    expect(noTraces.stderr).toContain('check --tree judges session trees of recorded runs');
    expect(noTraces.stdout).toBe('');
    const file = sessionScenario(dir, '1');
    const limits = await cli('check', file, '--subagent-max-steps', '2');
    expect(limits.code).toBe(2);
    expect(limits.stderr).toContain('has no effect without --tree');
  });

  it('without --tree, the session-parts warning names check --tree', async () => {
    const r = await cli('check', sessionScenario(tempDir(), '12'));
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr.replace(/\s+/g, ' ')).toContain('check --tree judges each session as one run');
  });
});
