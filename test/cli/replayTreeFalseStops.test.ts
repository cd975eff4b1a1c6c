/**
 * `replay --tree` counts false stops as `sweep --tree` does: each session tree one run, against the tree with no
 * brakes and no per-agent limits (population/treeSweep.ts treeBaselineFigures; report/treeFalseStops.ts), with a
 * summary line in replay's words and the JSON summary's fields replay gives without --tree. Before, replay --tree
 * gave no false-stop figure while `sweep --tree --grid max-cost=2` said 2 (rate 1).
 */
import { describe, expect, it } from 'vitest';
import { cli, cliJson } from './run.js';

const SHARED = '../shared/agent-logs/claude-code';

interface Summary {
  falseStops?: number;
  falseStopRate?: number | null;
  completeWithoutBrakes?: number;
  falseStopsJudged?: { byGroundTruth: number; byRecordedEnd: number };
}

async function sweepFigures(grid: string, ...flags: string[]): Promise<[number, number | null]> {
  const row = (await cliJson('sweep', SHARED, '--tree', '--grid', grid, ...flags)).configurations[0];
  return [row.falseStops, row.falseStopRate];
}

describe('replay --tree: false stops against each no-brake tree, as sweep --tree', () => {
  it('--max-cost 2: 2 of the 2 trees that complete with no brakes, the line and the JSON fields', async () => {
    const summary = (await cliJson('replay', SHARED, '--tree', '--max-cost', '2')).summary as Summary;
    expect([summary.falseStops, summary.falseStopRate]).toEqual(await sweepFigures('max-cost=2'));
    expect(summary).toMatchObject({ falseStops: 2, falseStopRate: 1, completeWithoutBrakes: 2, falseStopsJudged: { byGroundTruth: 0, byRecordedEnd: 2 } });
    const text = await cli('replay', SHARED, '--tree', '--max-cost', '2');
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/^false stops: 2 \(100\.0% of the 2 trees that complete with no brakes; by their recordings' end\)\novershoot past the budget: /m);
  });

  it('a step cap one tree passes, and per-agent limits: equal to sweep --tree', async () => {
    const capped = (await cliJson('replay', SHARED, '--tree', '--max-steps', '200')).summary as Summary;
    expect([capped.falseStops, capped.falseStopRate]).toEqual([1, 0.5]);
    expect([capped.falseStops, capped.falseStopRate]).toEqual(await sweepFigures('max-steps=200'));
    const limited = (await cliJson('replay', SHARED, '--tree', '--max-steps', '200', '--subagent-max-steps', '2')).summary as Summary;
    expect([limited.falseStops, limited.falseStopRate]).toEqual(await sweepFigures('max-steps=200', '--subagent-max-steps', '2'));
  });

  it('no brake on: no line, no figures', async () => {
    const summary = (await cliJson('replay', SHARED, '--tree')).summary as Summary;
    expect(summary.falseStops).toBeUndefined();
    expect((await cli('replay', SHARED, '--tree')).stdout).not.toMatch(/false stops/);
  });
});
