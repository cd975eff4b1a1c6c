/**
 * A tree recorded partly dated — an undated parent with dated sub-agents, the reverse, a nested mix, an
 * undated part — is ordered by its structure wherever a call has no date (src/tree/schedule.ts): an
 * undated call goes after every call the structure puts before it; dated calls keep their dates' order.
 * Where the dates agree with the structure, it replays as the fully dated tree does, under a budget too.
 * Before, an undated call sorted as if it had no time: an undated parent's calls all came first (its
 * sub-agents ran after its final answer), and an undated sub-agent's calls all sat at its Task call's
 * time (its own dated sub-agent ran after it).
 * A sub-agent marked as run in the background (Claude Code's `run_in_background: true`) has no date to
 * place it by in an undated tree: it keeps its place right after the call that started it.
 */
import { describe, expect, it } from 'vitest';
import { NO_BRAKES, type BrakeConfig } from '../../src/brakes/config.js';
import { FULL_HISTORY } from '../../src/context/strategy.js';
import { loadTraceFile } from '../../src/import/index.js';
import { loadPriceTable } from '../../src/pricing/index.js';
import type { PriceTable } from '../../src/pricing/types.js';
import type { AgentRef, CallRecord, Trace } from '../../src/trace/types.js';
import { sessionTrees } from '../../src/tree/group.js';
import type { TreeResult } from '../../src/tree/result.js';
import { replayTree } from '../../src/tree/replayTree.js';
import { treeSchedule } from '../../src/tree/schedule.js';
import { usdToPico } from '../../src/money.js';
import { call, handPriced, handTable, toolCall, trace } from '../helpers.js';

const T0 = Date.parse('2026-02-11T10:00:00.000Z');
const TABLE = handTable(handPriced('m', { input: 1, output: 10 }, 1_000_000));

/** A run of `agent`: dated when `startsMs` (after T0) are given, else with no `recordedAt` nor `startMs`. */
function agentRun(agent: AgentRef, calls: CallRecord[], startsMs?: number[]): Trace {
  const dated = startsMs !== undefined;
  const run = trace(dated ? calls.map((c, i) => ({ ...c, startMs: startsMs[i]! - startsMs[0]! })) : calls, { model: 'm', outcome: 'completed', origin: 'recorded' });
  run.source = `s#${agent.agentId}${agent.part ? `.${agent.part}` : ''}`;
  if (dated) run.header.recordedAt = new Date(T0 + startsMs[0]!).toISOString();
  run.header.agent = agent;
  return run;
}
const MAIN: AgentRef = { sessionId: 's', agentId: 'main', kind: 'main' };
const sub = (agentId: string, parentAgentId: string, parentToolCallId: string): AgentRef => ({ sessionId: 's', agentId, kind: 'subagent', parentAgentId, parentToolCallId });
const grep = (q: number, extra: object = {}) => call(100, [toolCall('grep', { q }, 2000)], extra);
const task = (id: string, args: object = { p: id }) => call(50, [toolCall('Task', args, 200, { id })]);

/** main: a read, a Task call (T1), two reads and an answer; sub: three greps and an answer, during the Task call. */
function mainAndSub(dated: { main: boolean; sub: boolean }): Trace[] {
  const main = agentRun(MAIN, [call(50, [toolCall('read', { f: 1 }, 300)]), task('T1'), call(50, [toolCall('read', { f: 2 }, 300)]), call(50, [toolCall('read', { f: 3 }, 300)]), call(20)], dated.main ? [0, 1000, 9000, 10000, 11000] : undefined);
  const s = agentRun(sub('sub', 'main', 'T1'), [grep(1), grep(2), grep(3), call(30)], dated.sub ? [2000, 3000, 4000, 5000] : undefined);
  return [main, s];
}

