/**
 * A tool call that starts several sub-agents (a tool that runs a scout, then a critic): the parent's call
 * record names every one (`startedAgentIds`), not the last only as `startedAgentId` did, so the tree
 * replay's unrecorded-sub-agent warning names each agent no recording was given for, and a whole recording
 * replays as the live tree. A tool call that starts one still writes `startedAgentId` (old readers, the
 * Codex importer's files).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/agent/clock.js';
import { fileRecorder } from '../../src/agent/recorder.js';
import { runAgentLoop } from '../../src/agent/run.js';
import { defineTool } from '../../src/agent/tools.js';
import type { AgentTool } from '../../src/agent/types.js';
import { NO_BRAKES } from '../../src/brakes/config.js';
import { FULL_HISTORY } from '../../src/context/strategy.js';
import { loadTraceFile } from '../../src/import/index.js';
import { unrecordedAgentsWarnings } from '../../src/report/warnings.js';
import { startedAgentIds } from '../../src/trace/startedAgents.js';
import { replayTree } from '../../src/tree/replayTree.js';
import { MINI, MINI_TABLE } from '../helpers.js';
import { answer, ScriptedModel, toolTurn } from './scripted.js';

const dir = mkdtempSync(join(tmpdir(), 'loopcost-several-subagents-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A step cap far above the tree's (a run needs a bound). */
const BRAKES = { ...NO_BRAKES, maxSteps: 50 };
const words = (text: string) => text.split(/\s+/).filter(Boolean).length;
const echo = defineTool<{ i: number }>({ name: 'echo', description: 'says it back', parameters: { type: 'object' }, run: ({ i }) => String(i) });

/** main calls `review` (a scout, then a critic, one after the other in the one tool call), then `ask` (one helper), then answers. */
async function liveTree(name: string, recordSubagents: boolean) {
  const files = [join(dir, `${name}-main.jsonl`)];
  const spec = (agentId: string) => {
    const file = join(dir, `${name}-${agentId}.jsonl`);
    if (recordSubagents) files.push(file);
    return { agentId, model: new ScriptedModel([toolTurn('echo', { i: 1 }), answer(`${agentId} done`)]), tools: [echo], context: { system: 's', goal: agentId }, ...(recordSubagents ? { recorder: fileRecorder(file) } : {}) };
  };
  const review: AgentTool = {
    name: 'review',
    description: 'a scout, then a critic',
    parameters: { type: 'object' },
    subagent: true,
    run: async (_args, context) => {
      const scout = await context.runSubagent!(spec('scout'));
      const critic = await context.runSubagent!(spec('critic'));
      return `${scout.finalText}; ${critic.finalText}`;
    },
  };
  const ask: AgentTool = { name: 'ask', description: 'one helper', parameters: { type: 'object' }, subagent: true, run: async (_args, context) => (await context.runSubagent!(spec('helper'))).finalText ?? '' };
  const main = new ScriptedModel([toolTurn('review', {}), toolTurn('ask', {}), answer('done')]);
  const run = await runAgentLoop({ model: main, tools: [review, ask], brakes: BRAKES, context: { system: 's', goal: 'g', countTokens: words }, pricing: MINI, clock: new VirtualClock(), recorder: fileRecorder(files[0]!) });
  const runs = (await Promise.all(files.map((file) => loadTraceFile(file)))).flat();
  return { run, runs };
}

describe('a tool call that starts several sub-agents', () => {
  it('its record names every one, in the order started; a call that started one names it as before', async () => {
    const { runs } = await liveTree('whole', true);
    const [review, ask] = runs[0]!.calls.map((call) => call.toolCalls?.[0]);
    expect(review!.startedAgentIds).toEqual(['scout', 'critic']);
    expect(review!.startedAgentId).toBeUndefined();
    expect(ask!.startedAgentId).toBe('helper');
    expect(ask!.startedAgentIds).toBeUndefined();
    expect(runs[0]!.calls.flatMap((call) => (call.toolCalls ?? []).map((tool) => startedAgentIds(tool)))).toEqual([['scout', 'critic'], ['helper']]);
  });

  it('recorded whole, it replays as the live tree, with no unrecorded agent', async () => {
    const { run, runs } = await liveTree('replayed', true);
    const tree = replayTree(runs, { brakes: BRAKES, strategy: FULL_HISTORY, prices: MINI_TABLE });
    expect(tree.unrecorded).toBeUndefined();
    expect(tree.agents.map((a) => [a.agentId, a.parentToolCallId, a.steps, a.costPico])).toEqual(run.tree!.agents.map((a) => [a.agentId, a.parentToolCallId, a.steps, a.costPico]));
    expect(tree.totals.costPico).toBe(run.tree!.totals.costPico);
  });

  it('recorded with the root’s recorder only: the tree replay’s warning names every agent started, not the last of each call', async () => {
    const { runs } = await liveTree('root-only', false);
    const tree = replayTree(runs, { brakes: BRAKES, strategy: FULL_HISTORY, prices: MINI_TABLE });
    expect(tree.unrecorded?.map((agent) => [agent.agentId, agent.startedBy])).toEqual([
      ['scout', 'main'],
      ['critic', 'main'],
      ['helper', 'main'],
    ]);
    const [warning] = unrecordedAgentsWarnings([{ sessionId: tree.sessionId, agents: tree.unrecorded! }]);
    expect(warning!.message).toContain('main started 3 agents with no recording among the inputs (scout, critic and helper)');
  });
});
