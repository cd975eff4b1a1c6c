/** Every behaviour, closed-loop through the one loop, with its ground truth. */
import { describe, expect, it } from 'vitest';
import { NO_BRAKES, REFERENCE_PRESET, type BrakeConfig } from '../../src/brakes/config.js';
import { actionFingerprint } from '../../src/brakes/fingerprint.js';
import { brakesFromSpec } from '../../src/flags/settingsFlags.js';
import type { ContextStrategy } from '../../src/context/strategy.js';
import { runScenario, scenarioRuns, type SyntheticRun } from '../../src/scenario/run.js';
import type { Scenario } from '../../src/scenario/load.js';
import { entry, PRICES, scenarioOf } from './helpers.js';

function runs(scenario: Scenario, opts: { runs?: number; brakes?: BrakeConfig; strategy?: ContextStrategy } = {}): SyntheticRun[] {
  return [...scenarioRuns(scenario, { prices: PRICES, runs: opts.runs ?? 200, seed: 1, brakes: opts.brakes ?? NO_BRAKES, ...(opts.strategy ? { strategy: opts.strategy } : {}) }, true)];
}

/** Tool calls whose action was already executed earlier in the run. */
function repeatedActions(run: SyntheticRun): number {
  const seen = new Set<string>();
  let repeats = 0;
  for (const call of run.calls) {
    for (const tool of call.toolCalls ?? []) {
      const key = actionFingerprint(tool.name, tool.arguments);
      if (seen.has(key)) repeats += 1;
      seen.add(key);
    }
  }
  return repeats;
}

const sum = (xs: number[]) => xs.reduce((s, x) => s + x, 0);

describe('healthy', () => {
  it('answers after its drawn steps; repeats and errors at their shares; done at the answer', () => {
    const scenario = scenarioOf({ population: [entry('healthy', { steps: { kind: 'uniform', min: 5, max: 15 }, repeatShare: 0.3, errorShare: 0.2 })] });
    const all = runs(scenario, { runs: 2000 });
    expect(all.every((r) => r.result.stopReason === 'completed')).toBe(true);
    expect(sum(all.map((r) => r.result.steps)) / all.length).toBeCloseTo(10, 0);
    const tools = all.flatMap((r) => r.calls.flatMap((c) => c.toolCalls ?? []));
    expect(tools.filter((t) => t.error).length / tools.length).toBeCloseTo(0.2, 1);
    // A repeat needs an earlier action: the first call of a run never repeats.
    const repeatable = tools.length - all.length;
    expect(sum(all.map(repeatedActions)) / repeatable).toBeCloseTo(0.3, 1);
    for (const r of all) expect(r.truth).toMatchObject({ behaviour: 'healthy', taskDone: true, doneAtStep: r.result.steps });
    expect(all.every((r) => r.truth.stuckFromStep === undefined)).toBe(true);
  });

  it('a step cap below its steps is a false stop: not done, never stuck', () => {
    const scenario = scenarioOf({ population: [entry('healthy', { steps: 10 })] });
    const [run] = runs(scenario, { runs: 1, brakes: brakesFromSpec('max-steps=4') });
    expect(run!.result.stopReason).toBe('max_steps');
    expect(run!.truth.taskDone).toBe(false);
    expect(run!.truth.stuckFromStep).toBeUndefined();
  });

  it('ending provider-error: the last call fails at the provider, paid nothing; trace_end, not done', () => {
    const scenario = scenarioOf({ population: [entry('healthy', { steps: 6, ending: 'provider-error' })] });
    const [run] = runs(scenario, { runs: 1 });
    expect(run!.result).toMatchObject({ stopReason: 'trace_end', steps: 6, failedCalls: 1 });
    expect(run!.result.stopDetail).toMatch(/provider failed/);
    expect(run!.calls.at(-1)!.failed).toBeDefined();
    expect(run!.truth.taskDone).toBe(false);
  });
});

