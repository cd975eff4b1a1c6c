/**
 * sweep reads each unit (a file, a share) through its own input set: a resumed or forked Claude Code
 * session's copied calls must still be counted once, the whole walk told to every unit (ReadOptions.walk),
 * as replay counts them. Review: sweep on a session and its resumed copy had a baseline of $15.9744, replay
 * $12.2257 (the copy's 40 calls counted again), with one or two workers.
 */
import { describe, expect, it } from 'vitest';
import { sessionFolder, withResumeCopy } from '../import/claudeCodeWildFixture.js';
import { cli } from './run.js';

const BASELINE_USD = 12.2407; // $12.2257 before the sub-agent's last output was its Task result's (997 tokens, not 1)
const round4 = (usd: number): number => Math.round(usd * 1e4) / 1e4;

describe('sweep over a session and its resumed copy', () => {
  it('has the baseline replay has, with one worker and with two (byte-identical)', async () => {
    const dir = sessionFolder();
    withResumeCopy(dir);
    const replay = await cli('replay', dir, '--format', 'json');
    expect(replay.code, replay.stderr).toBe(0);
    expect(round4(JSON.parse(replay.stdout).summary.totalCostUsd)).toBe(BASELINE_USD);
    const grid = ['--grid', 'max-steps=5,500', '--format', 'json'];
    const one = await cli('sweep', dir, ...grid, '--workers', '1');
    expect(one.code, one.stderr).toBe(0);
    const rows = JSON.parse(one.stdout).configurations as { baselineCostUsd: number; costUsd: number }[];
    for (const row of rows) expect(round4(row.baselineCostUsd)).toBe(BASELINE_USD); // was 15.9744
    expect(round4(rows[1]!.costUsd)).toBe(BASELINE_USD);
    const two = await cli('sweep', dir, ...grid, '--workers', '2');
    expect(two.code, two.stderr).toBe(0);
    expect(two.stdout).toBe(one.stdout);
  });
});
