/**
 * examples/reference-agent.ts's summary lines for a run with a sub-agent tool: `run.costPico` is the
 * parent's own spend, so the "spent:" the example prints is the tree's (`run.tree.totals.spentPico`).
 */
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/agent/clock.js';
import { runAgentLoop } from '../../src/agent/run.js';
import { defineSubagentTool } from '../../src/agent/subagent.js';
import { defineTool } from '../../src/agent/tools.js';
import { NO_BRAKES } from '../../src/brakes/config.js';
import { formatUsd } from '../../src/money.js';
import { summaryLines } from '../../examples/reference-agent.js';
import { MINI } from '../helpers.js';
import { answer, ScriptedModel, toolTurn } from './scripted.js';

const words = (text: string) => text.split(/\s+/).filter(Boolean).length;
const echo = defineTool<{ text: string }>({ name: 'echo', description: 'says it back', parameters: { type: 'object' }, run: ({ text }) => text });

describe('examples/reference-agent.ts summary of a run with sub-agents', () => {
  it("prints the tree's spend (parent and sub-agent), not the parent's alone", async () => {
    const researcher = new ScriptedModel([toolTurn('echo', { text: 'a finding' }, { inputTokens: 1000, outputTokens: 100 }), answer('found it', { inputTokens: 1000, outputTokens: 100 })]);
    const delegate = defineSubagentTool<{ task: string }>({
      name: 'delegate',
      description: 'hands a task to a researcher',
      parameters: { type: 'object', properties: { task: { type: 'string' } } },
      agent: ({ task }) => ({ agentId: 'researcher', model: researcher, tools: [echo], context: { system: 'You research.', goal: task } }),
    });
    const main = new ScriptedModel([toolTurn('delegate', { task: 'find it' }, { inputTokens: 1000, outputTokens: 50 }), answer('done', { inputTokens: 1000, outputTokens: 50 })]);
    const run = await runAgentLoop({ model: main, tools: [delegate], brakes: NO_BRAKES, context: { system: 's', goal: 'g', countTokens: words }, pricing: MINI, clock: new VirtualClock() });
    const tree = run.tree!;
    expect(tree.totals.spentPico).toBeGreaterThan(run.costPico);
    const line = summaryLines(run)[2]!;
    expect(line).toContain(`spent: ${formatUsd(tree.totals.spentPico, 6)} with its sub-agents (2 agents, 4 steps; this agent ${formatUsd(run.costPico, 6)})`);
    expect(line).toMatch(/^steps: 2 {2}calls: 2 {2}/);
  });
});
