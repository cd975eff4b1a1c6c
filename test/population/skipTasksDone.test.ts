/**
 * A sweep counts a closed-loop run's task as done by the run's own ground truth. Under `--repeat-action skip`
 * the forgetful agent of weekly-report.yaml is starved of the log it re-reads: every run stops `repeat` at
 * step 55 with its task undone. Judged by its unbraked run's done step (steps ≥ it), the sweep counted all 20
 * as tasks done and recommended skip.
 */
import { describe, expect, it } from 'vitest';
import { countsAsDone } from '../../src/metrics/groundTruth.js';
import { StopCode } from '../../src/kernel/stopCodes.js';
import { cli } from '../cli/run.js';

describe('tasks done under brakes that change what the agent sees', () => {
  it('weekly-report under skip: no task done, no recommendation', async () => {
    const r = await cli('sweep', 'scenarios/weekly-report.yaml', '--preset', 'none', '--max-repeat', '1', '--grid', 'repeat-action=stop,skip,max-skips=50', '--target-completion', '0.9', '--format', 'json');
    const report = JSON.parse(r.stdout) as { configurations: { brakes: string; tasksDone: { done: number; groundTruthRuns: number } }[]; recommendation: unknown };
    const skip = report.configurations.find((c) => c.brakes.includes('repeat-action=skip'))!;
    expect(skip.tasksDone).toMatchObject({ done: 0, groundTruthRuns: 20 });
    expect(report.recommendation).toBeNull();
  });

  it('a closed-loop run is done by its own truth; a compiled one by its unbraked run’s done step', () => {
    const truth = { doneAtStep: 10 };
    expect(countsAsDone(StopCode.Repeat, 55, truth, { taskDone: false })).toBe(false);
    expect(countsAsDone(StopCode.Repeat, 55, truth)).toBe(true);
    expect(countsAsDone(StopCode.Completed, 12, truth, { taskDone: true })).toBe(true);
    expect(countsAsDone(StopCode.MaxSteps, 9, truth)).toBe(false);
  });
});
