/**
 * A runSubagent kept past its tool call (the tool saves `context.runSubagent`, returns, and the saved
 * function is called later) is refused: a SubagentAfterToolCallError naming the agent asked for and the
 * tool call the function belonged to. Called while the run goes on (from a later tool), the run throws it on
 * as it throws a sub-agent's error; called after the run, it starts nothing. Before, the sub-agent ran: after
 * the run, in a tree whose report was already given (its model called, its spend in no total); during a
 * later tool call, counted as started by the earlier call, whose record had already been written.
 */
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/agent/clock.js';
import { runAgentLoop } from '../../src/agent/run.js';
import { SubagentAfterToolCallError } from '../../src/agent/toolCallStarts.js';
import type { AgentRunResult, AgentTool, SubagentSpec, ToolContext } from '../../src/agent/types.js';
import { NO_BRAKES } from '../../src/brakes/config.js';
import { MINI } from '../helpers.js';
import { answer, ScriptedModel, toolTurn } from './scripted.js';

const words = (text: string) => text.split(/\s+/).filter(Boolean).length;

/** main calls `keep` (which saves its runSubagent and returns), then `later` tools as scripted, then answers. */
function keptTree(laterCalls: number) {
  const kept: { runSubagent?: ToolContext['runSubagent']; callId?: string } = {};
  const helper = new ScriptedModel([answer('helped')]);
  const spec: SubagentSpec = { agentId: 'helper', model: helper, context: { system: 's', goal: 'help' } };
  const keep: AgentTool = {
    name: 'keep',
    description: 'saves its runSubagent for later',
    parameters: { type: 'object' },
    subagent: true,
    run: (_args, context) => {
      kept.runSubagent = context.runSubagent;
      kept.callId = context.callId;
      return 'kept';
    },
  };
  const later: AgentTool = { name: 'later', description: 'calls the saved runSubagent', parameters: { type: 'object' }, run: async () => (await kept.runSubagent!(spec)).finalText ?? '' };
  const main = new ScriptedModel([toolTurn('keep', {}), ...Array.from({ length: laterCalls }, () => toolTurn('later', {})), answer('done')]);
  const run = runAgentLoop({ model: main, tools: [keep, later], brakes: { ...NO_BRAKES, maxSteps: 20 }, context: { system: 's', goal: 'g', countTokens: words }, pricing: MINI, clock: new VirtualClock() });
  return { run, kept, helper, spec };
}

describe('a runSubagent kept past its tool call', () => {
  it('called after the run: refused, naming the agent and the tool call; nothing starts', async () => {
    const { run, kept, helper, spec } = keptTree(0);
    const result: AgentRunResult = await run;
    const error = await kept.runSubagent!(spec).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(SubagentAfterToolCallError);
    expect((error as SubagentAfterToolCallError).agentId).toBe('helper');
    expect((error as SubagentAfterToolCallError).parent).toEqual({ agentId: 'main', toolCallId: kept.callId });
    expect((error as Error).message).toContain(`sub-agent helper was started through the runSubagent of main's tool call ${kept.callId} after that tool call returned`);
    expect(helper.requests).toHaveLength(0);
    expect(result.tree!.agents.map((a) => a.agentId)).toEqual(['main']);
  });

  it('called from a later tool call of the run: refused, and the run throws it on', async () => {
    const { run, kept, helper } = keptTree(1);
    const error = await run.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(SubagentAfterToolCallError);
    expect((error as Error).message).toContain(`main's tool call ${kept.callId} after that tool call returned`);
    expect(helper.requests).toHaveLength(0);
  });
});