describe('perfectionist', () => {
  const scenario = (repeatQuery: number) => scenarioOf({ population: [entry('perfectionist', { repeatQuery })] });

  it('never answers: with no brake it runs to the hard cap, stuck from its second search', () => {
    const [run] = runs(scenarioOf({ hardCapSteps: 40, population: [entry('perfectionist', { repeatQuery: 0.5 })] }), { runs: 1 });
    expect(run!.result).toMatchObject({ stopReason: 'trace_end', steps: 40 });
    expect(run!.result.stopDetail).toMatch(/hard cap of 40 steps/);
    expect(run!.truth).toMatchObject({ taskDone: false, stuckFromStep: 3 });
  });

  it('reference brakes: the 4th identical search (step 7) when searches repeat, the 12-step cap when none does', () => {
    const repeating = runs(scenario(1), { runs: 50, brakes: REFERENCE_PRESET });
    for (const r of repeating) {
      expect(r.result).toMatchObject({ stopReason: 'repeat', steps: 7 });
      expect(r.result.stopDetail).toMatch(/web_search already seen 3 times/);
    }
    const differing = runs(scenario(0), { runs: 50, brakes: REFERENCE_PRESET });
    for (const r of differing) expect(r.result).toMatchObject({ stopReason: 'max_steps', steps: 12 });
    // Same agents: the step cap lets the differing ones spend more.
    expect(sum(differing.map((r) => r.result.costPico))).toBeGreaterThan(sum(repeating.map((r) => r.result.costPico)));
  });

  it('searches repeat the first query at the rate asked', () => {
    const all = runs(scenarioOf({ hardCapSteps: 41, population: [entry('perfectionist', { repeatQuery: 0.25 })] }), { runs: 200 });
    const searches = all.flatMap((r) => r.calls.flatMap((c) => c.toolCalls ?? []).filter((t) => t.name === 'web_search'));
    const first = searches.filter((t) => !String((t.arguments as { query: string }).query).includes('phrasing')).length - all.length;
    expect(first / (searches.length - all.length)).toBeCloseTo(0.25, 1);
  });
});

describe('repeater', () => {
  it('the same call again and again: a consecutive limit of 3 stops the 4th; stuck from the loop\'s second call', () => {
    const scenario = scenarioOf({ population: [entry('repeater', { leadSteps: 2 })] });
    const [run] = runs(scenario, { runs: 1, brakes: brakesFromSpec('max-repeat=3,repeat-mode=consecutive') });
    expect(run!.result).toMatchObject({ stopReason: 'repeat', steps: 6 });
    expect(run!.truth).toMatchObject({ taskDone: false, stuckFromStep: 4 });
  });

  it('a cycle of 4 (the folder): the A/B cycle detector never fires, a total limit of 3 fires on the 13th reorganisation', () => {
    const cycle = [{ by: 'type' }, { by: 'date' }, { by: 'project' }, { by: 'size' }];
    const scenario = scenarioOf({ hardCapSteps: 30, population: [entry('repeater', { leadSteps: 1, cycle, firstCallDoesTheTask: true })] });
    const [cycled] = runs(scenario, { runs: 1, brakes: brakesFromSpec('max-repeat=2,repeat-mode=cycle') });
    expect(cycled!.result.stopReason).toBe('trace_end');
    const [total] = runs(scenario, { runs: 1, brakes: brakesFromSpec('max-repeat=3') });
    expect(total!.result).toMatchObject({ stopReason: 'repeat', steps: 14 });
    expect(total!.truth).toMatchObject({ taskDone: true, doneAtStep: 2, stuckFromStep: 3 });
  });

  it('an A/B cycle is caught by the cycle detector', () => {
    const scenario = scenarioOf({ population: [entry('repeater', { cycle: [{ by: 'type' }, { by: 'date' }] })] });
    const [run] = runs(scenario, { runs: 1, brakes: brakesFromSpec('max-repeat=2,repeat-mode=cycle') });
    expect(run!.result.stopReason).toBe('repeat');
  });
});

describe('retrier', () => {
  const scenario = scenarioOf({ hardCapSteps: 200, population: [entry('retrier', { tool: 'get_weather', error: 'LocationNotFound', givesUpAfter: 90 })] });

  it('stopped by --max-same-error 3 at its third failure, never by --max-repeat 3 in any mode', () => {
    for (const r of runs(scenario, { runs: 20, brakes: brakesFromSpec('max-same-error=3') })) {
      expect(r.result).toMatchObject({ stopReason: 'error_limit', steps: 3 });
      expect(r.truth.stuckFromStep).toBe(2);
    }
    for (const mode of ['total', 'consecutive', 'cycle']) {
      for (const r of runs(scenario, { runs: 20, brakes: brakesFromSpec(`max-repeat=3,repeat-mode=${mode}`) })) {
        expect(r.result.stopReason).not.toBe('repeat');
        expect(r.result).toMatchObject({ stopReason: 'completed', steps: 91 });
      }
    }
  });

  it('gives up after its attempts: the run completes, the task is not done', () => {
    const [run] = runs(scenario, { runs: 1 });
    expect(run!.result.stopReason).toBe('completed');
    expect(run!.truth).toMatchObject({ taskDone: false, stuckFromStep: 2 });
  });
});

