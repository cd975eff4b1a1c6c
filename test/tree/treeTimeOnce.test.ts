/**
 * Tree time counts a sub-agent's time once (tree/waitedTime.ts, kernel/subagentTime.ts toolOwnMs): a
 * coding agent's log records the tool call that ran a sub-agent with the sub-agent's whole run inside it
 * (Claude Code's Task call; Codex's `wait` for a spawned thread), and the sub-agent's calls count their own
 * time. Before, the tree added both: session A of the shared sessions read 3714.403 s (main 3681.583 s with
 * its Task call, plus the sub-agent's 32.82 s) and `--timeout 3700` stopped it at 150 of 153 main calls; the
 * real loop records a tool call's time beyond its sub-agents' (agent/loop.ts), so its recordings and an
 * importer's disagreed on the brake.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/agent/clock.js';
import { memoryRecorder } from '../../src/agent/recorder.js';
import { runAgentLoop } from '../../src/agent/run.js';
import { defineSubagentTool } from '../../src/agent/subagent.js';
import type { AgentTool } from '../../src/agent/types.js';
import { NO_BRAKES } from '../../src/brakes/config.js';
import { FULL_HISTORY } from '../../src/context/strategy.js';
import { loadTraceFiles } from '../../src/import/index.js';
import { loadPriceTable } from '../../src/pricing/index.js';
import type { Trace } from '../../src/trace/types.js';
import { replayTree } from '../../src/tree/replayTree.js';
import { cli } from '../cli/run.js';
import { collectAsync, MINI, MINI_TABLE } from '../helpers.js';
import { answer, ScriptedModel, toolTurn } from '../agent/scripted.js';

const FIXTURES = 'test/fixtures/tree-time';
const SESSION_A = '../shared/agent-logs/claude-code/258c7280-ae70-4798-800f-63464d01a85d.jsonl.gz';
const prices = loadPriceTable();
const words = (text: string) => text.split(/\s+/).filter(Boolean).length;
const usage = { inputTokens: 100, outputTokens: 10 };
const timed = (timeoutMs?: number) => ({ ...NO_BRAKES, ...(timeoutMs === undefined ? {} : { timeoutMs }) });

/** A tool that takes `ms` on the clock. */
const work = (clock: VirtualClock, ms: number): AgentTool => ({ name: 'work', description: 'works', parameters: { type: 'object' }, run: () => (clock.advance(ms), 'ok') });

/**
 * A live tree: main's call (1 s) delegates to `sub` (0.3 s of the delegate tool's own before the
 * sub-agent starts), whose two calls (1 s each) run `work` (2 s each) before its answer (1 s); then
 * main answers (1 s). Its recordings, and the live tree's time (9.3 s).
 */
async function liveTree(): Promise<{ runs: Trace[]; elapsedMs: number }> {
  const clock = new VirtualClock();
  const recorders: ReturnType<typeof memoryRecorder>[] = [];
  const recorder = () => recorders[recorders.push(memoryRecorder(`agent-${recorders.length}`)) - 1]!;
  const step = (turn: ReturnType<typeof answer>) => () => (clock.advance(1000), turn);
  const delegate = defineSubagentTool<{ task: string }>({
    name: 'delegate',
    description: 'hands a task to a sub-agent',
    parameters: { type: 'object' },
    agent: () => {
      clock.advance(300);
      const script = [step(toolTurn('work', { n: 1 }, usage)), step(toolTurn('work', { n: 2 }, usage)), step(answer('sub done', usage))];
      return { agentId: 'sub', model: new ScriptedModel(script), tools: [work(clock, 2000)], context: { system: 'You research.', goal: 'a' }, recorder: recorder() };
    },
  });
  const main = new ScriptedModel([step(toolTurn('delegate', { task: 'a' }, usage)), step(answer('done', usage))]);
  const run = await runAgentLoop({ model: main, tools: [delegate], brakes: NO_BRAKES, unbounded: true, context: { system: 's', goal: 'g', countTokens: words }, pricing: MINI, clock, recorder: recorder() });
  return { runs: recorders.map((r) => r.trace()), elapsedMs: run.tree!.totals.elapsedMs };
}

/** The recordings as an importer writes them: no `live` mark, and the delegate call's time from its start to its return (the sub-agent's run inside it). */
function asImported(runs: Trace[]): Trace[] {
  const sub = runs.find((run) => run.header.agent?.agentId === 'sub')!;
  const subMs = sub.calls.reduce((ms, call) => ms + (call.latencyMs ?? 0) + (call.toolCalls ?? []).reduce((t, tool) => t + (tool.latencyMs ?? 0), 0), 0);
  return runs.map((run) => {
    const { live: _live, liveLines: _lines, ...header } = run.header;
    const calls = run.calls.map((call) => ({ ...call, ...(call.toolCalls ? { toolCalls: call.toolCalls.map((tool) => (tool.name === 'delegate' ? { ...tool, latencyMs: tool.latencyMs! + subMs } : tool)) } : {}) }));
    return { ...run, header, calls };
  });
}

const treeOf = (runs: Trace[], timeoutMs?: number) => replayTree(runs, { brakes: timed(timeoutMs), strategy: FULL_HISTORY, prices: MINI_TABLE });

