/** Closed-loop synthetic agents see masked and summarised observations as gone (isStepVisible), and fetch them again. */
import { describe, expect, it } from 'vitest';
import { NO_BRAKES } from '../../src/brakes/config.js';
import { parseContextSpec } from '../../src/context/strategy.js';
import { runScenario } from '../../src/scenario/run.js';
import { isStepVisible } from '../../src/synthetic/visibility.js';
import { entry, PRICES, scenarioOf } from '../synthetic/helpers.js';

const scenario = scenarioOf({ population: [entry('forgetful', { steps: 12, observationTokens: 3000 })] });

function rereads(spec: string): { reads: number; steps: number; summaries: number } {
  const [run] = runScenario(scenario, { prices: PRICES, runs: 1, seed: 1, brakes: NO_BRAKES, strategy: parseContextSpec(spec), keepSteps: true });
  return { reads: run!.rows.filter((r) => !r.summary).length - 13 - 1, steps: run!.steps, summaries: run!.summaryCalls ?? 0 };
}

describe('closed loop under masking and summaries', () => {
  it('a masked tool result is not visible; its step still is', () => {
    const view = { inputTokens: 0, fullInputTokens: 0, unchangedPrefixTokens: 0, historySteps: 10, firstKeptStep: 0, firstUnmaskedStep: 7 };
    expect(isStepVisible(view, 6)).toBe(false);
    expect(isStepVisible(view, 7)).toBe(true);
  });

  it('the forgetful agent re-reads its observation under mask:3 and after summaries, never under full history', () => {
    const full = rereads('full');
    const mask = rereads('mask:3');
    const summary = rereads('summary:trigger=8000,keep=2,tokens=500');
    expect(full.reads).toBe(0);
    // Masking the results before the last 3 steps hides the read exactly when window:3 drops it.
    expect(mask.reads).toBe(rereads('window:3').reads);
    expect(mask.reads).toBeGreaterThan(0);
    expect(mask.steps).toBe(full.steps + mask.reads);
    expect(summary.summaries).toBeGreaterThan(0);
    expect(summary.reads).toBeGreaterThan(0);
  });
});
