/**
 * A sub-agent a brake stops ends its parent's tool call with `sub-agent <id> stopped: <reason>`, the id
 * the tree gave that start: the second start of `researcher` is `researcher#2` there as in the tree's
 * agents, its recording and `replay --tree`.
 */
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/agent/clock.js';
import { runAgentLoop } from '../../src/agent/run.js';
import { defineSubagentTool } from '../../src/agent/subagent.js';
import { defineTool } from '../../src/agent/tools.js';
import { NO_BRAKES } from '../../src/brakes/config.js';
import { MINI } from '../helpers.js';
import { answer, ScriptedModel, toolTurn } from './scripted.js';

const words = (text: string) => text.split(/\s+/).filter(Boolean).length;
const echo = defineTool<{ text: string }>({ name: 'echo', description: 'says it back', parameters: { type: 'object' }, run: ({ text }) => text });

/** main starts `researcher` twice (one tool call each), each start stopped by the per-sub-agent step limit of 2. */
async function twoStarts() {
  const researcher = new ScriptedModel(Array.from({ length: 4 }, (_, i) => toolTurn('echo', { text: `finding ${i}` })));
  const delegate = defineSubagentTool<{ task: string }>({
    name: 'delegate',
    description: 'hands a task to a researcher',
    parameters: { type: 'object', properties: { task: { type: 'string' } } },
    agent: ({ task }) => ({ agentId: 'researcher', model: researcher, tools: [echo], context: { system: 'You research.', goal: task } }),
  });
  const main = new ScriptedModel([toolTurn('delegate', { task: 'first' }), toolTurn('delegate', { task: 'second' }), answer('done')]);
  return runAgentLoop({ model: main, tools: [delegate], brakes: NO_BRAKES, unbounded: true, subagentLimits: { maxSteps: 2 }, context: { system: 's', goal: 'g', countTokens: words }, pricing: MINI, clock: new VirtualClock() });
}

describe('a stopped sub-agent’s error names its start', () => {
  it('the second start of researcher stops as `sub-agent researcher#2`, the id the tree lists it by', async () => {
    const run = await twoStarts();
    expect(run.tree!.stopped.map((s) => [s.agentId, s.reason])).toEqual([
      ['researcher', 'max_steps'],
      ['researcher#2', 'max_steps'],
    ]);
    const observations = run.messages.filter((m) => m.role === 'tool').map((m) => m.content);
    expect(observations).toHaveLength(2);
    expect(observations[0]).toMatch(/^sub-agent researcher stopped: max_steps \(/);
    expect(observations[1]).toMatch(/^sub-agent researcher#2 stopped: max_steps \(/);
  });
});
