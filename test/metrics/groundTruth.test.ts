/**
 * False stops, catches and savings by ground truth (src/metrics/groundTruth.ts), as every population
 * tally counts them (TallyBuilder.add and addCoded: sweep, check, project): a run with ground truth is a
 * false stop only when a brake stopped it before the step its task is done at with no brakes, and the
 * false-stop rate is over the runs whose task is done; a run without (recorded) keeps the outcome rule.
 */
import { describe, expect, it } from 'vitest';
import type { StopReason } from '../../src/brakes/stopReasons.js';
import { stopCodeOf } from '../../src/kernel/stopCodes.js';
import { populationMetrics, populationTally, stopVerdict, TallyBuilder, Verdict, type BaselineTruth, type RunPair } from '../../src/metrics/population.js';

/** A run stopped by `stopReason` after `steps` steps costing `costPico`, against a baseline of `base` (its truth, if given). */
function pair(run: { stopReason: StopReason; steps: number; costPico: number }, base: { stopReason: StopReason; steps: number; costPico: number }, truth?: BaselineTruth): RunPair {
  return {
    run: { ...run, inputTokens: 0, cachedInputTokens: 0, outputTokens: 0, overshootPico: 0 },
    baseline: { ...base, ...(truth === undefined ? {} : { truth }) },
  };
}

/** A retrier that gives up on a flaky tool and answers anyway: "completed" with no brakes at step 12, its task not done, stuck from step 4. */
const RETRIER_BASE = { stopReason: 'completed', steps: 12, costPico: 1_200 } as const;
const RETRIER_TRUTH: BaselineTruth = { stuckFromStep: 4 };
const SAME_ERROR_STOP = { stopReason: 'error_limit', steps: 6, costPico: 600 } as const;

describe('false stops by ground truth', () => {
  it('a retrier the same-error brake stops: caught, no false stop, and out of the false-stop rate (its task is never done)', () => {
    const m = populationMetrics([pair(SAME_ERROR_STOP, RETRIER_BASE, RETRIER_TRUTH)]);
    expect([m.falseStops, m.falseStopRate, m.caughtEarly, m.savedUsd]).toEqual([0, null, 1, 600e-12]);
  });

  it('recorded runs (no ground truth) keep the outcome rule: the same stop of a run that completes is a false stop', () => {
    const m = populationMetrics([pair(SAME_ERROR_STOP, RETRIER_BASE)]);
    expect([m.falseStops, m.falseStopRate, m.caughtEarly, m.savedUsd]).toEqual([1, 1, 0, 0]);
    const caught = populationMetrics([pair(SAME_ERROR_STOP, { stopReason: 'max_steps', steps: 12, costPico: 1_200 })]);
    expect([caught.falseStops, caught.falseStopRate, caught.caughtEarly, caught.savedUsd]).toEqual([0, null, 1, 600e-12]);
  });

  it('a run stopped before the step its task is done at is a false stop; after it, a catch; at the no-brake run\'s end, neither', () => {
    const base = { stopReason: 'completed', steps: 10, costPico: 1_000 } as const;
    const truth: BaselineTruth = { doneAtStep: 5, stuckFromStep: 6 };
    const before = populationMetrics([pair({ stopReason: 'max_steps', steps: 4, costPico: 400 }, base, truth)]);
    expect([before.falseStops, before.falseStopRate, before.caughtEarly, before.savedUsd]).toEqual([1, 1, 0, 0]);
    const after = populationMetrics([pair({ stopReason: 'repeat', steps: 7, costPico: 700 }, base, truth)]);
    expect([after.falseStops, after.falseStopRate, after.caughtEarly, after.savedUsd]).toEqual([0, 0, 1, 300e-12]);
    // On the step the task is done at: done, so no false stop.
    expect(populationMetrics([pair({ stopReason: 'budget', steps: 5, costPico: 500 }, base, truth)]).falseStops).toBe(0);
    const atEnd = populationMetrics([pair({ stopReason: 'budget', steps: 10, costPico: 1_000 }, base, truth)]);
    expect([atEnd.falseStops, atEnd.caughtEarly]).toEqual([0, 0]);
    // A run whose task is done though its no-brake run does not complete (stuck verifying done work): counted among those done.
    const stuck = populationMetrics([pair({ stopReason: 'repeat', steps: 3, costPico: 300 }, { stopReason: 'max_steps', steps: 50, costPico: 5_000 }, truth)]);
    expect([stuck.falseStops, stuck.falseStopRate, stuck.caughtEarly]).toEqual([1, 1, 0]);
  });

  it('stopVerdict: no brake, no verdict', () => {
    const baseline = { stop: stopCodeOf('completed'), steps: 10, truth: { doneAtStep: 5 } };
    expect(stopVerdict(stopCodeOf('completed'), 3, baseline)).toBe(Verdict.Neither);
    expect(stopVerdict(stopCodeOf('trace_end'), 3, baseline)).toBe(Verdict.Neither);
    expect(stopVerdict(stopCodeOf('max_steps'), 3, baseline)).toBe(Verdict.FalseStop);
    expect(stopVerdict(stopCodeOf('max_steps'), 6, baseline)).toBe(Verdict.Caught);
  });

  it('addCoded (a sweep\'s cells) counts as add does, the truth carried on the baseline', () => {
    const pairs = [pair(SAME_ERROR_STOP, RETRIER_BASE, RETRIER_TRUTH), pair(SAME_ERROR_STOP, RETRIER_BASE), pair({ stopReason: 'max_steps', steps: 4, costPico: 400 }, { stopReason: 'completed', steps: 10, costPico: 1_000 }, { doneAtStep: 5 })];
    const coded = new TallyBuilder();
    for (const { run, baseline } of pairs) coded.addCoded({ ...run, stop: stopCodeOf(run.stopReason) }, { stop: stopCodeOf(baseline.stopReason), steps: baseline.steps, costPico: baseline.costPico, truth: baseline.truth });
    const tally = coded.finish();
    expect(tally).toEqual(populationTally(pairs));
    expect([tally.falseStops, tally.baselineCompleted, tally.caughtEarly]).toEqual([2, 2, 1]);
  });
});
