/**
 * The step cap's worst case counts only steps: a backtrack or a compaction call is no step
 * (kernel/brakes.ts countsAsStep). Runs that backtrack are bounded by N + B calls under --max-backtracks B
 * (and not at all by a step cap alone); runs that compact are not bounded by the step cap. What the runs
 * make is read off the population: recorded calls, and the scenario behaviours that can backtrack.
 */
import { describe, expect, it } from 'vitest';
import { NO_BRAKES, type BrakeConfig } from '../../src/brakes/config.js';
import { collectInputs } from '../../src/io/collectInputs.js';
import { loadTraceFiles } from '../../src/import/index.js';
import { largestCallPico, ONLY_STEPS, uncountedCallsOf, worstCaseRun } from '../../src/population/worstCase.js';
import { replayTrace } from '../../src/replay/replay.js';
import { loadScenarioFile } from '../../src/scenario/load.js';
import { call, collectAsync, handPriced, handTable, MINI, toolCall, trace } from '../helpers.js';
import { cli } from '../cli/run.js';

const BACKTRACKS = { backtracks: true, compactions: false };
const COMPACTIONS = { backtracks: false, compactions: true };
const NO_BACKTRACK_CAP = 'these runs backtrack, and a step cap does not count backtracks or compactions: add --max-backtracks';
const largest = largestCallPico(MINI)!;

describe('worst case under a step cap, for runs that backtrack or compact', () => {
  it('runs that backtrack: no bound from a step cap alone (the budget, or unbounded), N + B calls under --max-backtracks B', () => {
    const steps: BrakeConfig = { ...NO_BRAKES, maxSteps: 3 };
    expect(worstCaseRun(steps, [MINI], { uncounted: BACKTRACKS })).toEqual({ perRunUsd: null, rule: `unbounded: no budget and no token cap with a known context window; ${NO_BACKTRACK_CAP}` });
    const budgeted = worstCaseRun({ ...steps, maxCostPico: 1e12 }, [MINI], { uncounted: BACKTRACKS });
    expect(budgeted.perRunUsd).toBe((1e12 + largest) / 1e12);
    expect(budgeted.rule).toBe(`the budget plus the largest single call (check mode stops once spent ≥ budget, after the call that crossed it); ${NO_BACKTRACK_CAP}`);
    const capped = worstCaseRun({ ...steps, maxBacktracks: 2 }, [MINI], { uncounted: BACKTRACKS });
    expect(capped.perRunUsd).toBe((5 * largest) / 1e12);
    expect(capped.rule).toBe('5 calls at the largest prompt a provider answers (the context window less max_tokens) and max_tokens of output: 3 steps and 2 backtracks (the backtrack past --max-backtracks 2 ends the run, and comes before step 3)');
    // A cap of 0 steps lets no call through, a backtrack included.
    expect(worstCaseRun({ ...NO_BRAKES, maxSteps: 0 }, [MINI], { uncounted: BACKTRACKS }).perRunUsd).toBe(0);
    // A summary call may come before each of those calls too.
    const own = largestCallPico(MINI, 500)!;
    expect(worstCaseRun({ ...steps, maxBacktracks: 2 }, [MINI], { uncounted: BACKTRACKS, summary: { summaryTokens: 500 } }).perRunUsd).toBe((5 * (largest + own)) / 1e12);
  });

  it('runs that compact: no bound from the step cap, even with a backtrack cap; the budget and the token cap still bound them', () => {
    const brakes: BrakeConfig = { ...NO_BRAKES, maxSteps: 3, maxBacktracks: 2 };
    const compact = 'these runs compact, and a step cap does not count backtracks or compactions (only a budget or a token cap bounds compaction calls)';
    expect(worstCaseRun(brakes, [MINI], { uncounted: COMPACTIONS })).toEqual({ perRunUsd: null, rule: `unbounded: no budget and no token cap with a known context window; ${compact}` });
    expect(worstCaseRun(brakes, [MINI], { uncounted: { backtracks: true, compactions: true } }).perRunUsd).toBeNull();
    const tokens = worstCaseRun({ ...brakes, maxTokens: 1000 }, [MINI], { uncounted: COMPACTIONS });
    expect(tokens.perRunUsd).toBe((1000 * MINI.base.output + largest) / 1e12);
    expect(tokens.rule).toBe(`the token cap at the dearest rate, plus the call that crossed it; ${compact}`);
    // Runs of steps alone keep the step cap's bound, whatever the backtrack cap.
    expect(worstCaseRun(brakes, [MINI], { uncounted: ONLY_STEPS }).perRunUsd).toBe((3 * largest) / 1e12);
  });

  it('a recorded run makes N + B calls under --max-steps N --max-backtracks B (either ending), past N × the largest call and within (N + B) ×', () => {
    // Prompts near a 1,000-token window, outputs at max_tokens (10): every call costs near the largest.
    const tiny = handPriced('tiny', { input: 1, output: 2 }, 1000);
    const step = (i: number) => call(10, [toolCall('t', { i }, 10)]);
    const back = () => call(10, undefined, { backtrack: true });
    const brakes: BrakeConfig = { ...NO_BRAKES, maxSteps: 3, maxBacktracks: 2, maxOutputTokens: 10 };
    const perCall = largestCallPico(tiny, 10)!;
    const endings = { backtrack_limit: [step(1), step(2), back(), back(), back(), step(3)], max_steps: [step(1), back(), back(), step(2), step(3), back()] };
    for (const [stopReason, calls] of Object.entries(endings)) {
      const recorded = trace(calls, { system: 900, model: 'tiny' });
      const run = replayTrace(recorded, { brakes, strategy: { kind: 'full', cache: 'off' }, prices: handTable(tiny) });
      expect(run.stopReason).toBe(stopReason);
      expect(run.modelCalls).toBe(3 + 2);
      const uncounted = uncountedCallsOf({ traces: [recorded] });
      expect(uncounted).toEqual(BACKTRACKS);
      expect(run.costPico).toBeGreaterThan(3 * perCall); // what the step cap alone claimed
      expect(run.costPico).toBeLessThanOrEqual(worstCaseRun(brakes, [tiny], { uncounted }).perRunUsd! * 1e12);
    }
  });
});

