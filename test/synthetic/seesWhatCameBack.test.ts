/**
 * A closed-loop agent acts on what its context holds: a tool call the duplicate-action guard skipped
 * (`--repeat-action skip`: a warning came back, StepSource.toolSkipped) or a response cut at max_tokens
 * (no tool call ran) brought no result. The forgetful agent reads again, the perfectionist shows its judge
 * no new sources, the healthy agent saw no failure; and a backtracker redoes an abandoned call differently.
 */
import { describe, expect, it } from 'vitest';
import { NO_BRAKES, type BrakeConfig } from '../../src/brakes/config.js';
import { newBrakeState, type BrakeState } from '../../src/brakes/state.js';
import { actionFingerprint } from '../../src/brakes/fingerprint.js';
import { brakesFromSpec } from '../../src/flags/settingsFlags.js';
import type { PromptView } from '../../src/kernel/context.js';
import { loadPriceTable } from '../../src/pricing/index.js';
import { loadScenarioFile, type Scenario } from '../../src/scenario/load.js';
import { scenarioRuns, type SyntheticRun } from '../../src/scenario/run.js';
import type { AgentEnv, SyntheticAgent } from '../../src/synthetic/agent.js';
import { createAgent, type BehaviourParams } from '../../src/synthetic/behaviours/index.js';
import { WRITE_TOOL } from '../../src/synthetic/behaviours/toolNames.js';
import type { CallRecord } from '../../src/trace/types.js';
import { entry, PRICES, scenarioOf } from './helpers.js';

const ENV: AgentEnv = { seed: 7, run: 0, outputTokens: 100, toolResultTokens: 200, framingTokensPerStep: 0, hardCapSteps: 100 };

/** Drives an agent by hand: each response enters the history as a step under full history; `skip` says which responses' tool calls the guard skipped. */
function drive(agent: SyntheticAgent, calls: number, skip: (i: number) => boolean = () => false): CallRecord[] {
  const state: BrakeState = newBrakeState();
  const out: CallRecord[] = [];
  for (let i = 0; i < calls; i++) {
    const view: PromptView = { inputTokens: 1000, fullInputTokens: 1000, unchangedPrefixTokens: 0, historySteps: state.steps, firstKeptStep: 0 };
    const response = agent.next(view, state, { maxOutputTokens: 4096 });
    if (!response) break;
    out.push(response);
    state.steps += 1;
    if (skip(i)) agent.toolSkipped(0);
  }
  return out;
}

const agentOf = (params: BehaviourParams): SyntheticAgent => createAgent(params, ENV);
const args = (call: CallRecord | undefined) => call?.toolCalls?.[0]?.arguments;
const toolName = (call: CallRecord | undefined) => call?.toolCalls?.[0]?.name;

