/**
 * The loose ends of session trees under `--preset recorded` and recordings that state their context strategy:
 * the tree report's overshoot is each tree's spend past the budget its recordings state (not only a budget given
 * as a flag); `sweep`, `project` and `check` refuse `--preset recorded --tree` saying what to do (each holds every
 * tree to one set of brakes); `whatif --tree`'s baseline is each tree under its recordings' limits, as
 * `replay --tree --preset recorded` gives it.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempDir } from './run.js';

const header = (agent: string, settings: string) => `{"type":"header","schema":"loopcost.trace/1","model":"gpt-4o","systemTokens":10,"goalTokens":5,"origin":"recorded","recordedSettings":${settings},"agent":${agent}}`;
/** $0.0003 a call on gpt-4o (100 in at $2.50/M, 5 out at $10/M). */
const CALL = '{"type":"call","inputTokens":100,"outputTokens":5,"toolCalls":[{"name":"read","arguments":{"f":1},"resultTokens":10}]}';
const END = '{"type":"end","outcome":"completed"}';
const TASK = (id: string, agent: string) => `{"type":"call","inputTokens":100,"outputTokens":5,"toolCalls":[{"name":"Task","arguments":{"t":"${id}"},"resultTokens":10,"id":"${id}","startedAgentId":"${agent}"}]}`;
const sub = (session: string, id: string, call: string) => `{"sessionId":"${session}","agentId":"${id}","kind":"subagent","parentAgentId":"main","parentToolCallId":"${call}"}`;

/** A tree (session `session`) whose main states `mainSettings` and whose two sub-agents (four calls each) state `subSettings`. */
export function recordedTree(dir: string, session: string, mainSettings: string, subSettings: string): string[] {
  const files: [string, string[]][] = [
    [`${session}-main.jsonl`, [header(`{"sessionId":"${session}","agentId":"main","kind":"main"}`, mainSettings), TASK('t1', 'a'), TASK('t2', 'b'), CALL, CALL, END]],
    [`${session}-a.jsonl`, [header(sub(session, 'a', 't1'), subSettings), CALL, CALL, CALL, CALL, END]],
    [`${session}-b.jsonl`, [header(sub(session, 'b', 't2'), subSettings), CALL, CALL, CALL, CALL, END]],
  ];
  return files.map(([name, lines]) => {
    writeFileSync(join(dir, name), lines.join('\n') + '\n');
    return join(dir, name);
  });
}

const json = async (...args: string[]) => {
  const r = await cli(...args, '--format', 'json');
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
};

describe('replay --tree --preset recorded: the overshoot is past each tree’s recorded budget', () => {
  it('gives each tree’s overshoot past its own recorded budget, as the same budget given as a flag does', async () => {
    const dir = tempDir();
    // Tree s1 states a $0.001 budget (the check stops it after its spend passes it), s2 a $0.002 one.
    const files = [...recordedTree(dir, 's1', '{"maxCostUsd":0.001}', '{}'), ...recordedTree(dir, 's2', '{"maxCostUsd":0.002}', '{}')];
    const recorded = await json('replay', '--tree', ...files, '--preset', 'recorded');
    const one = await json('replay', '--tree', ...files.slice(0, 3), '--max-cost', '0.001');
    const two = await json('replay', '--tree', ...files.slice(3), '--max-cost', '0.002');
    const overshoots = [one.trees[0].overshootUsd, two.trees[0].overshootUsd];
    expect(overshoots.every((usd: number) => usd > 0)).toBe(true);
    expect(recorded.trees.map((tree: { overshootUsd?: number }) => tree.overshootUsd)).toEqual(overshoots);
    expect(recorded.summary.maxOvershootUsd).toBe(Math.max(...overshoots));
    const total = Math.round((overshoots[0] + overshoots[1]) * 1e12) / 1e12;
    expect(recorded.summary.totalOvershootUsd).toBe(total);
    const table = await cli('replay', '--tree', ...files, '--preset', 'recorded');
    expect(table.stdout).toMatch(/\novershoot past the budget: total \$[0-9.]+, largest tree \$[0-9.]+\n/);
    // A tree stating no budget has no overshoot figure, beside one that has.
    const mixed = await json('replay', '--tree', ...files.slice(0, 3), ...recordedTree(dir, 's3', '{"maxSteps":50}', '{}'), '--preset', 'recorded');
    expect(mixed.trees.map((tree: { overshootUsd?: number }) => tree.overshootUsd)).toEqual([overshoots[0], undefined]);
  });
});