describe('what the population makes besides steps', () => {
  it('recorded runs: backtrack calls, compaction calls (a Claude Code auto-compact), neither', async () => {
    const read = async (path: string) => uncountedCallsOf({ traces: await collectAsync(loadTraceFiles(collectInputs([path]))) });
    expect(await read('scenarios/backtracking-explorer.jsonl')).toEqual(BACKTRACKS);
    expect(await read('test/fixtures/claude-code')).toEqual(COMPACTIONS);
    expect(await read('scenarios/long-exploration.jsonl')).toEqual(ONLY_STEPS);
  });

  it('scenario files: a backtracker that may backtrack (weight and share above 0), in runs that are made', () => {
    const of = (path: string, runs = 10) => uncountedCallsOf({ scenarios: [{ scenario: loadScenarioFile(path), runs, seed: 1 }] });
    expect(of('scenarios/flight-search.yaml')).toEqual(BACKTRACKS);
    expect(of('scenarios/production-mix.yaml')).toEqual(BACKTRACKS);
    expect(of('scenarios/recursive-verification.yaml')).toEqual(ONLY_STEPS);
    expect(of('scenarios/flight-search.yaml', 0)).toEqual(ONLY_STEPS);
    const flight = loadScenarioFile('scenarios/flight-search.yaml');
    const never = { ...flight, population: flight.population.map((entry) => ({ ...entry, backtrackShare: 0 })) };
    expect(uncountedCallsOf({ scenarios: [{ scenario: never, runs: 10, seed: 1 }] })).toEqual(ONLY_STEPS);
    const unweighted = { ...flight, population: [...flight.population.map((entry) => ({ ...entry, weight: 0 })), { behaviour: 'healthy' as const, weight: 1, steps: 3, outputTokens: 10, toolResultTokens: 10 }] };
    expect(uncountedCallsOf({ scenarios: [{ scenario: unweighted, runs: 10, seed: 1 }] })).toEqual(ONLY_STEPS);
  });
});

describe('loopcost project: the worst case of runs that backtrack or compact', () => {
  const gpt4oMini = (128_000 - 4096) * 0.15 + 4096 * 0.6; // the largest call (the largest prompt a provider answers), micro-dollars

  it('flight-search (a backtracking explorer): the budget under its reference brakes; unbounded under a step cap alone; 14 calls under --max-backtracks 2', async () => {
    const run = async (...flags: string[]) => JSON.parse((await cli('project', 'scenarios/flight-search.yaml', '--days', '2', '--trials', '20', '--format', 'json', ...flags)).stdout).worstCase;
    const reference = await run();
    expect(reference.perRunUsd).toBeCloseTo(0.5 + gpt4oMini / 1e6, 12);
    expect(reference.rule).toContain(NO_BACKTRACK_CAP);
    expect(await run('--preset', 'none', '--max-steps', '12')).toEqual({ perRunUsd: null, perDayUsd: null, rule: `unbounded: no budget and no token cap with a known context window; ${NO_BACKTRACK_CAP}` });
    const capped = await run('--preset', 'none', '--max-steps', '12', '--max-backtracks', '2');
    expect(capped.perRunUsd).toBeCloseTo((14 * gpt4oMini) / 1e6, 12);
    expect(capped.rule).not.toMatch(/\n/);
    // The synthetic backtrackers reach N + B calls, and no more: under --max-steps 3 --max-backtracks 1, 4.
    const few = ['scenarios/flight-search.yaml', '--preset', 'none', '--max-steps', '3', '--max-backtracks', '1', '--runs', '300', '--format', 'json'];
    const replayed = JSON.parse((await cli('replay', ...few)).stdout);
    expect(Math.max(...replayed.runs.map((r: { modelCalls: number }) => r.modelCalls))).toBe(4);
    expect((await run('--preset', 'none', '--max-steps', '3', '--max-backtracks', '1')).perRunUsd).toBeCloseTo((4 * gpt4oMini) / 1e6, 12);
  });

  it('recorded runs with a compaction call: a step cap gives no bound', async () => {
    const worst = JSON.parse((await cli('project', 'test/fixtures/claude-code', '--preset', 'none', '--max-steps', '12', '--max-backtracks', '2', '--days', '2', '--trials', '20', '--format', 'json')).stdout).worstCase;
    expect(worst.perRunUsd).toBeNull();
    expect(worst.rule).toContain('these runs compact, and a step cap does not count backtracks or compactions');
  });
});
