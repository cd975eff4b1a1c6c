/**
 * A sub-agent the tree's budget stops before its first call: the live tree lists it stopped (by the tree,
 * ending its parent's tool call), and its recording is a header and an end, no call. `replay --tree` of the
 * recordings (replayTree) used to give it no step at all: not listed in `stopped`, its row cut by its
 * parent (`main stopped (budget)`, by: parent), no tool call ended. Now such a run takes the check before
 * the call it never made, where the structure puts it (tree/schedule.ts withNoCallRuns): the replay lists
 * the same agents, with the same stop, in the same order, dated or not.
 */
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/agent/clock.js';
import { memoryRecorder } from '../../src/agent/recorder.js';
import { runAgentLoop } from '../../src/agent/run.js';
import { defineSubagentTool } from '../../src/agent/subagent.js';
import { defineTool } from '../../src/agent/tools.js';
import type { ModelTurn } from '../../src/agent/types.js';
import { NO_BRAKES, type BrakeConfig } from '../../src/brakes/config.js';
import { FULL_HISTORY } from '../../src/context/strategy.js';
import type { Trace } from '../../src/trace/types.js';
import { replayTree } from '../../src/tree/replayTree.js';
import { treeSchedule } from '../../src/tree/schedule.js';
import { sessionTrees } from '../../src/tree/group.js';
import { MINI, MINI_TABLE } from '../helpers.js';
import { answer, ScriptedModel, toolTurn } from '../agent/scripted.js';

const words = (text: string) => text.split(/\s+/).filter(Boolean).length;
const echo = defineTool<{ i: number }>({ name: 'echo', description: 'says it back', parameters: { type: 'object' }, run: ({ i }) => String(i) });
const small = { inputTokens: 1000, outputTokens: 50 };

/** main's first response (`first`: its tool calls, each a delegate to `sub-<task>`, three echo steps and an answer), then its answer; every agent recorded. */
async function liveTree(first: { tasks: string[]; inputTokens: number }, brakes: BrakeConfig) {
  const recorders = [memoryRecorder('main')];
  const delegate = defineSubagentTool<{ task: string }>({
    name: 'delegate',
    description: 'hands a task to a sub-agent',
    parameters: { type: 'object' },
    agent: ({ task }) => {
      const recorder = memoryRecorder(`sub-${task}`);
      recorders.push(recorder);
      const steps = [0, 1, 2].map((i) => toolTurn('echo', { i }, small));
      return { agentId: `sub-${task}`, model: new ScriptedModel([...steps, answer('found', small)]), tools: [echo], context: { system: 's', goal: task }, recorder };
    },
  });
  const response: ModelTurn = {
    text: null,
    toolCalls: first.tasks.map((task, i) => ({ id: `d${i}`, name: 'delegate', arguments: JSON.stringify({ task }) })),
    usage: { inputTokens: first.inputTokens, outputTokens: 50 },
  };
  const main = new ScriptedModel([response, answer('done', small)]);
  const run = await runAgentLoop({ model: main, tools: [delegate], brakes, context: { system: 's', goal: 'g', countTokens: words }, pricing: MINI, clock: new VirtualClock(), recorder: recorders[0]! });
  return { live: run.tree!, runs: recorders.map((recorder) => recorder.trace()) };
}

const undated = (runs: Trace[]): Trace[] => runs.map((run) => ({ ...run, header: { ...run.header, recordedAt: undefined } as Trace['header'] }));
const stops = (stopped: readonly { agentId: string; reason: string; by?: string }[]) => stopped.map((s) => [s.agentId, s.reason, s.by]);
const rows = (agents: readonly { agentId: string; steps: number; costPico: number; stop?: { reason: string; by?: string } }[]) => agents.map((a) => [a.agentId, a.steps, a.costPico, a.stop?.reason, a.stop?.by]);

describe('a sub-agent the tree budget stops before its first call', () => {
  it.each([
    [
      'the parent’s first call spends the budget: its only sub-agent makes no call',
      { tasks: ['a'], inputTokens: 100_000 },
      1_000_000_000,
      [['sub-a', 'budget', 'tree'], ['main', 'budget', 'tree']],
    ],
    [
      'two sub-agents of one response: the first spends the budget mid-run, the second makes no call',
      { tasks: ['a', 'b'], inputTokens: 1000 },
      600_000_000,
      [['sub-a', 'budget', 'tree'], ['sub-b', 'budget', 'tree'], ['main', 'budget', 'tree']],
    ],
  ] as const)('%s: replay --tree lists the same stops as the live tree, dated or not', async (_, first, maxCostPico, expected) => {
    const brakes = { ...NO_BRAKES, maxCostPico };
    const { live, runs } = await liveTree({ tasks: [...first.tasks], inputTokens: first.inputTokens }, brakes);
    expect(stops(live.stopped)).toEqual(expected);
    const last = expected.at(-2)![0];
    // Its recording: a header and an end, no call.
    expect(runs.find((run) => run.header.agent?.agentId === last)!.calls).toHaveLength(0);
    for (const recorded of [runs, undated(runs)]) {
      const tree = replayTree(recorded, { brakes, strategy: FULL_HISTORY, prices: MINI_TABLE });
      expect(stops(tree.stopped)).toEqual(stops(live.stopped));
      const liveRows = live.agents.map((a) => ({ ...a, stop: { reason: a.stop.reason, ...(a.by ? { by: a.by } : {}) } }));
      expect(rows(tree.agents)).toEqual(rows(liveRows));
      expect([tree.totals.steps, tree.totals.costPico]).toEqual([live.totals.steps, live.totals.costPico]);
      // Its stop ends the parent's tool call that started it, as the live parent saw it.
      expect(tree.agents.find((a) => a.agentId === last)!.endedToolCall).toEqual({ agentId: 'main', toolCallId: `d${first.tasks.length - 1}`, reason: 'budget' });
    }
  });

  it('the schedule gives the run with no call one entry, after its parent’s call and the calls of the sub-agent that call started before it', async () => {
    const { runs } = await liveTree({ tasks: ['a', 'b'], inputTokens: 1000 }, { ...NO_BRAKES, maxCostPico: 600_000_000 });
    const [tree] = sessionTrees(runs).trees;
    const ids = tree!.agents.map((agent) => agent.agentId);
    const order = (schedule: ReturnType<typeof treeSchedule>) => schedule.map((at) => `${ids[at.agent]}:${at.call}${at.noCall ? ' (no call)' : ''}`);
    const subA = runs.find((run) => run.header.agent?.agentId === 'sub-a')!.calls.map((_, c) => `sub-a:${c}`);
    expect(subA.length).toBeGreaterThan(1);
    const expected = ['main:0', ...subA, 'sub-b:0 (no call)'];
    expect(order(treeSchedule(tree!))).toEqual(expected);
    expect(order(treeSchedule(sessionTrees(undated(runs)).trees[0]!))).toEqual(expected);
  });
});
