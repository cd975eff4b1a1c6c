/**
 * sweep's line on what completion counted (sweepCounted.ts `completionCounted`), when stop reasons alone would
 * pick another configuration none of whose `completed` runs left its task undone: the line said "but 0 of those
 * runs did not do the task", which explains nothing. The real difference is the other way round: runs that did
 * their task but ended by a brake or their trace's end count as tasks done, not as completed — so counted by stop
 * reason the pick misses the target, or costs more per completed run than per task done. The line now says so.
 */
import { describe, expect, it } from 'vitest';
import { countedRow, recommendedIndex } from '../../src/population/recommend.js';
import { completionCountedOf } from '../../src/report/sweepCounted.js';
import { cliJson } from './run.js';

interface TasksDone { done: number; doneRate: number; costPerDoneUsd: number | null; groundTruthRuns: number; completedNotDone: number; doneNotCompleted: number }
interface Row { settings: string; runs: number; completed: number; completionRate: number; costPerCompletedUsd: number | null; costUsd: number; tasksDone: TasksDone }
interface Report { configurations: Row[]; recommendation: { settings: string } | null; completionCounted: { by: string; settings: string | null; completedNotDone: number; text: string } }

const SWEEP = ['sweep', 'scenarios/production-mix.yaml', '--runs', '200', '--grid', 'max-steps=5,10,20,40', '--grid', 'max-repeat=2,3,5', '--target-completion', '0.5', '--workers', '1'];

describe('sweep: why stop reasons would pick another configuration', { timeout: 120_000 }, () => {
  it('the pick misses the target by stop reason: its runs done but ended by a brake are the difference', async () => {
    const report = (await cliJson(...SWEEP)) as Report;
    const byName = (settings: string | null | undefined) => report.configurations.find((row) => row.settings === settings)!;
    const pick = byName(report.recommendation!.settings);
    const counted = report.completionCounted;
    const named = byName(counted.settings);
    // The case: none of the named configuration's `completed` runs left its task undone; the pick completes
    // fewer than the target by stop reason, and more tasks are done than completed.
    expect([pick.settings, named.settings]).toEqual(['max-steps=10,max-repeat=2', 'max-steps=10,max-repeat=3']);
    expect(counted.completedNotDone).toBe(0);
    expect([pick.completed, pick.tasksDone.done, pick.tasksDone.doneNotCompleted, pick.tasksDone.completedNotDone]).toEqual([98, 103, 5, 0]);
    expect(counted.text).not.toContain('did not do the task');
    expect(counted.text).toBe(
      'Completion here counts tasks done (ground truth). By stop reason, max-steps=10,max-repeat=3 would be picked instead (100/200 complete): ' +
        'by stop reason max-steps=10,max-repeat=2 completes 98/200 (49.0%), below the target of 50.0%, but it gets 103/200 tasks done: ' +
        "runs that did the task but ended by a brake or their trace's end count as tasks done, not as completed (5 of its runs).",
    );
  });

  it('both reach the target by stop reason: the costs per completed run and per task done are the difference', () => {
    const tasks = (done: number, costPerDoneUsd: number, doneNotCompleted: number): TasksDone => ({ done, doneRate: done / 100, costPerDoneUsd, groundTruthRuns: 100, completedNotDone: 0, doneNotCompleted });
    // a: 60 complete at $0.10 each, 70 tasks done (10 ended by a brake after doing it) at $0.0857; b: 62 complete and done at $0.0984.
    const rows: Row[] = [
      { settings: 'max-steps=a', runs: 100, completed: 60, completionRate: 0.6, costPerCompletedUsd: 0.1, costUsd: 6, tasksDone: tasks(70, 0.085714285, 10) },
      { settings: 'max-steps=b', runs: 100, completed: 62, completionRate: 0.62, costPerCompletedUsd: 0.098387096, costUsd: 6.1, tasksDone: tasks(62, 0.098387096, 0) },
    ];
    const pick = recommendedIndex(rows.map(countedRow), 0.5);
    expect(pick).toBe(0);
    const counted = completionCountedOf(rows, { target: 0.5, pick, rule: {} })!;
    expect(counted).toMatchObject({ settings: 'max-steps=b', completedNotDone: 0 });
    expect(counted.text).toBe(
      'Completion here counts tasks done (ground truth). By stop reason, max-steps=b would be picked instead (62/100 complete at $0.0984 per completed run, against $0.1000 for max-steps=a): ' +
        "per task done, max-steps=a costs $0.0857 against $0.0984 for max-steps=b, as runs that did the task but ended by a brake or their trace's end count as tasks done, not as completed (10 of max-steps=a's, 0 of max-steps=b's).",
    );
  });
});
