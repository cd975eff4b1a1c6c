/**
 * What a context strategy did is in a session tree's figures too: summary calls and their cost, cache
 * hits lost, per agent and for the tree — and with no brake, the trees' totals are the sum of what the
 * same runs give replayed one by one (the real Claude Code sessions of ../shared, sub-agents included).
 */
import { describe, expect, it } from 'vitest';
import { cli } from '../cli/run.js';

const SESSIONS = '../shared/agent-logs/claude-code';
const sum = (values: (number | undefined)[]) => values.reduce<number>((s, v) => s + (v ?? 0), 0);

describe('context strategy figures in session trees', () => {
  // model=gpt-4o-mini: the summary calls priced as another model than the runs' (Claude), in trees as alone.
  for (const context of ['window:8', 'summary:trigger=30000,keep=4,tokens=500', 'summary:trigger=30000,keep=4,tokens=500,model=gpt-4o-mini']) {
    it(`--context ${context}: each tree's totals are its agents' sums, and all trees' the lone runs' sums`, async () => {
      const tree = JSON.parse((await cli('replay', SESSIONS, '--tree', '--context', context, '--format', 'json')).stdout);
      const lone = JSON.parse((await cli('replay', SESSIONS, '--context', context, '--format', 'json')).stdout);
      const fields = context.startsWith('window') ? ['strategyCacheLostTokens'] : ['summaryCalls', 'summaryCostUsd', 'strategyCacheLostTokens'];
      for (const field of fields) {
        expect(lone.summary[field] ?? 0).toBeGreaterThan(0);
        for (const t of tree.trees) expect(t.totals[field]).toBeCloseTo(sum(t.agents.map((a: Record<string, number>) => a[field])), 9);
        expect(sum(tree.trees.map((t: { totals: Record<string, number> }) => t.totals[field]))).toBeCloseTo(lone.summary[field], 9);
      }
      const text = (await cli('replay', SESSIONS, '--tree', '--context', context)).stdout;
      expect(text).toMatch(/context strategy \(tree\): [\s\S]*?cache hits lost to strategy:/);
    });
  }
});
