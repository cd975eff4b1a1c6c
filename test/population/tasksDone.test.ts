/**
 * What a sweep's recommendation counts as completed where runs carry ground truth (groundTruth.ts
 * countsAsDone, decided once in SweepTallier): tasks done. The tally's counts and the runs it keeps for the
 * resamples agree with each configuration's runs judged one by one (closed loop, sweepPairs), on the compiled
 * path (recordings swept) and the closed-loop one (skip) alike; countedRow is what the recommendation ranks.
 */
import { describe, expect, it } from 'vitest';
import { stopCodeOf, StopCode } from '../../src/kernel/stopCodes.js';
import { countsAsDone } from '../../src/metrics/groundTruth.js';
import { gridConfigurations, parseGrid } from '../../src/population/grid.js';
import { countedRow, recommendedIndex } from '../../src/population/recommend.js';
import { addDoneCounts, DoneCountsBuilder } from '../../src/population/recommendRuns.js';
import { mergeSweepTallies, SweepPopulation, sweepPairs, SweepTallier, sweepTallyMetrics } from '../../src/population/sweep.js';
import { loadPriceTable } from '../../src/pricing/index.js';
import { loadScenarioFile } from '../../src/scenario/load.js';

const prices = loadPriceTable({});
const scenario = loadScenarioFile('scenarios/production-mix.yaml');
const configs = gridConfigurations(parseGrid(['max-steps=5,30,500', 'max-same-error=2,100', 'repeat-action=stop,skip']), { brakeFlags: { maxRepeat: '2' }, contextFlags: {} }).map((c) => c.config);

describe('countsAsDone: the one rule', () => {
  it('with ground truth, reached the step its task is done at; without, stop reason completed', () => {
    expect(countsAsDone(StopCode.Completed, 40, { doneAtStep: undefined })).toBe(false);
    expect(countsAsDone(stopCodeOf('max_steps'), 9, { doneAtStep: 10 })).toBe(false);
    expect(countsAsDone(stopCodeOf('max_steps'), 10, { doneAtStep: 10 })).toBe(true);
    expect(countsAsDone(stopCodeOf('trace_end'), 12, { doneAtStep: 10 })).toBe(true);
    expect(countsAsDone(StopCode.Completed, 3, undefined)).toBe(true);
    expect(countsAsDone(stopCodeOf('max_steps'), 3, undefined)).toBe(false);
  });
});

describe("a sweep's tasks done", () => {
  it('tallied as each run judged alone gives them, the kept runs flagged alike, shares merged the same', () => {
    const population = new SweepPopulation([], [{ scenario, runs: 120, seed: 1 }]);
    const tallies = new SweepTallier(configs, prices, new Map(), { keepRuns: true }).unit(0).add(population).finish();
    const pairs = sweepPairs(population, configs, prices);
    let parted = 0;
    configs.forEach((_, c) => {
      const judged = pairs[c]!.map(({ run, baseline }) => ({ completed: run.stopReason === 'completed', done: countsAsDone(stopCodeOf(run.stopReason), run.steps, baseline.truth) }));
      const expected = {
        groundTruthRuns: 120,
        completedNotDone: judged.filter((r) => r.completed && !r.done).length,
        doneNotCompleted: judged.filter((r) => r.done && !r.completed).length,
      };
      parted += expected.completedNotDone + expected.doneNotCompleted;
      expect(tallies[c]!.done).toEqual(expected);
      expect([...tallies[c]!.kept!.completed]).toEqual(judged.map((r) => (r.done ? 1 : 0)));
      const metrics = sweepTallyMetrics(mergeSweepTallies([tallies[c]!]));
      expect(metrics.tasksDone!.done).toBe(judged.filter((r) => r.done).length);
      expect(metrics.tasksDone!.doneRate).toBe(metrics.tasksDone!.done / 120);
    });
    // production-mix has agents that answer without doing the task, and runs a brake stops after theirs is done: the two counts part.
    expect(parted).toBeGreaterThan(0);
    // Two shares of the runs add up to the whole.
    const halves = [{ firstRun: 0, runs: 50 }, { firstRun: 50, runs: 70 }].map((part) => new SweepTallier(configs, prices).add(new SweepPopulation([], [{ scenario, seed: 1, ...part }])).finish());
    configs.forEach((_, c) => expect(mergeSweepTallies(halves.map((h) => h[c]!)).done).toEqual(tallies[c]!.done));
  });

  it('rolled back with the tally (a file found bad part way)', () => {
    const builder = new DoneCountsBuilder(2);
    builder.add(1, true, false);
    const mark = builder.mark();
    builder.add(1, false, true);
    builder.rollback(mark);
    expect(builder.take(1)).toEqual({ groundTruthRuns: 1, completedNotDone: 1, doneNotCompleted: 0 });
    expect(addDoneCounts([undefined, undefined])).toBeUndefined();
  });
});

describe('countedRow: what the recommendation ranks', () => {
  const row = (completed: number, costUsd: number, done?: number) => ({ runs: 10, completed, completionRate: completed / 10, costUsd, costPerCompletedUsd: costUsd / completed, ...(done === undefined ? {} : { tasksDone: { done, doneRate: done / 10, costPerDoneUsd: costUsd / done, groundTruthRuns: 10, completedNotDone: completed - done, doneNotCompleted: 0 } }) });

  it('tasks done where the row has them, else its completions', () => {
    const rows = [row(8, 8, 8), row(10, 9, 8)];
    // By stop reason the second (10 complete at $0.90 each); by tasks done the first (8 at $1.00 against 8 at $1.125).
    expect(recommendedIndex(rows, 0.8)).toBe(1);
    expect(recommendedIndex(rows.map(countedRow), 0.8)).toBe(0);
    expect(recommendedIndex(rows.map(countedRow), 0.9)).toBeUndefined();
    const plain = row(7, 7);
    expect(countedRow(plain)).toBe(plain);
  });
});
