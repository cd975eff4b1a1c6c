/**
 * `project`'s figures depend on the runs and the seed, not on the order the inputs list the runs in:
 * files given in another order, a directory (walked level by level, `b/` before `b-x/`) or a glob over it
 * (sorted as whole paths, `b-x/…` before `b/…`) give byte-identical JSON. The draws take the costs in
 * ascending order; where prompts pass a threshold is read against each run's own pricing and sorted.
 */
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectSpend, PromptCrossings } from '../../src/population/project.js';
import type { ModelPricing } from '../../src/pricing/types.js';
import { handPriced, MINI } from '../helpers.js';
import { cli, tempDir } from '../cli/run.js';

const projected = async (...argv: string[]) => {
  const result = await cli('project', ...argv, '--runs-per-day', '50', '--days', '5', '--seed', '1', '--trials', '200', '--format', 'json');
  expect(result.code, result.stderr).toBe(0);
  return result.stdout;
};

describe('project is independent of input order', () => {
  it('the same costs in any order → the same projection (days drawn run by run and by counts, and the bootstrap)', () => {
    const costs = Array.from({ length: 40 }, (_, i) => 1_000_000_000 + ((i * 7919) % 40) * 37_000_000 + (i % 9 === 0 ? 8e10 : 0));
    const reversed = [...costs].reverse();
    for (const runsPerDay of [50, 5000]) {
      const options = { runsPerDay, days: 5, seed: 1, trials: 50, resamples: 50 };
      expect(projectSpend(reversed, options)).toEqual(projectSpend(costs, options));
    }
  });

  it('files permuted, a directory and a glob over it → byte-identical JSON', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'b'));
    mkdirSync(join(dir, 'b-x'));
    const first = join(dir, 'b', 'r.jsonl');
    const second = join(dir, 'b-x', 'r.jsonl');
    copyFileSync('scenarios/long-exploration.jsonl', first);
    copyFileSync('scenarios/backtracking-explorer.jsonl', second);
    const walked = await projected(dir);
    expect(await projected(`${dir}/**/*.jsonl`)).toBe(walked);
    expect(await projected(second, first)).toBe(walked);
    expect(await projected(first, second)).toBe(walked);
  });

  it("a model's dated thresholds: each run is read against its own pricing's, in the same order whatever order runs came", () => {
    // One model on two days: a long-context tier on the first, none on the second (as claude-sonnet-4-6's March 2026 change).
    const tiered: ModelPricing = { ...handPriced('m', { input: 1, output: 2 }, 1000), tiers: [{ aboveInputTokens: 500, prices: { input: 2_000_000, output: 4_000_000 } }] };
    const untiered: ModelPricing = { ...tiered, tiers: [] };
    const rows = (...inputs: number[]) => inputs.map((inputTokens, i) => ({ step: i + 1, inputTokens }));
    const runs: [ModelPricing, ReturnType<typeof rows>][] = [
      [untiered, rows(100, 700)],
      [MINI, rows(100)],
      [tiered, rows(100, 600)],
    ];
    const crossingsOf = (order: typeof runs) => {
      const crossings = new PromptCrossings({ maxOutputTokens: 100 });
      for (const [pricing, r] of order) crossings.add(pricing, r);
      return crossings.crossings();
    };
    const forward = crossingsOf(runs);
    expect(crossingsOf([...runs].reverse())).toEqual(forward);
    expect(forward.map((c) => [c.model, c.kind, c.aboveInputTokens, c.runs, c.runsCrossing])).toEqual([
      ['m', 'price_tier', 500, 1, 1],
      ['m', 'context_window', 900, 2, 0],
      ['mini', 'context_window', 127_900, 1, 0],
    ]);
  });
});
