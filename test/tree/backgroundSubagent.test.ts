/**
 * A sub-agent that ran in the background (AgentRef.background: Claude Code's `async_launched` Task result)
 * had its parent's Task call return at launch. When a brake stops it in a tree replay, it ends no tool
 * call of its parent (no `endedToolCall`, no `task call:` line); its row says it ran in the background
 * and stopped. Its calls still spend under the tree's budget, scheduled as any sub-agent's (by date;
 * undated, right after its Task call). A foreground sub-agent's stop still ends its Task call.
 */
import { describe, expect, it } from 'vitest';
import { NO_BRAKES, type BrakeConfig } from '../../src/brakes/config.js';
import { FULL_HISTORY } from '../../src/context/strategy.js';
import type { AgentRef, CallRecord, Trace } from '../../src/trace/types.js';
import { sessionTrees } from '../../src/tree/group.js';
import { replayTree } from '../../src/tree/replayTree.js';
import { treeSchedule } from '../../src/tree/schedule.js';
import { parseCsv } from '../cli/csv.js';
import { cli } from '../cli/run.js';
import { call, handPriced, handTable, toolCall, trace } from '../helpers.js';

const T0 = Date.parse('2026-09-20T10:00:00.000Z');
const TABLE = handTable(handPriced('m', { input: 1, output: 10 }, 1_000_000));
const MAIN: AgentRef = { sessionId: 's', agentId: 'main', kind: 'main' };

function agentRun(agent: AgentRef, calls: CallRecord[], startsMs?: number[]): Trace {
  const run = trace(startsMs ? calls.map((c, i) => ({ ...c, startMs: startsMs[i]! - startsMs[0]! })) : calls, { model: 'm', outcome: 'completed', origin: 'recorded' });
  run.source = `s#${agent.agentId}`;
  if (startsMs) run.header.recordedAt = new Date(T0 + startsMs[0]!).toISOString();
  run.header.agent = agent;
  return run;
}

/** main launches `sub` (T1) and goes on with three reads while it runs; `sub` makes four calls. */
function launchTree(background: boolean, dated = true): Trace[] {
  const sub: AgentRef = { sessionId: 's', agentId: 'sub', kind: 'subagent', parentAgentId: 'main', parentToolCallId: 'T1', ...(background ? { background: true } : {}) };
  const main = agentRun(MAIN, [call(50, [toolCall('Agent', { p: 'x', run_in_background: background }, 50, { id: 'T1' })]), ...[1, 2, 3].map((f) => call(50, [toolCall('read', { f }, 300)])), call(20)], dated ? [0, 1000, 3000, 5000, 9000] : undefined);
  const s = agentRun(sub, [1, 2, 3].map((q) => call(100, [toolCall('grep', { q }, 3000)])).concat(call(30)), dated ? [1500, 2500, 4000, 8000] : undefined);
  return [main, s];
}

const replayed = (runs: Trace[], brakes: BrakeConfig) => replayTree(runs, { brakes, strategy: FULL_HISTORY, prices: TABLE });

