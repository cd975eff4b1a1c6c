/**
 * The spend per completed run is null exactly when no run completed: one rule (src/metrics/costFigureRules.ts
 * perCompletedProblem), said alike by a sweep shard's reader (report/sweepShardSchema.ts) and a check
 * baseline's (check/baselineSanity.ts), with the runs that completed counted.
 */
import { describe, expect, it } from 'vitest';
import { perCompletedProblem } from '../../src/metrics/costFigureRules.js';
import { rowProblems } from '../../src/report/sweepShardSchema.js';
import { scenarioFigureProblems } from '../../src/check/baselineSanity.js';

/** A shard row of 2 runs, both completed, for $2 in all: figures that agree but for `costPerCompletedUsd`. */
const ROW = {
  runs: 2, completed: 2, completionRate: 1, costUsd: 2, costPerRunUsd: { mean: 1, p50: 1, p95: 1, max: 1 }, costPerCompletedUsd: null as number | null,
  wastedUsd: 0, falseStops: 0, caughtEarly: 0, stopReasons: { completed: 2 },
} as unknown as Parameters<typeof rowProblems>[0];

/** The same runs as a baseline scenario stores them. */
const SCENARIO = {
  figures: { runs: 2, completionRate: 1, falseStopRate: 0, wastedShare: 0, costUsd: 2, costPerRunUsd: { mean: 1, p50: 1, p95: 1, max: 1 }, costPerCompletedUsd: null as number | null },
  expectations: {},
};

describe('spend per completed run: null exactly when none completed', () => {
  it('holds when null with none completed, or a figure with some', () => {
    expect(perCompletedProblem({ perCompletedUsd: null, completed: 0 })).toBeUndefined();
    expect(perCompletedProblem({ perCompletedUsd: 1.5, completed: 3 })).toBeUndefined();
  });

  it('says what is wrong, the completed runs counted', () => {
    expect(perCompletedProblem({ perCompletedUsd: 1.5, completed: 0 })).toBe('must be null when no run completed');
    expect(perCompletedProblem({ perCompletedUsd: null, completed: 1 })).toBe('is null, but 1 run completed');
    expect(perCompletedProblem({ perCompletedUsd: null, completed: 2 })).toBe('is null, but 2 runs completed');
  });

  it('a shard row and a baseline scenario say it with the same words', () => {
    const shard = rowProblems(ROW).filter((p) => p.field === 'costPerCompletedUsd');
    const baseline = scenarioFigureProblems(SCENARIO, 'usd').filter((p) => p.path.join('.') === 'figures.costPerCompletedUsd');
    expect(shard.map((p) => p.message)).toEqual(['is null, but 2 runs completed']);
    expect(baseline.map((p) => p.message)).toEqual(shard.map((p) => p.message));
  });
});
