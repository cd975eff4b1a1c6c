/**
 * What a sweep row holds for a configuration's run pairs, computed independently of the sweep: the
 * population figures, what the runs cost with no brakes in all (baselineCostUsd, summed exactly), and where
 * runs carry ground truth their tasks done (a run with ground truth done when it got as far as the step its
 * task is done at with no brakes; one without when it completed).
 */
import { populationMetrics, type PopulationMetrics, type RunPair } from '../../src/metrics/population.js';
import { meanPico, picoToUsd } from '../../src/money.js';
import type { TasksDone } from '../../src/population/sweep.js';

export function sweptRowOf(pairs: readonly RunPair[]): PopulationMetrics & { baselineCostUsd: number; tasksDone?: TasksDone } {
  const baselinePico = pairs.reduce((sum, pair) => sum + BigInt(pair.baseline.costPico), 0n);
  const tasksDone = tasksDoneOf(pairs);
  return { ...populationMetrics(pairs), baselineCostUsd: picoToUsd(baselinePico), ...(tasksDone === undefined ? {} : { tasksDone }) };
}

function tasksDoneOf(pairs: readonly RunPair[]): TasksDone | undefined {
  const judged = pairs.filter((pair) => pair.baseline.truth !== undefined);
  if (judged.length === 0) return undefined;
  const doneAt = (pair: RunPair) => pair.baseline.truth?.doneAtStep;
  // A closed-loop run knows whether its own task was done (a skip may starve it past its unbraked done step).
  const isDone = (pair: RunPair) =>
    pair.baseline.truth === undefined ? pair.run.stopReason === 'completed' : pair.truth !== undefined ? pair.truth.taskDone : doneAt(pair) !== undefined && pair.run.steps >= doneAt(pair)!;
  const done = pairs.filter(isDone).length;
  const totalPico = pairs.reduce((sum, pair) => sum + BigInt(pair.run.costPico), 0n);
  return {
    done,
    doneRate: done / pairs.length,
    costPerDoneUsd: done === 0 ? null : picoToUsd(meanPico(totalPico, done)),
    groundTruthRuns: judged.length,
    completedNotDone: judged.filter((pair) => pair.run.stopReason === 'completed' && !isDone(pair)).length,
    doneNotCompleted: judged.filter((pair) => pair.run.stopReason !== 'completed' && isDone(pair)).length,
  };
}
