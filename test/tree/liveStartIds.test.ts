/**
 * One tree, three ways: run live (runAgentLoop), its recordings replayed (replayTrees), and simulated
 * (runAgentTree) with each agent's source playing its recorded run. `main` starts `researcher` twice,
 * each start starts a `helper`; the ids the simulated tree's agents give are the bare ones (as a
 * synthetic policy's are). All three name the starts alike (`researcher#2`, `helper#2`: src/tree/startIds.ts),
 * report the same agents, stops and figures, and end the parent's tool calls with the same errors — so
 * main's same-error brake (max-same-error=2) sees two different errors in each, not one error twice.
 */
import { describe, expect, it } from 'vitest';
import { FULL_HISTORY } from '../../src/context/strategy.js';
import { ReplaySource } from '../../src/loop/replaySource.js';
import { defaultCacheMode } from '../../src/replay/replay.js';
import type { Trace } from '../../src/trace/types.js';
import type { AgentResult, TreeResult } from '../../src/tree/result.js';
import { runAgentTree, type LiveAgent } from '../../src/tree/live.js';
import { replayTrees } from '../../src/tree/replayTree.js';
import { subagentStopError } from '../../src/tree/startIds.js';
import { MINI, MINI_TABLE } from '../helpers.js';
import { brakes, limits, liveResearchTree } from './researchTree.js';

const liveTree = () => liveResearchTree({ dated: true });

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
    expect([sim.totals.steps, sim.totals.costPico]).toEqual([live.totals.steps, live.totals.costPico]);
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
