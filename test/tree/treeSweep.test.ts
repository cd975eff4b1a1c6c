/**
 * `sweep --tree` on the two real Claude Code sessions: each session tree is one run, and every cell is
 * what `replay --tree` of that setting alone gives (stop reasons, tokens, spend); `--grid
 * subagent-max-steps` is refused without --tree.
 */
import { describe, expect, it } from 'vitest';
import { cli } from '../cli/run.js';

const SHARED = '../shared/agent-logs/claude-code';

interface TreeJson {
  stopReason: string;
  totals: { inputTokens: number; cachedInputTokens: number; outputTokens: number; costUsd: number };
}

describe('sweep --tree', () => {
  it('gives each configuration what replay --tree of that setting alone gives', async () => {
    const swept = await cli('sweep', '--tree', SHARED, '--grid', 'max-cost=1,4', '--grid', 'subagent-max-steps=2,50', '--format', 'json', '--workers', '1');
    expect(swept.code, swept.stderr).toBe(0);
    const rows = (JSON.parse(swept.stdout) as { configurations: { settings: string; runs: number; completed: number; stopReasons: Record<string, number>; costUsd: number; tokens: { input: number; cached: number; output: number } }[] }).configurations;
    expect(rows.map((row) => row.settings)).toEqual(['max-cost=1,subagent-max-steps=2', 'max-cost=1,subagent-max-steps=50', 'max-cost=4,subagent-max-steps=2', 'max-cost=4,subagent-max-steps=50']);
    for (const row of rows) {
      const [cost, steps] = row.settings.split(',').map((part) => part.split('=')[1]!);
      const alone = await cli('replay', '--tree', SHARED, '--max-cost', cost!, '--subagent-max-steps', steps!, '--format', 'json');
      expect(alone.code, alone.stderr).toBe(0);
      const trees = (JSON.parse(alone.stdout) as { trees: TreeJson[] }).trees;
      expect(row.runs).toBe(trees.length);
      const reasons: Record<string, number> = {};
      for (const tree of trees) reasons[tree.stopReason] = (reasons[tree.stopReason] ?? 0) + 1;
      expect(Object.fromEntries(Object.entries(row.stopReasons).filter(([, n]) => n !== 0)), row.settings).toEqual(reasons);
      expect(row.completed).toBe(reasons.completed ?? 0);
      const sum = (pick: (t: TreeJson['totals']) => number) => trees.reduce((n, tree) => n + pick(tree.totals), 0);
      expect(row.tokens, row.settings).toEqual({ input: sum((t) => t.inputTokens), cached: sum((t) => t.cachedInputTokens), output: sum((t) => t.outputTokens) });
      expect(row.costUsd).toBeCloseTo(sum((t) => t.costUsd), 6);
    }
    // The settings matter: a $1 budget stops both trees, $4 lets spend grow.
    expect(rows[0]!.costUsd).toBeLessThan(rows[2]!.costUsd);
  });

  it('refuses per-agent grid keys without --tree, naming the key', async () => {
    const r = await cli('sweep', 'test/fixtures/mini-swe-agent', '--grid', 'subagent-max-steps=2,5', '--format', 'json');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--grid subagent-max-steps');
    expect(r.stdout).toBe('');
  });
});
