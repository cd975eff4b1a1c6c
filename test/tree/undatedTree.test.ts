/**
 * A tree recorded without dates (a recorder with no `dated`: no `recordedAt`, so no call's start is known)
 * replays in the order its structure gives (src/tree/schedule.ts): a parent's call that started a
 * sub-agent, then the sub-agent's whole run (its own sub-agents inside it), then the parent's next call —
 * the order the live loop ran them in. So the same tree recorded dated and undated replays to the same
 * agents, steps, stops and cost. Before, an undated tree's calls all tied and went shallower agent first:
 * every researcher reached its step limit before its helper made a call (9 steps, not 13).
 */
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FULL_HISTORY } from '../../src/context/strategy.js';
import type { AgentRef, CallRecord, Trace } from '../../src/trace/types.js';
import { writeNativeTraces } from '../../src/trace/writeNative.js';
import { sessionTrees, type SessionTree } from '../../src/tree/group.js';
import type { TreeResult } from '../../src/tree/result.js';
import { replayTrees } from '../../src/tree/replayTree.js';
import { treeSchedule } from '../../src/tree/schedule.js';
import { brakes, limits, liveResearchTree } from './researchTree.js';
import { cli, tempDir } from '../cli/run.js';
import { call, MINI_TABLE, toolCall, trace } from '../helpers.js';

const liveTree = async (dated: boolean) => {
  const { run, runs } = await liveResearchTree({ dated });
  return { live: run.tree!, runs };
};

const replayed = (runs: Trace[]): TreeResult => replayTrees(runs, { brakes, subagent: limits, strategy: FULL_HISTORY, prices: MINI_TABLE }).trees[0]!;
const told = (tree: TreeResult) => ({
  agents: tree.agents.map((a) => [a.agentId, a.parentAgentId, a.steps, a.costPico, a.stop?.reason, a.stop?.detail, a.endedToolCall?.agentId]),
  stopped: tree.stopped.map((s) => [s.agentId, s.reason, s.by, s.detail]),
  stopReason: tree.stopReason,
  stopDetail: tree.stopDetail,
  steps: tree.totals.steps,
  costPico: tree.totals.costPico,
});

