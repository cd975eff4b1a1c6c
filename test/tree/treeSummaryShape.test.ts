/**
 * `replay --tree --format json`'s summary has the flat replay's shape (report/treeSummary.ts: the same builder,
 * replay/summary.ts summarise and report/records.ts summaryRecord, each session tree one run): `runs`,
 * `completed`, `completionRate`, every stop reason with 0 where none, spend and overshoot — with its own
 * figures (`trees`, `agents`, `calls`, `costUsd`, `stoppedAgents`) beside them. Before, its `stopReasons`
 * listed only the reasons some tree stopped with (`{"completed":2}`) and it had no `runs`, `completed` nor
 * `completionRate`.
 */
import { describe, expect, it } from 'vitest';
import { cliJson } from '../cli/run.js';

const SHARED = '../shared/agent-logs/claude-code';

type Summary = Record<string, unknown> & { runs: number; completed: number; completionRate: number; stopReasons: Record<string, number> };

/** A field's kind (a figure that may be null, as `costPerCompletedRunUsd` with no completed run, is a number's). */
const kind = (value: unknown) => (value === null || typeof value === 'number' ? 'number or null' : Array.isArray(value) ? 'array' : typeof value);

describe('replay --tree: the JSON summary as the flat replay gives it', () => {
  // The brakes, and the per-agent limits (--tree alone takes them).
  for (const [brakes, limits] of [[[], []], [['--max-cost', '2'], []], [['--max-steps', '200'], ['--subagent-max-steps', '2']]]) {
    it(`every field of the flat replay's summary, of the same kind, stop reasons all listed: ${[...brakes!, ...limits!].join(' ') || 'no brakes'}`, async () => {
      const flat = (await cliJson('replay', SHARED, ...brakes!)).summary as Summary;
      const tree = (await cliJson('replay', '--tree', SHARED, ...brakes!, ...limits!)).summary as Summary;
      for (const [key, value] of Object.entries(flat)) expect([key, kind(tree[key])]).toEqual([key, kind(value)]);
      expect(Object.keys(tree.stopReasons)).toEqual(Object.keys(flat.stopReasons));
      // Each tree one run: its stops add up to the trees, its completions are its `completed` stops.
      expect(tree.runs).toBe(tree.trees);
      expect(Object.values(tree.stopReasons).reduce((sum, n) => sum + n, 0)).toBe(tree.runs);
      expect(tree.completed).toBe(tree.stopReasons.completed);
      expect(tree.completionRate).toBe(tree.completed / tree.runs);
      expect(tree.totalCostUsd).toBe(tree.costUsd);
      // The tree's own figures are kept.
      for (const key of ['trees', 'agents', 'calls', 'costUsd', 'stoppedAgents', 'sessionsWithSubagentsStopped', 'subagentFalseStops']) expect(typeof tree[key], key).toBe('number');
    });
  }
});
