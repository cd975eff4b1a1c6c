/**
 * Tree replay core (src/tree): a tree of one run replays exactly as the run alone (the same kernel
 * checks, no second brake order — property test, fixed seed); the merged order of a tree's calls; the tree's
 * budget, per-agent limits and what a stop does to the parent (its Task call ends, it goes on or stops).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NO_BRAKES, type BrakeConfig } from '../../src/brakes/config.js';
import { FULL_HISTORY } from '../../src/context/strategy.js';
import { usdToPico } from '../../src/money.js';
import { replayTrace } from '../../src/replay/replay.js';
import type { AgentRef, CallRecord, Trace } from '../../src/trace/types.js';
import { sessionTrees } from '../../src/tree/group.js';
import { replayTree } from '../../src/tree/replayTree.js';
import { treeSchedule } from '../../src/tree/schedule.js';
import { brakesArb, callArb, pricings, strategyArb } from '../core/arbitraries.js';
import { call, handPriced, handTable, toolCall, trace } from '../helpers.js';

const T0 = Date.parse('2026-02-11T10:00:00.000Z');
const PRICED = handPriced('m', { input: 1, output: 10 }, 1_000_000);
const TABLE = handTable(PRICED);

/** A run of a tree: `agent` its place, its calls at `startsMs` (after T0). */
function agentRun(agent: AgentRef, calls: CallRecord[], startsMs: number[], outcome: Trace['end']['outcome'] = 'completed'): Trace {
  const run = trace(
    calls.map((c, i) => ({ ...c, startMs: startsMs[i]! - startsMs[0]! })),
    { model: 'm', outcome, origin: 'recorded' },
  );
  run.source = `s#${agent.agentId}${agent.part ? `.${agent.part}` : ''}`;
  run.header.recordedAt = new Date(T0 + startsMs[0]!).toISOString();
  run.header.agent = agent;
  return run;
}

const MAIN: AgentRef = { sessionId: 's', agentId: 'main', kind: 'main' };
const SUB: AgentRef = { sessionId: 's', agentId: 'sub', kind: 'subagent', parentAgentId: 'main', parentToolCallId: 'T1' };

/** main: a read, a Task call (T1), then two more steps and an answer; sub: three steps and an answer, during the Task call. */
function smallTree(subOutput = 100, subResultTokens = 2000): Trace[] {
  const main = agentRun(
    MAIN,
    [call(50, [toolCall('read', { f: 1 }, 300)]), call(50, [toolCall('Task', { p: 'x' }, 200, { id: 'T1' })]), call(50, [toolCall('read', { f: 2 }, 300)]), call(50, [toolCall('read', { f: 3 }, 300)]), call(20)],
    [0, 1000, 9000, 10000, 11000],
  );
  const sub = agentRun(SUB, [1, 2, 3].map((q) => call(subOutput, [toolCall('grep', { q }, subResultTokens)])).concat(call(30)), [2000, 3000, 4000, 5000]);
  return [main, sub];
}

const options = (brakes: BrakeConfig, extra: object = {}) => ({ brakes, strategy: FULL_HISTORY, prices: TABLE, ...extra });

