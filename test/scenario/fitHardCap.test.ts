/**
 * fit and the hard cap (scenario/fitHardCap.ts): no synthetic run goes past `hardCapSteps` (500 by default),
 * and fit wrote none, so a profile of recorded runs longer than 500 steps cut them all at 500 (its longest,
 * costliest runs). When the longest recorded run went past the default, the profile now writes a hardCapSteps
 * one past it (said in its comments), and its synthetic runs reach the recorded lengths, ending as they ended.
 */
import { describe, expect, it } from 'vitest';
import { NO_BRAKES } from '../../src/brakes/config.js';
import { fitScenario } from '../../src/scenario/fit.js';
import { fittedHardCapSteps, hardCapNote } from '../../src/scenario/fitHardCap.js';
import { MAX_HARD_CAP_STEPS } from '../../src/io/limits.js';
import { parseScenario } from '../../src/scenario/load.js';
import { runScenario } from '../../src/scenario/run.js';
import { DEFAULT_HARD_CAP_STEPS } from '../../src/scenario/settings.js';
import { scenarioYaml } from '../../src/scenario/writeYaml.js';
import type { Trace } from '../../src/trace/types.js';
import { call, distinctSteps, MINI, MINI_TABLE, trace } from '../helpers.js';

/** A recorded run of `steps` steps, each 10 tokens out and a tool result of 10 (730 steps: a prompt of ~15k, inside MINI's 128k window): answered at its last, or cut off after it. */
function recordedRun(steps: number, ending: 'answered' | 'cut off'): Trace {
  const calls = ending === 'answered' ? [...distinctSteps(steps - 1, 10, 10), call(10, undefined, { final: true })] : distinctSteps(steps, 10, 10);
  return trace(calls, { model: 'mini', outcome: ending === 'answered' ? 'completed' : 'limit', origin: 'recorded' });
}

const fitted = (traces: readonly Trace[]) => {
  const { scenario, notes } = fitScenario(traces, () => MINI);
  const yaml = scenarioYaml(scenario, notes);
  return { yaml, profile: parseScenario(yaml, 'profile.yaml') };
};

describe('fit: recorded runs past the default hard cap', () => {
  // Runs of 730 (answered) and 620 steps (cut off), and two short ones.
  const traces = [recordedRun(730, 'answered'), recordedRun(620, 'cut off'), recordedRun(5, 'answered'), recordedRun(6, 'answered')];

  it('the profile writes hardCapSteps one past the longest recorded run, and says so in its comments', () => {
    const { yaml, profile } = fitted(traces);
    expect(profile.hardCapSteps).toBe(731);
    expect(yaml).toMatch(/^# Hard cap: the longest recorded run took 730 steps, past the default cap of 500 .*hardCapSteps: 731, one past it/m);
    expect(yaml).toMatch(/^hardCapSteps: 731$/m);
  });

  it('its synthetic runs reach the recorded lengths (before: none past 500), the cut-off ones ending cut off, not at the cap', () => {
    const runs = runScenario(fitted(traces).profile, { prices: MINI_TABLE, runs: 200, seed: 1, brakes: NO_BRAKES });
    const steps = runs.map((run) => run.steps);
    expect(Math.max(...steps)).toBeGreaterThan(DEFAULT_HARD_CAP_STEPS);
    expect(Math.max(...steps)).toBeLessThanOrEqual(730);
    const cutOff = runs.filter((run) => run.steps === 620);
    expect(cutOff.length).toBeGreaterThan(0);
    expect(new Set(cutOff.map((run) => run.stopDetail))).toEqual(new Set(['the synthetic run was cut off after its last step, unanswered']));
    expect(runs.some((run) => run.stopDetail.includes('hard cap'))).toBe(false);
  });

  it('runs within the default write no hardCapSteps (the default holds), nor a comment of it', () => {
    const { yaml, profile } = fitted([recordedRun(500, 'answered'), recordedRun(5, 'answered')]);
    expect(profile.hardCapSteps).toBeUndefined();
    expect(yaml).not.toMatch(/hard ?cap/i);
  });

  it("the window group works on as far as the profile's cap: its steps are the cap, said in its note", () => {
    const refused = trace([...distinctSteps(3, 10, 10), call(0, undefined, { failed: { status: 400, message: 'too long', contextLengthExceeded: { promptTokens: 130_000 } } })], { model: 'mini', outcome: 'error', origin: 'recorded' });
    const { yaml, profile } = fitted([...traces, refused]);
    const window = profile.population.find((entry) => entry.name === 'unfinished: context window')!;
    expect((window as unknown as { steps: unknown }).steps).toBe(731);
    expect(yaml).toMatch(/\(steps: 731, the hard cap\)/);
  });

  it('a recorded run past the most a scenario may set writes that most (the profile loads), and its note says longer draws end at the cap', () => {
    const longest = fittedHardCapSteps([2_000_000, 5]);
    expect(longest).toBe(MAX_HARD_CAP_STEPS);
    expect(fittedHardCapSteps([MAX_HARD_CAP_STEPS - 2])).toBe(MAX_HARD_CAP_STEPS - 1);
    const { yaml } = fitted(traces);
    const profile = parseScenario(yaml.replace(/^hardCapSteps: 731$/m, `hardCapSteps: ${longest}`), 'profile.yaml');
    expect(profile.hardCapSteps).toBe(MAX_HARD_CAP_STEPS);
    expect(hardCapNote(longest)).toMatch(/took 999,999 steps or more, .*hardCapSteps: 1000000, the most a scenario may set: a synthetic run drawn longer ends at the cap/);
  });
});