describe('an agent acts on the results that came back', () => {
  it('forgetful: a read the guard skipped is no read; it reads again before writing a section', () => {
    const params: BehaviourParams = { behaviour: 'forgetful', steps: 3, observationTokens: 5000, tool: 'git_log' };
    expect(drive(agentOf(params), 5).map(toolName)).toEqual(['git_log', WRITE_TOOL, WRITE_TOOL, WRITE_TOOL, undefined]);
    // Its reads skipped twice (the guard's warning came back each time): it reads a third time, and only then writes.
    const calls = drive(agentOf(params), 6, (i) => i === 0 || i === 1);
    expect(calls.map(toolName)).toEqual(['git_log', 'git_log', 'git_log', WRITE_TOOL, WRITE_TOOL, WRITE_TOOL]);
  });

  it('forgetful: a read cut at max_tokens brought nothing back; it reads again', () => {
    const agent = agentOf({ behaviour: 'forgetful', steps: 2, observationTokens: 5000 });
    const state = newBrakeState();
    const view = (steps: number): PromptView => ({ inputTokens: 1000, fullInputTokens: 1000, unchangedPrefixTokens: 0, historySteps: steps, firstKeptStep: 0 });
    const cut = agent.next(view(0), state, { maxOutputTokens: 10 });
    expect(agent.lastCut).toBe(true);
    expect(cut!.toolCalls ?? []).toEqual([]);
    state.steps = 1;
    expect(args(agent.next(view(1), state, { maxOutputTokens: 4096 }) ?? undefined)).toEqual({ what: 'the observation' });
  });

  it('perfectionist: a skipped search found no sources, so the judge is shown the same sources as before', () => {
    const params: BehaviourParams = { behaviour: 'perfectionist', repeatQuery: 1 };
    const judged = (calls: CallRecord[]) => calls.filter((c) => toolName(c) === 'judge_sources').map((c) => (args(c) as { sourcesSoFar: number }).sourcesSoFar);
    expect(judged(drive(agentOf(params), 6))).toEqual([1, 2, 3]);
    // The second search (call 3, index 2) skipped: the judge after it still has one search's sources.
    expect(judged(drive(agentOf(params), 6, (i) => i === 2))).toEqual([1, 1, 2]);
  });

  it('healthy: a failing call the guard skipped is no failure seen, so the next failure is not "the same error again"', () => {
    const params: BehaviourParams = { behaviour: 'healthy', steps: 4, errorShare: 1, errorSameShare: 1, errorInARowShare: 1 };
    const errors = (calls: CallRecord[]) => calls.map((c) => c.toolCalls?.[0]?.error);
    expect(errors(drive(agentOf(params), 3))).toEqual(['exit 1: error in action 1', 'exit 1: error in action 1', 'exit 1: error in action 1']);
    expect(errors(drive(agentOf(params), 3, (i) => i === 0))).toEqual(['exit 1: error in action 1', 'exit 1: error in action 2', 'exit 1: error in action 2']);
  });
});

describe('the weekly-report agent under --repeat-action skip (scenarios/weekly-report.yaml)', () => {
  const scenario: Scenario = loadScenarioFile('scenarios/weekly-report.yaml');
  const runs = (brakes: BrakeConfig): SyntheticRun[] => [...scenarioRuns(scenario, { prices: loadPriceTable(), brakes }, true)];

  it('with its re-reads skipped it never gets the log back, so it writes no section without it and completes no run', () => {
    const unbraked = runs(NO_BRAKES);
    expect(unbraked.every((run) => run.result.stopReason === 'completed')).toBe(true);
    const skipped = runs({ ...brakesFromSpec('max-repeat=1'), repeatAction: 'skip', maxSkips: 50 });
    // Before: 20 of 20 completed, the 5,000-token log never back in the prompt after step 4.
    expect(skipped.filter((run) => run.result.stopReason === 'completed')).toEqual([]);
    for (const run of skipped) {
      expect(run.result.stopReason).toBe('repeat');
      expect(run.result.skippedActions).toBe(50);
      expect(run.truth.taskDone).toBe(false);
    }
  });
});

describe('backtracker', () => {
  const scenario = scenarioOf({ population: [entry('backtracker', { steps: { kind: 'uniform', min: 5, max: 10 }, backtrackShare: 0.3 })] });
  const runs = (brakes: BrakeConfig) => [...scenarioRuns(scenario, { prices: PRICES, runs: 200, seed: 1, brakes }, true)];

  it('redoes an abandoned call with other arguments, so a repeat limit of 1 stops no backtracking run', () => {
    const all = runs(NO_BRAKES);
    let redone = 0;
    for (const run of all) {
      run.calls.forEach((call, i) => {
        if (!call.backtrack) return;
        const abandoned = run.calls[i - 1]!.toolCalls![0]!;
        const redo = run.calls[i + 1]!.toolCalls?.[0];
        if (!redo) return;
        redone += 1;
        expect(actionFingerprint(redo.name, redo.arguments)).not.toBe(actionFingerprint(abandoned.name, abandoned.arguments));
      });
    }
    expect(redone).toBeGreaterThan(100);
    const braked = runs(brakesFromSpec('max-repeat=1,repeat-mode=total'));
    expect(braked.filter((run) => run.result.stopReason === 'repeat')).toEqual([]);
  });
});
