/**
 * Live session trees (src/tree/live.ts): a policy starts a sub-agent from a tool call; the sub-agent's
 * steps run under the parent's budget. The sub-agent here is a synthetic behaviour (closed loop).
 */
import { describe, expect, it } from 'vitest';
import { NO_BRAKES } from '../../src/brakes/config.js';
import { FULL_HISTORY, parseContextSpec } from '../../src/context/strategy.js';
import type { StepSource } from '../../src/loop/types.js';
import { runLoop } from '../../src/loop/run.js';
import { createAgent } from '../../src/synthetic/behaviours/index.js';
import type { CallRecord } from '../../src/trace/types.js';
import { runAgentTree, type LiveAgent } from '../../src/tree/live.js';
import { call, handPriced, MINI, toolCall } from '../helpers.js';

/** A scripted parent: reads, starts a sub-agent with a Task call, reads twice more, answers. */
function parentSource(): StepSource {
  const script: CallRecord[] = [call(80, [toolCall('read', { f: 1 }, 500)]), call(60, [toolCall('Task', { prompt: 'search' }, 300, { id: 'T1' })]), call(80, [toolCall('read', { f: 2 }, 500)]), call(80, [toolCall('read', { f: 3 }, 500)]), call(40)];
  let i = 0;
  return { next: () => script[i++] ?? null, exhaustedReason: () => 'trace_end' };
}

/** A healthy synthetic agent of 12 steps, seeded. */
function worker(): LiveAgent {
  const env = { seed: 7, run: 0, outputTokens: 300, toolResultTokens: 3000, framingTokensPerStep: 20, hardCapSteps: 100 };
  return { agentId: 'worker', source: createAgent({ behaviour: 'healthy', steps: 12 }, env), systemTokens: 400, goalTokens: 100 };
}

function tree(): LiveAgent {
  return { agentId: 'main', source: parentSource(), systemTokens: 300, goalTokens: 50, subagentFor: (tool) => (tool.name === 'Task' ? worker() : undefined) };
}

const options = { strategy: FULL_HISTORY, cache: 'off' as const, pricing: MINI };

describe('live session trees', () => {
  it("a sub-agent started by a tool call spends under the tree's totals; alone it costs what it costs in the tree", () => {
    const result = runAgentTree(tree(), { ...options, brakes: NO_BRAKES });
    expect(result.agents.map((agent) => [agent.agentId, agent.parentAgentId, agent.parentToolCallId, agent.steps, agent.stop?.reason])).toEqual([
      ['main', undefined, undefined, 5, 'completed'],
      ['worker', 'main', 'T1', 12, 'completed'],
    ]);
    const alone = runLoop(worker().source, { ...options, brakes: NO_BRAKES, systemTokens: 400, goalTokens: 100 });
    expect(result.agents[1]!.costPico).toBe(alone.costPico);
    expect(result.totals.costPico).toBe(result.agents[0]!.costPico + alone.costPico);
  });

  it("the tree's budget stops the sub-agent; its Task call ends with the stop as its error and the parent's next call is refused", () => {
    const full = runAgentTree(tree(), { ...options, brakes: NO_BRAKES }).totals.costPico;
    const budget = Math.round(full / 2);
    const result = runAgentTree(tree(), { ...options, brakes: { ...NO_BRAKES, maxCostPico: budget } });
    expect(result.stopped.map((stop) => [stop.agentId, stop.reason, stop.by])).toEqual([
      ['worker', 'budget', 'tree'],
      ['main', 'budget', 'tree'],
    ]);
    expect(result.agents[1]!.endedToolCall).toEqual({ agentId: 'main', toolCallId: 'T1', reason: 'budget' });
    expect(result.totals.costPico).toBeGreaterThanOrEqual(budget);
    const dearest = Math.max(...result.agents.map((agent) => agent.costPico / Math.max(1, agent.calls)));
    expect(result.totals.costPico).toBeLessThan(budget + 4 * dearest);
  });

  it('summary calls are made as the lone loop makes them, and under summary:…,model=X priced as X (summaryPricing)', () => {
    const strategy = parseContextSpec('summary:trigger=8000,keep=2,tokens=300,model=big');
    // Ten times mini's prices: each summary call costs exactly ten times as much.
    const big = handPriced('big', { input: 1.5, output: 6, cached: 0.75 }, 128_000);
    const own = runAgentTree(tree(), { ...options, strategy, brakes: NO_BRAKES });
    const priced = runAgentTree(tree(), { ...options, strategy, summaryPricing: big, brakes: NO_BRAKES });
    expect(own.totals.summaryCalls).toBeGreaterThan(0);
    expect(priced.agents.map((agent) => agent.steps)).toEqual(own.agents.map((agent) => agent.steps));
    expect(priced.totals.summaryCostPico).toBe(10 * own.totals.summaryCostPico);
    expect(priced.totals.costPico - own.totals.costPico).toBe(9 * own.totals.summaryCostPico);
    const alone = runLoop(worker().source, { ...options, strategy, summaryPricing: big, brakes: NO_BRAKES, systemTokens: 400, goalTokens: 100 });
    expect(alone.summaryCalls).toBeGreaterThan(0);
    expect([priced.agents[1]!.costPico, priced.agents[1]!.summaryCalls, priced.agents[1]!.steps]).toEqual([alone.costPico, alone.summaryCalls, alone.steps]);
  });

  it('a per-agent step limit stops only the sub-agent; the parent sees the error and completes', () => {
    const result = runAgentTree(tree(), { ...options, brakes: { ...NO_BRAKES, maxSameError: 1 }, subagentLimits: { maxSteps: 4 } });
    expect(result.agents.map((agent) => [agent.agentId, agent.steps, agent.stop?.reason, agent.stop?.by])).toEqual([
      // The Task call's error is the parent's first: max-same-error=1 stops the parent on it.
      ['main', 2, 'error_limit', 'own'],
      ['worker', 4, 'max_steps', 'subagent'],
    ]);
    const lenient = runAgentTree(tree(), { ...options, brakes: NO_BRAKES, subagentLimits: { maxSteps: 4 } });
    expect(lenient.agents.map((agent) => agent.stop?.reason)).toEqual(['completed', 'max_steps']);
  });
});

describe("a live tree's stop detail is told as a recorded tree's", () => {
  it("names the root agent and the tree's steps: `main: final answer after 5 steps; tree: 17 steps`", () => {
    const result = runAgentTree(tree(), { ...options, brakes: NO_BRAKES });
    expect(result.agents[0]!.stop?.detail).toBe('final answer after 5 steps');
    expect(result.stopDetail).toBe('main: final answer after 5 steps; tree: 17 steps');
  });

  it("a stop by the tree's brakes is told on the tree's totals, as a recorded tree's", () => {
    const result = runAgentTree(tree(), { ...options, brakes: { ...NO_BRAKES, maxSteps: 9 } });
    expect(result.stopReason).toBe('max_steps');
    expect(result.stopDetail).toBe(result.agents[0]!.stop!.detail);
    expect(result.stopDetail).not.toMatch(/^main/);
  });
});