describe('forgetful', () => {
  const scenario = scenarioOf({ population: [entry('forgetful', { steps: { kind: 'uniform', min: 10, max: 20 }, observationTokens: 3000 })] });

  it('under window:3 it makes more steps and more repeated actions than under full history, run by run', () => {
    const full = runs(scenario, { runs: 100, strategy: { kind: 'full' } });
    const window = runs(scenario, { runs: 100, strategy: { kind: 'window', windowSteps: 3 } });
    for (let i = 0; i < full.length; i++) {
      expect(repeatedActions(full[i]!)).toBe(0);
      expect(window[i]!.result.steps).toBeGreaterThan(full[i]!.result.steps);
      expect(repeatedActions(window[i]!)).toBeGreaterThan(0);
      expect(window[i]!.truth.taskDone && full[i]!.truth.taskDone).toBe(true);
    }
    // It re-reads once every 3 work steps under window:3 (the read itself fills one of the 3 places).
    const extraSteps = sum(window.map((r) => r.result.steps)) - sum(full.map((r) => r.result.steps));
    expect(extraSteps).toBe(sum(window.map(repeatedActions)));
  });

  it('the same agent under both: the same work steps with the same token sizes', () => {
    const [full] = runs(scenario, { runs: 1, strategy: { kind: 'full' } });
    const [window] = runs(scenario, { runs: 1, strategy: { kind: 'window', windowSteps: 3 } });
    const work = (r: SyntheticRun) => r.calls.filter((c) => c.toolCalls?.[0]?.name === 'write_section');
    expect(work(window!)).toEqual(work(full!));
  });
});

describe('asker', () => {
  it('done at its delivery, stuck from its first question; one phrasing is caught at the 4th question', () => {
    const scenario = scenarioOf({ population: [entry('asker', { workSteps: 3 })] });
    const [run] = runs(scenario, { runs: 1, brakes: REFERENCE_PRESET });
    expect(run!.result).toMatchObject({ stopReason: 'repeat', steps: 7 });
    expect(run!.truth).toMatchObject({ taskDone: true, doneAtStep: 3, stuckFromStep: 4 });
  });

  it('three phrasings take 3 × 3 + 1 questions to meet a total limit of 3', () => {
    const scenario = scenarioOf({ population: [entry('asker', { workSteps: 3, phrasings: 3 })] });
    const [run] = runs(scenario, { runs: 1, brakes: brakesFromSpec('max-repeat=3') });
    expect(run!.result).toMatchObject({ stopReason: 'repeat', steps: 3 + 10 });
  });
});

describe('backtracker', () => {
  const scenario = scenarioOf({ population: [entry('backtracker', { steps: 10, backtrackShare: 0.3 })] });

  it('backtracks at its rate: paid calls that are not steps', () => {
    const all = runs(scenario, { runs: 500 });
    const backtracks = sum(all.map((r) => r.result.backtracks));
    expect(all.every((r) => r.result.modelCalls === r.result.steps + r.result.backtracks)).toBe(true);
    expect(all.every((r) => r.result.stopReason === 'completed' && r.truth.taskDone)).toBe(true);
    // Each of the 9 tool steps is abandoned with probability 0.3 (and each retry too): 9 × 0.3/0.7 per run.
    expect(backtracks / all.length / ((9 * 0.3) / 0.7)).toBeCloseTo(1, 1);
    const rows = runs(scenario, { runs: 50, brakes: brakesFromSpec('max-backtracks=0') });
    expect(rows.filter((r) => r.result.stopReason === 'backtrack_limit').length).toBe(rows.filter((r) => r.calls.some((c) => c.backtrack)).length);
  });
});

describe('sloppy', () => {
  it('unparseable responses at their rate: steps without progress; a step cap meets it sooner', () => {
    const scenario = scenarioOf({ population: [entry('sloppy', { steps: 10, unparseableShare: 0.25 })] });
    const all = runs(scenario, { runs: 500 });
    const calls = all.flatMap((r) => r.calls);
    expect(calls.filter((c) => c.unparseable).length / calls.length).toBeCloseTo(0.25, 1);
    expect(all.every((r) => r.result.steps === r.calls.length && r.truth.taskDone)).toBe(true);
    const capped = runScenario(scenario, { prices: PRICES, runs: 500, seed: 1, brakes: brakesFromSpec('max-steps=12') });
    expect(capped.filter((r) => r.stopReason === 'max_steps').length).toBe(all.filter((r) => r.result.steps > 12).length);
  });
});

describe('runs are independent of each other', () => {
  it('a slice of runs (firstRun) is the same runs of a larger sample', () => {
    const scenario = scenarioOf({ population: [entry('healthy', { steps: { kind: 'uniform', min: 2, max: 9 } }), entry('sloppy', { steps: 4, unparseableShare: 0.3 })] });
    const all = runScenario(scenario, { prices: PRICES, runs: 20, seed: 3 });
    const slice = runScenario(scenario, { prices: PRICES, runs: 10, seed: 3, firstRun: 5 });
    expect(slice).toEqual(all.slice(5, 15));
  });
});
