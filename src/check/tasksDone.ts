/**
 * check's tasks done: its runs judged as replay's summary and sweep's rows judge them (recommendRuns.ts
 * DoneCountsBuilder.judge, tasksDoneOf), so the figure replay headlines is the one `population.tasksDoneRate`
 * and `population.costPerTaskDoneUsd` read — judged only for a scenario that expects one of them. Runs without
 * ground truth (recordings) cannot say a task was done: an expectation on tasks done over them is refused, not
 * passed on nothing. Pure.
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
function checkTasksDone(pairs: readonly RunPair[], tally: Pick<PopulationTally, 'runs' | 'completed' | 'totalPico'>): TasksDone | undefined {
  const builder = new DoneCountsBuilder(1);
  for (const { run, baseline, truth } of pairs) builder.judge(0, { stop: stopCodeOf(run.stopReason), steps: run.steps, truth: baseline.truth, ownDone: truth?.taskDone });
  const counts = builder.take(0);
  return counts.groundTruthRuns === 0 ? undefined : tasksDoneOf(tally, counts);
}

type ExpectingScenario = { source: string; expect?: { population?: PopulationExpect } };

/**
 * The runs' tasks done where the scenario's expectations read them (`population.tasksDoneRate`,
 * `population.costPerTaskDoneUsd`), judged only then; undefined when none does. Refused (exit 2) when no run
 * carries ground truth (recorded traces).
 */
export function expectedTasksDone(scenario: ExpectingScenario, pairs: readonly RunPair[], tally: Pick<PopulationTally, 'runs' | 'completed' | 'totalPico'>): TasksDone | undefined {
  const given = TASKS_DONE_FIGURES.filter((name) => scenario.expect?.population?.[name] !== undefined);
  if (given.length === 0) return undefined;
  const tasksDone = checkTasksDone(pairs, tally);
  if (tasksDone === undefined) refuseTasksDoneWithoutTruth(scenario, given);
  return tasksDone;
}

/** Refuses (exit 2) the expectations on tasks done (`given`) of a scenario whose runs carry no ground truth (recorded traces). */
function refuseTasksDoneWithoutTruth(scenario: ExpectingScenario, given: readonly (typeof TASKS_DONE_FIGURES)[number][]): never {
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