describe('tree replay', () => {
  it('a tree of one run replays as the run alone, under any brakes, strategy and prices (the same kernel checks)', () => {
    fc.assert(
      fc.property(fc.array(callArb, { minLength: 1, maxLength: 25 }), brakesArb, strategyArb, fc.constantFrom(...pricings), (calls, brakes, strategy, pricing) => {
        const run = agentRun(MAIN, calls, calls.map((_, i) => i * 1000), 'unknown');
        run.header.model = pricing.model;
        const prices = handTable(pricing);
        const alone = replayTrace(run, { brakes, strategy, prices, engine: 'readable' });
        const tree = replayTree([run], { brakes, strategy, prices });
        const main = tree.agents[0]!;
        expect([main.stop?.reason, main.stop?.detail]).toEqual([alone.stopReason, alone.stopDetail]);
        expect([main.calls, main.steps, main.costPico, main.inputTokens, main.outputTokens, main.elapsedMs]).toEqual([alone.modelCalls, alone.steps, alone.costPico, alone.inputTokens, alone.outputTokens, alone.elapsedMs]);
        expect([tree.stopReason, tree.totals.costPico]).toEqual([alone.stopReason, alone.costPico]);
      }),
      { seed: 1616, numRuns: 150 },
    );
  });

  it('merges the agents\' calls in the order they started; a skewed sub-agent clock never starts before its Task call', () => {
    const [main, sub] = smallTree();
    const tree = sessionTrees([sub!, main!]).trees[0]!;
    expect(tree.agents.map((agent) => agent.agentId)).toEqual(['main', 'sub']);
    const order = (t: typeof tree) => treeSchedule(t).map(({ agent, call: c }) => `${t.agents[agent]!.agentId}${c}`);
    expect(order(tree)).toEqual(['main0', 'main1', 'sub0', 'sub1', 'sub2', 'sub3', 'main2', 'main3', 'main4']);
    // The sub-agent's clock 1.5 s behind: clamped to its Task call's start; the parent's call goes first on the tie.
    // (A copy: a run an entry point has checked is frozen, trace/freezeTrace.ts.)
    const skewed = { ...sub!, header: { ...sub!.header, recordedAt: new Date(T0 + 500).toISOString() } };
    expect(order(sessionTrees([main!, skewed]).trees[0]!)).toEqual(['main0', 'main1', 'sub0', 'sub1', 'sub2', 'sub3', 'main2', 'main3', 'main4']);
  });

  it('without brakes, each agent costs what its run costs alone and the tree the sum', () => {
    const runs = smallTree();
    const tree = replayTree(runs, options(NO_BRAKES));
    const alone = runs.map((run) => replayTrace(run, { brakes: NO_BRAKES, strategy: FULL_HISTORY, prices: TABLE }).costPico);
    expect(tree.agents.map((agent) => agent.costPico)).toEqual(alone);
    expect(tree.totals.costPico).toBe(alone[0]! + alone[1]!);
    expect(tree.totals.steps).toBe(9);
    expect([tree.stopReason, tree.stopped]).toEqual(['completed', []]);
  });

  it("the tree's budget stops the sub-agent that crosses it; its Task call ends with the reason and the parent's next call is refused (check mode)", () => {
    const runs = smallTree(3000);
    const full = replayTree(runs, options(NO_BRAKES)).totals.costPico;
    const budget = Math.round(full / 3);
    const tree = replayTree(runs, options({ ...NO_BRAKES, maxCostPico: budget }));
    expect(tree.stopped.map((stop) => [stop.agentId, stop.reason, stop.by])).toEqual([
      ['sub', 'budget', 'tree'],
      ['main', 'budget', 'tree'],
    ]);
    const sub = tree.agents[1]!;
    expect(sub.endedToolCall).toEqual({ agentId: 'main', toolCallId: 'T1', reason: 'budget' });
    expect(sub.calls).toBeGreaterThan(0);
    expect(sub.calls).toBeLessThan(4);
    expect(tree.agents[0]!.calls).toBe(2);
    expect(tree.totals.costPico).toBeGreaterThanOrEqual(budget);
    expect(tree.totals.costPico).toBeLessThan(budget + 3000 * 10 * 1e6 + 20_000 * 1e6); // one sub-agent call at most
    expect(tree.stopReason).toBe('budget');
  });

  it('under budget-mode=predict the parent goes on after its sub-agent was refused, if its own next calls fit', () => {
    const runs = smallTree(3000, 20_000);
    // Every main call and the sub-agent's first: then room for a bound of a main call (≤ 2k-token prompt +
    // 3000 output tokens ≈ $0.032), not for one of the sub-agent's (a 20k-token prompt: ≈ $0.05).
    const firstOnly = replayTree(runs, options(NO_BRAKES, { subagentLimits: { maxSteps: 1 } })).totals.costPico;
    const brakes: BrakeConfig = { ...NO_BRAKES, maxCostPico: firstOnly + 33_000_000_000, budgetMode: 'predict', maxOutputTokens: 3000 };
    const tree = replayTree(runs, options(brakes));
    expect(tree.stopped.map((stop) => [stop.agentId, stop.reason, stop.by])).toEqual([['sub', 'budget', 'tree']]);
    expect(tree.agents[0]!.stop?.reason).toBe('completed');
    expect(tree.agents[0]!.calls).toBe(5);
    expect(tree.totals.costPico).toBeLessThanOrEqual(brakes.maxCostPico!);
  });

  it('per-agent limits stop only the sub-agent; the parent completes', () => {
    const tree = replayTree(smallTree(), options(NO_BRAKES, { subagentLimits: { maxSteps: 2 } }));
    expect(tree.agents.map((agent) => [agent.agentId, agent.calls, agent.stop?.reason, agent.stop?.by])).toEqual([
      ['main', 5, 'completed', undefined],
      ['sub', 2, 'max_steps', 'subagent'],
    ]);
    expect(tree.stopReason).toBe('completed');
    const byCost = replayTree(smallTree(), options(NO_BRAKES, { subagentLimits: { maxCostPico: usdToPico(0.000001) } }));
    expect(byCost.agents[1]!.stop).toMatchObject({ reason: 'budget', by: 'subagent' });
  });

  it("the tree's step cap counts every agent's steps; a sub-agent not yet started when its parent stops never runs", () => {
    const capped = replayTree(smallTree(), options({ ...NO_BRAKES, maxSteps: 4 }));
    expect(capped.totals.steps).toBe(4);
    expect(capped.stopped[0]).toMatchObject({ agentId: 'sub', reason: 'max_steps', by: 'tree' });
    const early = replayTree(smallTree(), options({ ...NO_BRAKES, maxSteps: 1 }));
    expect(early.agents.map((agent) => [agent.agentId, agent.calls, agent.stop?.reason, agent.stop?.by])).toEqual([
      ['main', 1, 'max_steps', 'tree'],
      ['sub', 0, 'max_steps', 'parent'],
    ]);
  });

  it('compaction calls of the main agent are paid under the tree budget but are not steps', () => {
    const [main, sub] = smallTree();
    main!.calls = [...main!.calls.slice(0, 2), { ...call(400), compaction: true, startMs: 8500 }, ...main!.calls.slice(2)];
    const tree = replayTree([main!, sub!], options(NO_BRAKES));
    expect(tree.agents[0]!.compactionCalls).toBe(1);
    expect(tree.totals.calls - tree.totals.steps).toBe(1);
  });

  it('a sub-agent whose parent is not among the runs still spends under the tree, with a note; replayTree takes one tree', () => {
    const [, sub] = smallTree();
    const tree = replayTree([sub!], options({ ...NO_BRAKES, maxSteps: 2 }));
    expect(tree.notes.join('\n')).toMatch(/no main agent/);
    expect(tree.notes.join('\n')).toMatch(/parent main is not among the inputs/);
    expect(tree.stopped[0]).toMatchObject({ agentId: 'sub', reason: 'max_steps', by: 'tree' });
    expect(() => replayTree([trace([call(1)])], options(NO_BRAKES))).toThrow(/no header.agent/);
  });
});
