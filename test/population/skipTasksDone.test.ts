/**
 * A sweep counts a closed-loop run's task as done by the run's own ground truth. Under `--repeat-action skip`
 * the forgetful agent of weekly-report.yaml is starved of the log it re-reads: every run stops `repeat` at
 * step 55 with its task undone. Judged by its unbraked run's done step (steps ≥ it), the sweep counted all 20
 * as tasks done and recommended skip.
 */
import { describe, expect, it } from 'vitest';
import { countsAsDone, isFalseStop } from '../../src/metrics/groundTruth.js';
import { StopCode } from '../../src/kernel/stopCodes.js';
import { cli } from '../cli/run.js';

describe('tasks done under brakes that change what the agent sees', () => {
  it('weekly-report under skip: no task done, no recommendation', async () => {
    const r = await cli('sweep', 'scenarios/weekly-report.yaml', '--preset', 'none', '--max-repeat', '1', '--grid', 'repeat-action=stop,skip,max-skips=50', '--target-completion', '0.9', '--format', 'json');
    const report = JSON.parse(r.stdout) as { configurations: { brakes: string; falseStops: number; caughtEarly: number; tasksDone: { done: number; groundTruthRuns: number } }[]; recommendation: unknown };
    const skip = report.configurations.find((c) => c.brakes.includes('repeat-action=skip'))!;
    expect(skip.tasksDone).toMatchObject({ done: 0, groundTruthRuns: 20 });
    // Each run's task is done with no brakes and a brake stopped it undone: 20 false stops (they were 0).
    expect([skip.falseStops, skip.caughtEarly]).toEqual([20, 0]);
    expect(report.recommendation).toBeNull();
  });

  it('a closed-loop run is done by its own truth; a compiled one by its unbraked run’s done step', () => {
    const truth = { doneAtStep: 10 };
    expect(countsAsDone(StopCode.Repeat, 55, truth, false)).toBe(false);
    expect(countsAsDone(StopCode.Repeat, 55, truth)).toBe(true);
    expect(countsAsDone(StopCode.Completed, 12, truth, true)).toBe(true);
    expect(countsAsDone(StopCode.MaxSteps, 9, truth)).toBe(false);
    const baseline = { stop: StopCode.Completed, truth };
    expect([isFalseStop(StopCode.Repeat, 55, baseline, false), isFalseStop(StopCode.Repeat, 55, baseline)]).toEqual([true, false]);
    expect(isFalseStop(StopCode.MaxSteps, 55, baseline, true)).toBe(false);
  });
});

describe('the frontier counts as the recommendation counts', () => {
  it('pareto is the configurations no other beats on tasks done and cost per task done (production-mix; review s25-r3)', async () => {
    const r = await cli('sweep', 'scenarios/production-mix.yaml', '--grid', 'max-steps=5,10,20,40', '--grid', 'max-repeat=2,4', '--grid', 'repeat-action=stop,skip', '--target-completion', '0.6', '--format', 'json');
    type Row = { settings: string; completionRate: number; tasksDone: { doneRate: number; costPerDoneUsd: number | null } };
    const report = JSON.parse(r.stdout) as { configurations: Row[]; pareto: string[] };
    const cost = (row: Row) => row.tasksDone.costPerDoneUsd ?? Infinity;
    const beats = (a: Row, b: Row) => a.tasksDone.doneRate >= b.tasksDone.doneRate && cost(a) <= cost(b) && (a.tasksDone.doneRate > b.tasksDone.doneRate || cost(a) < cost(b));
    const frontier = report.configurations.filter((row) => row.tasksDone.costPerDoneUsd !== null && !report.configurations.some((other) => beats(other, row)));
    expect([...report.pareto].sort()).toEqual(frontier.map((row) => row.settings).sort());
    // By stop reason the frontier differs here: the test tells the two apart.
    const byStop = report.configurations.filter((row) => !report.configurations.some((o) => o.completionRate > row.completionRate && (o as unknown as { costPerCompletedUsd: number }).costPerCompletedUsd <= (row as unknown as { costPerCompletedUsd: number }).costPerCompletedUsd));
    expect(byStop.map((row) => row.settings).sort()).not.toEqual(frontier.map((row) => row.settings).sort());
  });
});
