/**
 * examples/reference-agent.ts's summary lines for a run with a sub-agent tool: `run.costPico` is the
 * parent's own spend, so the "spent:" the example prints is the tree's (`run.tree.totals.costPico`).
 */
import { describe, expect, it } from 'vitest';
import { formatUsd } from '../../src/money.js';
import { summaryLines } from '../../examples/reference-agent.js';
import { delegateOnce } from './delegation.js';
import { answer, ScriptedModel, toolTurn } from './scripted.js';

describe('examples/reference-agent.ts summary of a run with sub-agents', () => {
  it("prints the tree's spend (parent and sub-agent), not the parent's alone", async () => {
    const researcher = new ScriptedModel([toolTurn('echo', { text: 'a finding' }, { inputTokens: 1000, outputTokens: 100 }), answer('found it', { inputTokens: 1000, outputTokens: 100 })]);
    const run = await delegateOnce(researcher).run;
    const tree = run.tree!;
    expect(tree.totals.costPico).toBeGreaterThan(run.costPico);
    const line = summaryLines(run)[2]!;
    expect(line).toContain(`spent: ${formatUsd(tree.totals.costPico, 6)} with its sub-agents (2 agents, 4 steps; this agent ${formatUsd(run.costPico, 6)})`);
    expect(line).toMatch(/^steps: 2 {2}calls: 2 {2}/);
  });
});