const order = (runs: Trace[]) => {
  const tree = sessionTrees(runs).trees[0]!;
  return treeSchedule(tree).map(({ agent, run, call: c }) => `${tree.agents[agent]!.agentId}${tree.agents[agent]!.runs.length > 1 ? `.${run + 1}:` : ''}${c}`);
};
const replayed = (runs: Trace[], brakes: BrakeConfig, prices: PriceTable = TABLE): TreeResult => replayTree(runs, { brakes, strategy: FULL_HISTORY, prices });
const told = (tree: TreeResult) => ({
  agents: tree.agents.map((a) => [a.agentId, a.calls, a.steps, a.costPico, a.stop?.reason, a.endedToolCall?.agentId]),
  stopped: tree.stopped.map((s) => [s.agentId, s.reason, s.by]),
  stop: [tree.stopReason, tree.stopDetail],
  totals: [tree.totals.calls, tree.totals.steps, tree.totals.costPico],
});

describe('a partly dated tree is ordered by its structure wherever a call has no date', () => {
  const STRUCTURE = ['main0', 'main1', 'sub0', 'sub1', 'sub2', 'sub3', 'main2', 'main3', 'main4'];
  const full = replayed(mainAndSub({ main: true, sub: true }), NO_BRAKES).totals.costPico;
  // A budget the tree passes inside the sub-agent: which call it stops depends on the order.
  const budget: BrakeConfig = { ...NO_BRAKES, maxCostPico: Math.round(full * 0.35) };

  for (const [shape, dated] of [
    ['an undated parent with a dated sub-agent', { main: false, sub: true }],
    ['a dated parent with an undated sub-agent', { main: true, sub: false }],
  ] as const) {
    it(`${shape}: the fully dated tree's order, and its stop under --max-cost`, () => {
      expect(order(mainAndSub({ main: true, sub: true }))).toEqual(STRUCTURE);
      expect(order(mainAndSub(dated))).toEqual(STRUCTURE);
      const fromDated = replayed(mainAndSub({ main: true, sub: true }), budget);
      const fromMixed = replayed(mainAndSub(dated), budget);
      expect(told(fromMixed)).toEqual(told(fromDated));
      // The tree budget stops the sub-agent after three of its calls (the third passed it); the parent's next call is refused.
      expect(fromMixed.stopped.map((s) => [s.agentId, s.reason])).toEqual([['sub', 'budget'], ['main', 'budget']]);
      expect(fromMixed.agents.map((a) => [a.agentId, a.calls])).toEqual([['main', 2], ['sub', 3]]);
      expect(fromMixed.totals.costPico).toBeGreaterThan(budget.maxCostPico!);
      expect(fromMixed.totals.costPico).toBeLessThan(full);
    });
  }

  it('nested: a dated main, an undated researcher, a dated helper: the helper inside the researcher’s Task call', () => {
    const main = agentRun(MAIN, [task('T1'), call(20)], [0, 20_000]);
    const researcher = agentRun(sub('researcher', 'main', 'T1'), [grep(1), task('R1'), grep(2), call(30)]);
    const helper = agentRun(sub('helper', 'researcher', 'R1'), [grep(3), call(30)], [5000, 6000]);
    expect(order([main, researcher, helper])).toEqual(['main0', 'researcher0', 'researcher1', 'helper0', 'helper1', 'researcher2', 'researcher3', 'main1']);
    const dated = [agentRun(MAIN, [task('T1'), call(20)], [0, 20_000]), agentRun(sub('researcher', 'main', 'T1'), [grep(1), task('R1'), grep(2), call(30)], [1000, 2000, 8000, 9000]), helper];
    expect(order(dated)).toEqual(order([main, researcher, helper]));
    const cap = { ...NO_BRAKES, maxCostPico: Math.round(replayed(dated, NO_BRAKES).totals.costPico * 0.5) };
    expect(told(replayed([main, researcher, helper], cap))).toEqual(told(replayed(dated, cap)));
  });

  it('an undated parent with parallel dated sub-agents: theirs interleave by date, the parent’s next call after both', () => {
    const main = agentRun(MAIN, [call(50, [toolCall('Task', {}, 200, { id: 'A' }), toolCall('Task', {}, 200, { id: 'B' })]), call(20)]);
    const a = agentRun(sub('a', 'main', 'A'), [grep(1), call(30)], [1000, 3000]);
    const b = agentRun(sub('b', 'main', 'B'), [grep(2), call(30)], [2000, 4000]);
    expect(order([main, a, b])).toEqual(['main0', 'a0', 'b0', 'a1', 'b1', 'main1']);
    // Dates that disagree with the tool calls' order win among dated calls; the parent still waits for both.
    const late = agentRun(sub('a', 'main', 'A'), [grep(1), call(30)], [5000, 6000]);
    expect(order([main, late, b])).toEqual(['main0', 'b0', 'b1', 'a0', 'a1', 'main1']);
  });

  it('a dated agent with an undated later part: that part after the sub-agent its first part started', () => {
    const part1 = agentRun({ ...MAIN, part: 1 }, [call(50, [toolCall('read', { f: 1 }, 300)]), task('T1')], [0, 1000]);
    const part2 = agentRun({ ...MAIN, part: 2 }, [call(50, [toolCall('read', { f: 2 }, 300)]), call(20)]);
    const s = agentRun(sub('sub', 'main', 'T1'), [grep(1), call(30)], [2000, 3000]);
    expect(order([part1, part2, s])).toEqual(['main.1:0', 'main.1:1', 'sub0', 'sub1', 'main.2:0', 'main.2:1']);
  });

  it('an undated tree whose Task call ran its sub-agent in the background: the sub-agent’s whole run right after it', () => {
    const main = agentRun(MAIN, [task('T1', { prompt: 'look', run_in_background: true }), call(50, [toolCall('read', { f: 2 }, 300)]), call(20)]);
    const s = agentRun(sub('sub', 'main', 'T1'), [grep(1), grep(2), call(30)]);
    expect(order([main, s])).toEqual(['main0', 'sub0', 'sub1', 'sub2', 'main1', 'main2']);
    // So the parent's calls after it are checked against all the sub-agent spent: a budget the sub-agent
    // passes stops the tree there, as the foreground Task call's sub-agent does.
    const cap = { ...NO_BRAKES, maxCostPico: Math.round(replayed([main, s], NO_BRAKES).totals.costPico * 0.4) };
    expect(replayed([main, s], cap).stopped.map((x) => x.agentId)).toEqual(['sub', 'main']);
  });
});

