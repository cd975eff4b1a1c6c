/**
 * The one before-call step (src/loop/run.ts beforeCall; LoopSession.checkBeforeCall's brake order) in
 * every driver: the lone loop (runLoop), the session-tree replay (replaySessionTree), a live tree
 * (runAgentTree) and the real loop (agentLoop, driven by a trace-driven model) make the strategy's
 * summary calls at the same points at the same cost, and a brake that stops before a call stops each
 * of them at the same call. A driver that skipped the summary step (as live trees once did), or checked
 * its tree's totals before a summary call's spend reached them, or made a summary call its tree's brakes
 * would refuse the next call after, fails here.
 */
import { describe, expect, it } from 'vitest';
import type { ModelRequest } from '../../src/agent/types.js';
import { NO_BRAKES, type BrakeConfig } from '../../src/brakes/config.js';
import type { ContextStrategy } from '../../src/context/strategy.js';
import { ReplaySource } from '../../src/loop/replaySource.js';
import { runLoop } from '../../src/loop/run.js';
import type { RunOutcome, StepSource } from '../../src/loop/types.js';
import type { CallRecord } from '../../src/trace/types.js';
import { replaySessionTree } from '../../src/tree/engine.js';
import { runAgentTree } from '../../src/tree/live.js';
import type { AgentResult } from '../../src/tree/result.js';
import { figures, runTraceDriven } from '../agent/traceDriven.js';
import { call, lcg, MINI, toolCall, trace } from '../helpers.js';

const SYSTEM_TOKENS = 500;
const GOAL_TOKENS = 100;
const strategy: ContextStrategy = { kind: 'summary', summary: { triggerTokens: 6000, keepSteps: 2, summaryTokens: 300 }, cache: 'recorded' };

/** 18 steps of seeded sizes, distinct tool calls, then an answer; prompts unrecorded (each driver sizes them alike). */
function seededTrace() {
  const draw = lcg(42);
  const steps: CallRecord[] = Array.from({ length: 18 }, (_, i) => call(60 + draw(200), [toolCall('read', { i }, 200 + draw(1500))], { latencyMs: 500 + draw(1000) }));
  return trace([...steps, call(40, undefined, { latencyMs: 300 })], { system: SYSTEM_TOKENS, goal: GOAL_TOKENS, outcome: 'completed' });
}

const t = seededTrace();

/** A source that logs what the loop knew each time it asked for a response: calls made, spend so far, the prompt. */
function logged(log: number[][]): StepSource {
  const source = new ReplaySource(t);
  return {
    next: (view, state) => {
      log.push([state.calls, state.steps, state.spentPico, state.tokensUsed, view.inputTokens]);
      return source.next();
    },
    exhaustedReason: () => source.exhaustedReason(),
  };
}

/** What every driver reports alike. */
function compared(run: RunOutcome | AgentResult) {
  const stop = 'rows' in run ? run.stop : run.stop!;
  return { reason: stop.reason, detail: stop.detail, steps: run.steps, calls: run.calls, costPico: run.costPico, summaryCalls: run.summaryCalls ?? 0, summaryCostPico: run.summaryCostPico ?? 0 };
}

const lone = (brakes: BrakeConfig, log: number[][] = []) =>
  runLoop(logged(log), { brakes, strategy, cache: 'recorded', pricing: MINI, systemTokens: SYSTEM_TOKENS, goalTokens: GOAL_TOKENS, keepSteps: true });

const recordedTree = (brakes: BrakeConfig) =>
  replaySessionTree({ sessionId: 's', agents: [{ agentId: 'main', kind: 'main', runs: [t] }], notes: [] }, { brakes, strategy, pricingOf: () => MINI, cacheOf: () => 'recorded' }).agents[0]!;

const liveTree = (brakes: BrakeConfig, log: number[][] = []) =>
  runAgentTree({ agentId: 'main', source: logged(log), systemTokens: SYSTEM_TOKENS, goalTokens: GOAL_TOKENS }, { brakes, strategy, cache: 'recorded', pricing: MINI }).agents[0]!;

