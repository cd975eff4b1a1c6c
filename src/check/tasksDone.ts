/**
 * check's tasks done: its runs judged as replay's summary and sweep's rows judge them (recommendRuns.ts
 * DoneCountsBuilder.judge, tasksDoneOf), so the figure replay headlines is the one `population.tasksDoneRate`
 * and `population.costPerTaskDoneUsd` read. Runs without ground truth (recordings) cannot say a task was done:
 * an expectation on tasks done over them is refused, not passed on nothing. Pure.
 */
import { UserError } from '../errors.js';
import { stopCodeOf } from '../kernel/stopCodes.js';
import type { PopulationTally, RunPair } from '../metrics/population.js';
import { DoneCountsBuilder, tasksDoneOf } from '../population/recommendRuns.js';
import type { TasksDone } from '../population/sweep.js';
import type { PopulationExpect } from '../scenario/expectSchema.js';
import { scenarioLineOf } from '../scenario/scenarioLines.js';

/** The population expectations that read tasks done (runs with ground truth). */
export const TASKS_DONE_FIGURES = ['tasksDoneRate', 'costPerTaskDoneUsd'] as const;

/** The runs' tasks done, as replay's summary counts them (`tasksDone`); undefined when no run carries ground truth. */
export function checkTasksDone(pairs: readonly RunPair[], tally: Pick<PopulationTally, 'runs' | 'completed' | 'totalPico'>): TasksDone | undefined {
  const builder = new DoneCountsBuilder(1);
  for (const { run, baseline, truth } of pairs) builder.judge(0, { stop: stopCodeOf(run.stopReason), steps: run.steps, truth: baseline.truth, ownDone: truth?.taskDone });
  const counts = builder.take(0);
  return counts.groundTruthRuns === 0 ? undefined : tasksDoneOf(tally, counts);
}

/** Refuses (exit 2) an expectation on tasks done of a scenario whose runs carry no ground truth (recorded traces). */
export function refuseTasksDoneWithoutTruth(scenario: { source: string; expect?: { population?: PopulationExpect } }, tasksDone: TasksDone | undefined): void {
  if (tasksDone !== undefined) return;
  const given = TASKS_DONE_FIGURES.filter((name) => scenario.expect?.population?.[name] !== undefined);
  if (given.length === 0) return;
  throw new UserError(
    given.map((name) => {
      const line = scenarioLineOf(scenario, ['expect', 'population', name]);
      return {
        file: scenario.source,
        ...(line === undefined ? {} : { line }),
        field: `expect.population.${name}`,
        code: 'no_ground_truth',
        message: 'counts tasks done, but no run of this scenario carries ground truth (recorded traces say only how they ended, not whether their task was done)',
        hint: `use ${name === 'tasksDoneRate' ? 'completionRate' : 'costPerCompletedUsd'} for recordings (it counts runs that ended \`completed\`), or add a synthetic population (docs/check.md)`,
      };
    }),
  );
}
