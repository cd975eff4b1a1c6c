/**
 * One tree, three ways: run live (runAgentLoop), its recordings replayed (replayTrees), and simulated
 * (runAgentTree) with each agent's source playing its recorded run. `main` starts `researcher` twice,
 * each start starts a `helper`; the ids the simulated tree's agents give are the bare ones (as a
 * synthetic policy's are). All three name the starts alike (`researcher#2`, `helper#2`: src/tree/startIds.ts),
 * report the same agents, stops and figures, and end the parent's tool calls with the same errors — so
 * main's same-error brake (max-same-error=2) sees two different errors in each, not one error twice.
 */
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/agent/clock.js';
import { runAgentLoop } from '../../src/agent/run.js';
import { defineSubagentTool } from '../../src/agent/subagent.js';
import { defineTool } from '../../src/agent/tools.js';
import type { DatingRecorder } from '../../src/agent/treeRecording.js';
import type { TraceRecorder } from '../../src/agent/types.js';
import { NO_BRAKES } from '../../src/brakes/config.js';
import { FULL_HISTORY } from '../../src/context/strategy.js';
import { ReplaySource } from '../../src/loop/replaySource.js';
import { defaultCacheMode } from '../../src/replay/replay.js';
import type { Trace } from '../../src/trace/types.js';
import type { AgentResult, TreeResult } from '../../src/tree/result.js';
import { runAgentTree, type LiveAgent } from '../../src/tree/live.js';
import { replayTrees } from '../../src/tree/replayTree.js';
import { subagentStopError } from '../../src/tree/startIds.js';
import { MINI, MINI_TABLE } from '../helpers.js';
import { answer, ScriptedModel, toolTurn, type Step } from '../agent/scripted.js';

const words = (text: string) => text.split(/\s+/).filter(Boolean).length;
const usage = (outputTokens: number) => ({ inputTokens: 1000, outputTokens });
const echo = defineTool<{ text: string }>({ name: 'echo', description: 'says it back', parameters: { type: 'object' }, run: ({ text }) => text });
/** Each sub-agent may take 3 steps: a researcher (helper call, then echoes) is stopped, a helper (echo, answer) is not. */
const limits = { maxSteps: 3 };
/** Two errors alike in a row stop main: what it sees when both researchers stop must differ, as it does live. */
const brakes = { ...NO_BRAKES, maxSameError: 2 };

/** Records every agent's run into `runs`, a trace per header, dated (the replay orders the tree's calls by their dates). */
function listRecorder(runs: Trace[]): TraceRecorder & DatingRecorder {
  let trace: Trace | undefined;
  return {
    dated: (header) => ({ ...header, recordedAt: '2025-06-01T12:00:00.000Z' }),
    header: (header) => void runs.push((trace = { source: `run-${runs.length}`, header: structuredClone(header), calls: [], end: { type: 'end', outcome: 'unknown' } })),
    call: (call) => void trace!.calls.push(structuredClone(call)),
    end: (end) => void (trace!.end = end),
  };
}

/** The live tree: main delegates to `researcher` twice; each researcher asks a `helper`, then echoes until its limit stops it. */
async function liveTree() {
  const clock = new VirtualClock();
  const runs: Trace[] = [];
  const sub = (agentId: string, task: string, first: Step[], steps: number, tools: Parameters<typeof runAgentLoop>[0]['tools']) => {
    const script: Step[] = Array.from({ length: steps }, (_, i) => () => (clock.advance(500), toolTurn('echo', { text: `${task} ${i}` }, usage(100))));
    return { agentId, model: new ScriptedModel([...first, ...script, answer(`${task} done`, usage(100))]), tools, context: { system: 'You research.', goal: task }, recorder: listRecorder(runs) };
  };
  const helper = defineSubagentTool<{ task: string }>({ name: 'helper', description: 'asks a helper', parameters: { type: 'object' }, agent: ({ task }) => sub('helper', task, [], 1, [echo]) });
  const delegate = defineSubagentTool<{ task: string }>({
    name: 'delegate',
    description: 'hands a task to a researcher',
    parameters: { type: 'object' },
    agent: ({ task }) => sub('researcher', task, [toolTurn('helper', { task: `${task}/help` }, usage(100))], 4, [echo, helper]),
  });
  const main = new ScriptedModel([toolTurn('delegate', { task: 'first' }, usage(50)), toolTurn('delegate', { task: 'second' }, usage(50)), answer('done', usage(50))]);
  const run = await runAgentLoop({ model: main, tools: [delegate], brakes, subagentLimits: limits, context: { system: 's', goal: 'g', countTokens: words }, pricing: MINI, clock, recorder: listRecorder(runs) });
  return { run, runs };
}