/** Each session's stop as counted (the main agent's, or `countedAs`: a stopped sub-agent's that completes in its recording, tree/sessionStop.ts), steps and cost. */
const treeFigures = (report: { trees: { stopReason: string; countedAs?: { stopReason: string }; totals: { steps: number; costUsd: number }; agents: { agent: string; steps: number }[] }[] }) =>
  report.trees.map((t) => [t.countedAs?.stopReason ?? t.stopReason, t.totals.steps, t.totals.costUsd]);

describe('whatif --tree: the baseline is each tree under its recordings’ limits', () => {
  it('gives replay --tree --preset recorded as its baseline; a --try on top keeps the stated per-agent limits, one naming a preset the flags’', async () => {
    const files = recordedTree(tempDir(), 's1', '{"maxSteps":9}', '{"maxSteps":2}');
    type Row = { setting: string; baselineStopReason: string; baselineSteps: number; baselineCostUsd: number; stopReason: string; steps: number; costUsd: number };
    const report = await json('whatif', '--tree', ...files, '--try', 'max-steps=20', '--try', 'preset=none,max-steps=20');
    const [onTop, preset] = report.runs as Row[];
    // Under its recordings' limits: the sub-agents stop at 2 steps each, the main agent goes on (4 + 2 + 2 = 8 steps);
    // the sub-agents complete in their recordings, so the session counts as stopped by max_steps, not completed.
    const recorded = treeFigures(await json('replay', '--tree', ...files, '--preset', 'recorded'));
    expect(recorded).toEqual([['max_steps', 8, 0.0024]]);
    for (const row of [onTop!, preset!]) expect([row.baselineStopReason, row.baselineSteps, row.baselineCostUsd]).toEqual(recorded[0]);
    // On top: the tree's step cap raised, the sub-agents still held to the 2 steps they state.
    expect(onTop!.setting).toBe('max-steps=20');
    expect(treeFigures(await json('replay', '--tree', ...files, '--preset', 'recorded', '--max-steps', '20'))).toEqual([[onTop!.stopReason, onTop!.steps, onTop!.costUsd]]);
    expect(onTop!.steps).toBe(8);
    // Naming a preset: a whole set in place of the baseline's, no per-agent limits (none given as flags).
    expect(treeFigures(await json('replay', '--tree', ...files, '--max-steps', '20'))).toEqual([[preset!.stopReason, preset!.steps, preset!.costUsd]]);
    expect(preset!.steps).toBe(12);
    expect(report.warnings.find((w: { code: string }) => w.code === 'tree').message).toContain("the baseline is each tree under its recordings' limits");
    // Flags on top of the stated limits under a --try on top, in place of them under a preset.
    const flagged = await json('whatif', '--tree', ...files, '--try', 'max-steps=20', '--try', 'preset=none,max-steps=20', '--subagent-max-steps', '3');
    expect((flagged.runs as Row[]).map((row) => [row.baselineSteps, row.steps])).toEqual([[8, 10], [8, 10]]);
  });
});

describe('--preset recorded --tree where every tree is held to one set of brakes', () => {
  it('sweep, project and check refuse it, saying what to do instead (exit 2, no stack)', async () => {
    const dir = tempDir();
    const files = recordedTree(dir, 's1', '{"maxSteps":9}', '{"maxSteps":2}');
    const scenario = join(dir, 'trees.yaml');
    writeFileSync(scenario, `scenario: loopcost.scenario/1\nname: trees\ntraces: ${JSON.stringify(files)}\nexpect:\n  runs:\n    steps: { max: 1000 }\n`);
    const runs = [
      ['sweep', '--tree', ...files, '--grid', 'max-steps=5,10', '--preset', 'recorded'],
      ['project', '--tree', ...files, '--runs-per-day', '10', '--preset', 'recorded'],
      ['check', '--tree', scenario, '--preset', 'recorded'],
    ];
    for (const argv of runs) {
      const r = await cli(...argv);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.stderr, argv[0]).toContain("field '--preset': 'recorded' (each session tree under the limits its recordings state) is not taken with --tree here");
      expect(r.stderr, argv[0]).toContain('to replay each tree under its recordings\' limits: loopcost replay --tree --preset recorded');
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
    // Without --tree, as before.
    expect((await cli('sweep', ...files, '--grid', 'max-steps=5,10', '--preset', 'recorded')).stderr).toContain("'recorded' (each run's own limits) is not one configuration shared by every run");
    expect((await cli('check', '--tree', scenario)).code).toBe(0);
  });
});