/** The real loop; `purposes`: each model request's, in order ('call' for the agent's own). */
async function realLoop(brakes: BrakeConfig, purposes: string[] = []) {
  const spy = (request: ModelRequest) => purposes.push(request.purpose ?? 'call');
  const run = await runTraceDriven(t, { brakes, strategy, pricing: MINI }, { model: (model) => ({ ...model, call: (request) => (spy(request), model.call(request)) }) });
  const f = figures(run);
  return { reason: f.stopReason, detail: f.stopDetail, steps: f.steps, calls: f.calls, costPico: f.costPico, summaryCalls: f.summaryCalls, summaryCostPico: f.summaryCostPico };
}

describe('the one before-call step, in every driver', () => {
  it('a summary strategy: the same summary calls after the same calls, at the same cost, and the same prompts after them', async () => {
    const loneLog: number[][] = [];
    const liveLog: number[][] = [];
    const alone = lone(NO_BRAKES, loneLog);
    const summaries = alone.rows.filter((row) => row.summary);
    expect(summaries.length).toBeGreaterThanOrEqual(2);
    expect(alone.stop.reason).toBe('completed');
    const live = liveTree(NO_BRAKES, liveLog);
    expect(liveLog).toEqual(loneLog);
    const purposes: string[] = [];
    const real = await realLoop(NO_BRAKES, purposes);
    // Where the real loop asked its model for a summary: its model call of the number the lone loop's rows give it (summary calls are calls).
    const realSummaryAt = purposes.flatMap((purpose, i) => (purpose === 'summary' ? [i + 1] : []));
    expect(realSummaryAt).toEqual(summaries.map((row) => row.call));
    const expected = compared(alone);
    expect(expected.summaryCostPico).toBe(summaries.reduce((sum, row) => sum + row.costPico, 0));
    for (const run of [compared(recordedTree(NO_BRAKES)), compared(live), real]) expect(run).toEqual(expected);
  });

  /** Brakes that stop the lone run at each of its calls (budgets reached exactly, by a summary call too, or just passed; step limits). */
  function brakeSets() {
    const rows = lone(NO_BRAKES).rows;
    const exact = rows.slice(0, -1).map((row) => ({ ...NO_BRAKES, maxCostPico: row.cumulativeCostPico }));
    const passed = rows.map((row) => ({ ...NO_BRAKES, maxCostPico: row.cumulativeCostPico + 1 }));
    const steps = [1, 4, 9, 18].map((maxSteps) => ({ ...NO_BRAKES, maxSteps }));
    /** Whether the lone run stopped where a summary call was due next. */
    const summaryDue = (run: ReturnType<typeof compared>) => run.reason !== 'completed' && rows[run.calls + run.summaryCalls]?.summary === true;
    return { rows, exact, all: [...exact, ...passed, ...steps], summaryDue };
  }

  it('a budget or step brake stops every driver at the same call, a summary call’s spend counted before the next call', async () => {
    const { rows, exact, all, summaryDue } = brakeSets();
    // A budget reached exactly by a call (a summary call included) stops the run before the next: it spent just that.
    for (const brakes of exact) expect([compared(lone(brakes)).reason, compared(lone(brakes)).costPico]).toEqual(['budget', brakes.maxCostPico]);
    expect(exact.filter((brakes) => rows.find((row) => row.cumulativeCostPico === brakes.maxCostPico)!.summary).length).toBeGreaterThanOrEqual(2);
    for (const brakes of all) {
      const expected = compared(lone(brakes));
      const label = JSON.stringify(brakes);
      expect(await realLoop(brakes), `real loop ${label}`).toEqual(expected);
      expect(compared(recordedTree(brakes)), `tree replay ${label}`).toEqual(expected);
      expect(compared(liveTree(brakes)), `live tree ${label}`).toEqual(expected);
    }
    // Among them, runs stopped where a summary call was due next: none makes it, the trees (whose brakes
    // bind the tree's totals) no more than the lone run (trees made it until 2026-12-04).
    expect(all.filter((brakes) => summaryDue(compared(lone(brakes)))).length).toBeGreaterThan(0);
  });
});