describe('the shared Claude Code session B with one side undated replays as recorded (bundled prices, $2 budget)', async () => {
  const runs = await loadTraceFile('../shared/agent-logs/claude-code/ae4a77f8-aedd-4bc1-888f-c94edc91af04.jsonl.gz');
  const prices = loadPriceTable();
  // Undated by dropping the calls' starts: `recordedAt` stays, so each run is priced as of the same day.
  const undated = (agentId: string) => runs.map((run) => (run.header.agent?.agentId === agentId ? { ...run, calls: run.calls.map(({ startMs: _, ...c }) => c) } : run));
  const budget = { ...NO_BRAKES, maxCostPico: usdToPico(2) };
  const dated = replayed(runs, budget, prices);

  it('the sub-agent runs inside its Task call in the recording (the dates agree with the structure)', () => {
    expect(dated.agents.map((a) => [a.agentId, a.calls, a.stop?.reason])).toEqual([
      ['main', 139, 'budget'],
      ['aac57f5', 3, 'completed'],
    ]);
  });

  for (const agentId of ['main', 'aac57f5']) {
    it(`${agentId} undated: the same order, agents, stops and cost`, () => {
      const mixed = undated(agentId);
      const tree = sessionTrees(mixed).trees[0]!;
      expect(tree.agents.find((a) => a.agentId === agentId)!.runs.every((run) => run.calls.every((c) => c.startMs === undefined))).toBe(true);
      expect(order(mixed)).toEqual(order(runs));
      expect(told(replayed(mixed, budget, prices))).toEqual(told(dated));
    });
  }
});