describe('tree replay of a background sub-agent', () => {
  it("a budget stopping it ends no tool call of its parent; its calls count toward the tree's budget", () => {
    // Spent after main's third call (the first five calls: main, main, sub, sub, main): the next call, the sub-agent's, is refused.
    const budget = replayed(launchTree(true), { ...NO_BRAKES, maxSteps: 5 }).totals.costPico - 1;
    const tree = replayed(launchTree(true), { ...NO_BRAKES, maxCostPico: budget });
    const sub = tree.agents[1]!;
    expect(sub.stop).toMatchObject({ reason: 'budget', by: 'tree' });
    expect(sub.background).toBe(true);
    expect(sub.endedToolCall).toBeUndefined();
    expect(sub.calls).toBeGreaterThan(0);
    expect(tree.totals.costPico).toBe(tree.agents[0]!.costPico + sub.costPico);
    expect(tree.totals.costPico).toBeGreaterThanOrEqual(budget);
    // The same tree with the sub-agent in the foreground: its stop ends the Task call.
    const foreground = replayed(launchTree(false), { ...NO_BRAKES, maxCostPico: budget });
    expect(foreground.agents[1]!.stop).toMatchObject({ reason: 'budget', by: 'tree' });
    expect(foreground.agents[1]!.endedToolCall).toEqual({ agentId: 'main', toolCallId: 'T1', reason: 'budget' });
    expect(foreground.agents[1]!.background).toBeUndefined();
    // The mark changes what a stop ends, not what was spent nor who stopped.
    expect([tree.totals.costPico, tree.stopped]).toEqual([foreground.totals.costPico, foreground.stopped]);
  });

  it('a per-agent limit stopping it: the parent completes, no tool call ended', () => {
    const limited = replayTree(launchTree(true), { brakes: NO_BRAKES, subagentLimits: { maxSteps: 2 }, strategy: FULL_HISTORY, prices: TABLE });
    expect(limited.agents.map((a) => [a.agentId, a.stop?.reason, a.stop?.by, a.endedToolCall])).toEqual([
      ['main', 'completed', undefined, undefined],
      ['sub', 'max_steps', 'subagent', undefined],
    ]);
  });

  it('keeps the scheduling rules: dated by date, undated right after its Task call', () => {
    for (const dated of [true, false]) {
      const order = (runs: Trace[]) => treeSchedule(sessionTrees(runs).trees[0]!).map(({ agent, call: c }) => `${agent}:${c}`);
      expect(order(launchTree(true, dated))).toEqual(order(launchTree(false, dated)));
    }
    const undated = treeSchedule(sessionTrees(launchTree(true, false)).trees[0]!).map(({ agent, call: c }) => `${agent}:${c}`);
    expect(undated.slice(0, 6)).toEqual(['0:0', '1:0', '1:1', '1:2', '1:3', '0:1']);
  });
});

const FIXTURE = 'test/fixtures/claude-code-background/b9c1e2d4-5f60-4a7b-8c9d-0e1f2a3b4c5d.jsonl';
type AgentRow = { agent: string; stopReason: string; stoppedBy: string; endedToolCall?: string; background?: boolean };

describe('replay --tree on a Claude Code session with a background sub-agent (fixture)', () => {
  it('--max-cost 0.168 stops the background sub-agent: no task call ended, its row says background', async () => {
    const json = await cli('replay', '--tree', FIXTURE, '--max-cost', '0.168', '--format', 'json');
    expect(json.code).toBe(0);
    const tree = JSON.parse(json.stdout).trees[0];
    const rows = tree.agents as AgentRow[];
    expect(rows.map((a) => [a.agent, a.stopReason, a.stoppedBy, a.endedToolCall, a.background])).toEqual([
      ['main', 'budget', 'tree', undefined, undefined],
      ['a5b9c01', 'budget', 'tree', undefined, true],
      ['af0e1d2', 'completed', '', undefined, undefined],
    ]);
    const table = await cli('replay', '--tree', FIXTURE, '--max-cost', '0.168');
    expect(table.stdout).not.toContain('task call:');
    expect(table.stdout).toMatch(/^a5b9c01 +main .* budget \(tree, bg\)$/m);
    expect(table.stdout).toContain('background: a5b9c01 stopped with budget; its Task call main/toolu_bg had returned at launch, so no call ended');
    expect(table.stdout.replace(/\s+/g, ' ')).toContain('in 1 tree a sub-agent was stopped and its parent went on as recorded');
    const csv = await cli('replay', '--tree', FIXTURE, '--max-cost', '0.168', '--format', 'csv');
    const [header, ...lines] = parseCsv(csv.stdout);
    const at = header!.indexOf('background');
    expect(lines.map((line) => [line[1], line[at]])).toEqual([['main', ''], ['a5b9c01', '1'], ['af0e1d2', ''], ['tree', '']]);
  });

  it('--max-cost 0.15 stops both sub-agents: the foreground one still ends its Task call, the background one none', async () => {
    const json = await cli('replay', '--tree', FIXTURE, '--max-cost', '0.15', '--format', 'json');
    const rows = JSON.parse(json.stdout).trees[0].agents as AgentRow[];
    expect(rows.map((a) => [a.agent, a.stopReason, a.endedToolCall, a.background])).toEqual([
      ['main', 'budget', undefined, undefined],
      ['a5b9c01', 'budget', undefined, true],
      ['af0e1d2', 'budget', 'main/toolu_fg ended with budget', undefined],
    ]);
    const table = await cli('replay', '--tree', FIXTURE, '--max-cost', '0.15');
    expect(table.stdout).toContain('task call: main/toolu_fg ended with budget');
    expect(table.stdout).not.toContain('task call: main/toolu_bg');
    expect(table.stdout).toContain('background: a5b9c01 stopped with budget');
  });
});
