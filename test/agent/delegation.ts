/** A parent agent that delegates once to a scripted `researcher` sub-agent, then answers: shared by the sub-agent tests. */
import { VirtualClock } from '../../src/agent/clock.js';
import { runAgentLoop } from '../../src/agent/run.js';
import { defineSubagentTool } from '../../src/agent/subagent.js';
import { defineTool } from '../../src/agent/tools.js';
import { NO_BRAKES, type BrakeConfig } from '../../src/brakes/config.js';
import { MINI } from '../helpers.js';
import { answer, ScriptedModel, toolTurn } from './scripted.js';

const words = (text: string) => text.split(/\s+/).filter(Boolean).length;
/** The researcher's tool: says its text back. */
const echo = defineTool<{ text: string }>({ name: 'echo', description: 'says it back', parameters: { type: 'object' }, run: ({ text }) => text });

/** main (1,000 tokens in, 50 out a call) calls `delegate` once — `researcher` with the echo tool — then answers, on MINI under `brakes`. */
export function delegateOnce(researcher: ScriptedModel, brakes: BrakeConfig = NO_BRAKES) {
  const delegate = defineSubagentTool<{ task: string }>({
    name: 'delegate',
    description: 'hands a task to a researcher',
    parameters: { type: 'object', properties: { task: { type: 'string' } } },
    agent: ({ task }) => ({ agentId: 'researcher', model: researcher, tools: [echo], context: { system: 'You research.', goal: task } }),
  });
  const main = new ScriptedModel([toolTurn('delegate', { task: 'find it' }, { inputTokens: 1000, outputTokens: 50 }), answer('done', { inputTokens: 1000, outputTokens: 50 })]);
  return { main, run: runAgentLoop({ model: main, tools: [delegate], brakes, unbounded: true, context: { system: 's', goal: 'g', countTokens: words }, pricing: MINI, clock: new VirtualClock() }) };
}
