/**
 * An agent row's stop detail tells the agent's stop over the agent (src/tree/result.ts agentStopDetail):
 * the part it came from and the agent's steps over all its parts, as the tree's detail names the part
 * and the tree's steps (stopDetailOver). Shared Claude Code sessions, bundled prices.
 */
import { describe, expect, it } from 'vitest';
import { cli } from '../cli/run.js';

const SHARED = '../shared/agent-logs/claude-code';

interface AgentRow {
  agent: string;
  parts: number;
  steps: number;
  stopReason: string;
  stopDetail: string;
}

describe("replay --tree: each agent's stop detail is the agent's", () => {
  it('an agent of three parts names its part and its own steps over them; a one-part agent its run\'s, which are its own', async () => {
    const run = await cli('replay', '--tree', SHARED, '--format', 'json');
    expect(run.code, run.stderr).toBe(0);
    const trees = (JSON.parse(run.stdout) as { trees: { stopDetail: string; agents: AgentRow[] }[] }).trees;
    const rows = trees.map((tree) => tree.agents.map((agent) => [agent.agent, agent.parts, agent.steps, agent.stopDetail]));
    expect(rows).toEqual([
      [
        ['main', 3, 152, 'part 3 of 3: final answer after 1 step; agent: 152 steps'],
        ['a881341', 1, 3, 'final answer after 3 steps'],
      ],
      [
        ['main', 3, 217, 'part 3 of 3: final answer after 79 steps; agent: 217 steps'],
        ['aac57f5', 1, 3, 'final answer after 3 steps'],
      ],
    ]);
    // The tree's detail as before: the agent, its part, the tree's steps.
    expect(trees.map((tree) => tree.stopDetail)).toEqual(['main, part 3 of 3: final answer after 1 step; tree: 155 steps', 'main, part 3 of 3: final answer after 79 steps; tree: 220 steps']);
    const csv = await cli('replay', '--tree', SHARED, '--format', 'csv');
    expect(csv.stdout).toContain('part 3 of 3: final answer after 1 step; agent: 152 steps');
  });

  it("a stop by the tree's brakes stays told on the tree's totals, on the tree and the agent alike", async () => {
    const run = await cli('replay', '--tree', `${SHARED}/ae4a77f8-aedd-4bc1-888f-c94edc91af04.jsonl.gz`, '--max-steps', '60', '--format', 'json');
    const [tree] = (JSON.parse(run.stdout) as { trees: { stopDetail: string; agents: AgentRow[] }[] }).trees;
    expect(tree!.stopDetail).toBe('60 steps taken, limit 60');
    expect(tree!.agents[0]!.stopDetail).toBe('60 steps taken, limit 60');
  });
});