describe('a nested tree recorded without dates replays in the order its structure gives', () => {
  it('main → researcher → helper, recorded undated: the same agents, steps, stops and cost as recorded dated, and as the live run', async () => {
    const dated = await liveTree(true);
    const undated = await liveTree(false);
    expect(undated.runs.map((run) => run.header.recordedAt)).toEqual(undated.runs.map(() => undefined));
    expect(dated.runs.every((run) => run.header.recordedAt !== undefined)).toBe(true);
    const fromDated = replayed(dated.runs);
    const fromUndated = replayed(undated.runs);
    expect(told(fromUndated)).toEqual(told(fromDated));
    expect(fromUndated.agents.map((a) => [a.agentId, a.parentAgentId, a.steps, a.stop?.reason])).toEqual([
      ['main', undefined, 3, 'completed'],
      ['researcher', 'main', 3, 'max_steps'],
      ['helper', 'researcher', 2, 'completed'],
      ['researcher#2', 'main', 3, 'max_steps'],
      ['helper#2', 'researcher#2', 2, 'completed'],
    ]);
    expect([fromUndated.totals.steps, fromUndated.totals.costPico]).toEqual([undated.live.totals.steps, undated.live.totals.costPico]);
    expect(fromUndated.totals.steps).toBe(13);
    expect(fromUndated.stopDetail).toBe('main: final answer after 3 steps; tree: 13 steps');
  });

  it('replay --tree of the recordings written to files: the undated tree’s report gives the dated one’s agents, stops and totals', async () => {
    const dir = tempDir();
    const report = async (dated: boolean) => {
      const file = join(dir, `${dated ? 'dated' : 'undated'}.jsonl`);
      writeFileSync(file, writeNativeTraces((await liveTree(dated)).runs));
      const { code, stdout, stderr } = await cli('replay', '--tree', file, '--model', 'gpt-4o-mini', '--max-same-error', '2', '--subagent-max-steps', '3', '--format', 'json');
      expect([code, stderr]).toEqual([0, '']);
      // Ids the two recordings number apart: the session (dated or not) and the tool calls (one counter for both).
      return JSON.parse(stdout.replace(/"live-[^"]*"/g, '"live"').replace(/call_\d+/g, 'call')).trees[0];
    };
    try {
      const undated = await report(false);
      expect(undated).toEqual(await report(true));
      expect(undated.totals.steps).toBe(13);
      expect(undated.stopped.map((s: { agent: string }) => s.agent)).toEqual(['researcher', 'researcher#2']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** A run of agent `agent` with no dates (no `recordedAt`, no `startMs`). */
function undatedRun(agent: AgentRef, calls: CallRecord[]): Trace {
  const run = trace(calls, { model: 'mini', outcome: 'completed', origin: 'recorded' });
  run.source = `u#${agent.agentId}`;
  run.header.agent = agent;
  return run;
}
const sub = (agentId: string, parentAgentId: string, parentToolCallId?: string): AgentRef => ({ sessionId: 'u', agentId, kind: 'subagent', parentAgentId, ...(parentToolCallId === undefined ? {} : { parentToolCallId }) });
const steps = (n: number) => Array.from({ length: n }, (_, i) => call(10, [toolCall('read', { i }, 10)]));
const order = (runs: Trace[]) => {
  const tree = sessionTrees(runs).trees[0]!;
  return treeSchedule(tree).map(({ agent, call: c }) => `${tree.agents[agent]!.agentId}${c}`);
};

describe('the structural order of an undated tree', () => {
  it('a Task call, then the sub-agent’s whole run (its own sub-agents inside), then the parent’s next call', () => {
    const main = undatedRun({ sessionId: 'u', agentId: 'main', kind: 'main' }, [call(10, [toolCall('Task', {}, 10, { id: 'T1' })]), ...steps(1), call(5)]);
    const researcher = undatedRun(sub('researcher', 'main', 'T1'), [...steps(1), call(10, [toolCall('Task', {}, 10, { id: 'R1' })]), call(5)]);
    const helper = undatedRun(sub('helper', 'researcher', 'R1'), [...steps(1), call(5)]);
    const expected = ['main0', 'researcher0', 'researcher1', 'helper0', 'helper1', 'researcher2', 'main1', 'main2'];
    expect(order([main, researcher, helper])).toEqual(expected);
    // The file order does not matter: the structure does.
    expect(order([helper, researcher, main])).toEqual(expected);
  });

  it('sub-agents one call started run one after another in its tool calls’ order; one whose Task call is unknown after its parent’s calls', () => {
    const main = undatedRun({ sessionId: 'u', agentId: 'main', kind: 'main' }, [call(10, [toolCall('Task', {}, 10, { id: 'A' }), toolCall('Task', {}, 10, { id: 'B' })]), call(5)]);
    const b = undatedRun(sub('b', 'main', 'B'), [...steps(1), call(5)]);
    const a = undatedRun(sub('a', 'main', 'A'), [call(5)]);
    const loose = undatedRun(sub('loose', 'main'), [call(5)]);
    expect(order([main, loose, b, a])).toEqual(['main0', 'a0', 'b0', 'b1', 'main1', 'loose0']);
  });

  it('agents that name each other as parent (built by hand: sessionTrees refuses them, treeIssues.ts): every call once, each agent’s in order', () => {
    const main = undatedRun({ sessionId: 'u', agentId: 'main', kind: 'main' }, [call(5)]);
    const x = undatedRun(sub('x', 'y', 'Y1'), [call(10, [toolCall('Task', {}, 10, { id: 'X1' })]), call(5)]);
    const y = undatedRun(sub('y', 'x', 'X1'), [call(10, [toolCall('Task', {}, 10, { id: 'Y1' })]), call(5)]);
    expect(() => sessionTrees([main, x, y])).toThrow(/agents x and y are each other's parents/);
    // The schedule stays total for any tree it is given: a loop of parents is placed once, not followed forever.
    const agents = [main, x, y].map((run) => {
      const { agentId, kind, parentAgentId, parentToolCallId } = run.header.agent!;
      return { agentId, kind, ...(parentAgentId === undefined ? {} : { parentAgentId }), ...(parentToolCallId === undefined ? {} : { parentToolCallId }), runs: [run] };
    });
    const tree: SessionTree = { sessionId: 'u', agents, notes: [] };
    expect(treeSchedule(tree).map(({ agent, call: c }) => `${tree.agents[agent]!.agentId}${c}`)).toEqual(['main0', 'x0', 'y0', 'y1', 'x1']);
  });
});