describe('a sub-agent run inside a tool call counts its time once', () => {
  it('a live tree, its recordings and the same recordings as an importer writes them read one tree time; a timeout just past it stops none', async () => {
    const { runs, elapsedMs } = await liveTree();
    expect(elapsedMs).toBe(9300);
    const imported = asImported(runs);
    expect(imported.find((run) => run.header.agent?.agentId === 'main')!.calls[0]!.toolCalls![0]!.latencyMs).toBe(300 + 7000);
    for (const recorded of [runs, imported]) {
      const tree = treeOf(recorded);
      expect(tree.totals.elapsedMs).toBe(elapsedMs);
      expect(tree.agents.map((agent) => [agent.agentId, agent.elapsedMs])).toEqual([
        ['main', 2300],
        ['sub', 7000],
      ]);
      expect(treeOf(recorded, elapsedMs + 1).stopReason).toBe('completed');
    }
  });

  it('two Task calls at once (Claude Code): each counts its time beyond its sub-agent, and the tree reads 20 s where it read 34 s', async () => {
    const runs = await collectAsync(loadTraceFiles([FIXTURES + '/aaaaaaaa-0000-0000-0000-000000000002.jsonl']));
    const tree = replayTree(runs, { brakes: NO_BRAKES, strategy: FULL_HISTORY, prices });
    // main: its two calls (1 s each) and each Task call's 9 s less its sub-agent's 7 s; each sub-agent 7 s.
    expect(tree.agents.map((agent) => [agent.agentId, agent.elapsedMs])).toEqual([
      ['main', 6000],
      ['a000001', 7000],
      ['a000002', 7000],
    ]);
    expect(tree.totals.elapsedMs).toBe(20000);
    // Before, the check after main's first call read 19 s (its call and both Task calls whole): `--timeout 6` stopped at once.
    const stopped = replayTree(runs, { brakes: timed(6000), strategy: FULL_HISTORY, prices });
    expect(stopped.stopped.map((stop) => [stop.agentId, stop.detail])).toEqual([
      ['a000001', '7.000 s elapsed, limit 6 s'],
      ['a000002', '7.000 s elapsed, limit 6 s'],
      ['main', '7.000 s elapsed, limit 6 s'],
    ]);
    expect(stopped.agents.map((agent) => [agent.agentId, agent.calls])).toEqual([
      ['main', 1],
      ['a000001', 1],
      ['a000002', 1],
    ]);
  });

  it("session A of the shared sessions: its tree's time is the main agent's alone (the Task call held the sub-agent's run), and --timeout 3700 completes it", async () => {
    const runs = await collectAsync(loadTraceFiles([SESSION_A]));
    const alone = runs.filter((run) => run.header.agent?.agentId === 'main');
    const mainAlone = replayTree(alone, { brakes: NO_BRAKES, strategy: FULL_HISTORY, prices }).totals.elapsedMs;
    expect(mainAlone).toBe(3681583);
    const tree = replayTree(runs, { brakes: NO_BRAKES, strategy: FULL_HISTORY, prices });
    expect(tree.totals.elapsedMs).toBe(mainAlone);
    const { code, stdout } = await cli('replay', '--tree', SESSION_A, '--timeout', '3700', '--format', 'json');
    expect(code).toBe(0);
    const report = JSON.parse(stdout);
    expect(report.trees[0].stopReason).toBe('completed');
    expect(report.trees[0].totals.calls).toBe(156);
  });
});

describe('a Codex sub-agent the parent waited for counts its time once', () => {
  it('the wait call counts its time beyond the sub-agent (20.5 s where the tree read 36.3 s); --timeout 25 stops nothing', async () => {
    const dir = join(FIXTURES, 'codex');
    const runs = await collectAsync(loadTraceFiles([join(dir, 'rollout-2025-11-03T09-00-00-main.jsonl'), join(dir, 'rollout-2025-11-03T09-00-00-child.jsonl')]));
    const tree = replayTree(runs, { brakes: NO_BRAKES, strategy: FULL_HISTORY, prices });
    // main: 3.7 s of calls, spawn_agent 0.2 s, shell 0.5 s, and its 16 s wait less the sub-agent's 16.1 s (none left).
    expect(tree.agents.map((agent) => [agent.agentId === 'main' ? 'main' : 'child', agent.elapsedMs])).toEqual([
      ['main', 4400],
      ['child', 16100],
    ]);
    expect(tree.totals.elapsedMs).toBe(20500);
    expect(replayTree(runs, { brakes: timed(25000), strategy: FULL_HISTORY, prices }).stopReason).toBe('completed');
  });

  it('its sub-agent ran in the background (spawn_agent returned at launch): a per-agent stop ends no call, and says so', async () => {
    const { code, stdout } = await cli('replay', '--tree', join(FIXTURES, 'codex'), '--subagent-max-steps', '2');
    expect(code).toBe(0);
    expect(stdout).not.toMatch(/task call:/);
    expect(stdout).toMatch(/background: 019a0000-0000-7000-8000-00000000000b stopped with max_steps; .* had returned at\s+launch, so no call ended/);
    const report = JSON.parse((await cli('replay', '--tree', join(FIXTURES, 'codex'), '--subagent-max-steps', '2', '--format', 'json')).stdout);
    expect(report.trees[0].agents.map((a: { background?: boolean; endedToolCall?: string }) => [a.background, a.endedToolCall])).toEqual([
      [undefined, undefined],
      [true, undefined],
    ]);
  });
});