/** The simulated tree: every agent plays its recorded run, under its bare id (`researcher` both times); a tool call starts the run it started live. */
function simulated(runs: Trace[]): TreeResult {
  const byId = new Map(runs.map((run) => [run.header.agent!.agentId, run]));
  const agentOf = (run: Trace): LiveAgent => ({
    agentId: run.header.agent!.agentId.replace(/#\d+$/, ''),
    source: new ReplaySource(run),
    systemTokens: run.header.systemTokens,
    goalTokens: run.header.goalTokens,
    subagentFor: (tool) => (tool.startedAgentId === undefined ? undefined : agentOf(byId.get(tool.startedAgentId)!)),
  });
  const root = runs.find((run) => run.header.agent!.kind === 'main')!;
  return runAgentTree(agentOf(root), { brakes, subagent: limits, strategy: FULL_HISTORY, cache: defaultCacheMode(root), pricing: MINI });
}

const rows = (agents: readonly AgentResult[]) => agents.map((a) => [a.agentId, a.parentAgentId, a.steps, a.costPico, a.stop?.reason, a.stop?.detail, a.endedToolCall?.agentId]);
const told = (tree: TreeResult) => ({ agents: rows(tree.agents), stopped: tree.stopped.map((s) => [s.agentId, s.reason, s.by, s.detail]), stopReason: tree.stopReason, stopDetail: tree.stopDetail, steps: tree.totals.steps, costPico: tree.totals.costPico });

describe('a sub-agent id started twice: live, simulated and replayed trees name its starts alike', () => {
  it('runAgentTree reports `researcher#2` and `helper#2`, the live tree’s and the replay’s agents, stops and figures', async () => {
    const { run, runs } = await liveTree();
    const live = run.tree!;
    expect(live.agents.map((a) => [a.agentId, a.parentAgentId, a.steps, a.stop.reason])).toEqual([
      ['main', undefined, 3, 'completed'],
      ['researcher', 'main', 3, 'max_steps'],
      ['helper', 'researcher', 2, 'completed'],
      ['researcher#2', 'main', 3, 'max_steps'],
      ['helper#2', 'researcher#2', 2, 'completed'],
    ]);
    const [replayed] = replayTrees(runs, { brakes, subagent: limits, strategy: FULL_HISTORY, prices: MINI_TABLE }).trees;
    const sim = simulated(runs);
    expect(told(sim)).toEqual(told(replayed!));
    expect(sim.agents.map((a) => [a.agentId, a.parentAgentId, a.steps, a.costPico, a.stop?.reason])).toEqual(live.agents.map((a) => [a.agentId, a.parentAgentId, a.steps, a.costPico, a.stop.reason]));
    expect(sim.stopped.map((s) => [s.agentId, s.reason, s.by])).toEqual(live.stopped.map((s) => [s.agentId, s.reason, s.by]));
    expect([sim.totals.steps, sim.totals.costPico]).toEqual([live.totals.steps, live.totals.spentPico]);
    expect(sim.stopDetail).toBe('main: final answer after 3 steps; tree: 13 steps');
  });

  it('the errors main’s delegate calls end with name each start, as the live run recorded them', async () => {
    const { runs } = await liveTree();
    const recorded = runs[0]!.calls.flatMap((call) => call.toolCalls ?? []).map((tool) => tool.error);
    expect(recorded).toEqual([subagentStopError('researcher', 'max_steps'), subagentStopError('researcher#2', 'max_steps')]);
    expect(recorded).toEqual(['sub-agent researcher stopped: max_steps', 'sub-agent researcher#2 stopped: max_steps']);
    // Named alike, the two errors would be one error twice: max-same-error=2 would stop main on the second.
    const sim = simulated(runs);
    expect(sim.agents[0]!.stop).toMatchObject({ reason: 'completed' });
    expect(sim.stopped.map((s) => s.agentId)).toEqual(['researcher', 'researcher#2']);
  });
});
