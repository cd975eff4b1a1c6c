/**
 * A sweep's recommendation halves the recommended configuration's step cap to show what a tighter cap costs
 * in completions. The cap a scenario file sets (support.yaml: max-steps 15) is one its runs take, yet the
 * report said "It has no step cap to halve" (halfStepCap null): it read only the flags' and grid's cap.
 * Now the file's cap is halved too, and the figures are replay's of the halved setting.
 */
import { describe, expect, it } from 'vitest';
import { cli } from './run.js';

const SUPPORT = 'test/fixtures/ground-truth/support.yaml';
const GRID = ['--grid', 'max-repeat=2,3,5', '--target-completion', '0.5', '--format', 'json'];

describe("sweep --target-completion halves a scenario file's own step cap", () => {
  it('support.yaml (max-steps 15): the cap halved to 7, as replay --max-steps 7 gives it, one thread or two', async () => {
    const one = await cli('sweep', SUPPORT, ...GRID, '--workers', '1');
    expect(one.code, one.stderr).toBe(0);
    const two = await cli('sweep', SUPPORT, ...GRID, '--workers', '2');
    expect(two.stdout).toBe(one.stdout);
    const { recommendation } = JSON.parse(one.stdout) as { recommendation: { flags: string; halfStepCap: { maxSteps: number; completed: number; costUsd: number } | null } };
    expect(recommendation.halfStepCap).not.toBeNull();
    expect(recommendation.halfStepCap!.maxSteps).toBe(7);
    const replayed = await cli('replay', SUPPORT, ...recommendation.flags.split(' '), '--max-steps', '7', '--format', 'json');
    const summary = (JSON.parse(replayed.stdout) as { summary: { completed: number; totalCostUsd: number } }).summary;
    expect([recommendation.halfStepCap!.completed, recommendation.halfStepCap!.costUsd]).toEqual([summary.completed, summary.totalCostUsd]);
  });
});
