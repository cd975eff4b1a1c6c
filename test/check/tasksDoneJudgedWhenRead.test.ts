/**
 * check judges its runs' tasks done only for a scenario whose expectations read them
 * (`population.tasksDoneRate`, `population.costPerTaskDoneUsd`: tasksDone.ts expectedTasksDone); before, every
 * scenario's runs were judged, and the figure thrown away unless one of the two was given. What is judged and
 * refused is unchanged: tasksDoneExpect.test.ts holds the figures and the refusal over recordings.
 */
import { describe, expect, it } from 'vitest';
import { UserError } from '../../src/errors.js';
import type { RunPair } from '../../src/metrics/population.js';
import { expectedTasksDone } from '../../src/check/tasksDone.js';

/** Runs that cannot be read: judging them throws. */
const UNREAD = { [Symbol.iterator]: () => { throw new Error('the runs were judged'); } } as unknown as readonly RunPair[];
const TALLY = { runs: 0, completed: 0, totalPico: 0n };
const scenario = (population: Record<string, unknown>) => ({ source: 'scenario.yaml', expect: { population } });

describe('expectedTasksDone', () => {
  it('judges no run when no expectation reads tasks done', () => {
    expect(expectedTasksDone(scenario({ completionRate: { min: 0.5 } }), UNREAD, TALLY)).toBeUndefined();
    expect(expectedTasksDone({ source: 'scenario.yaml' }, UNREAD, TALLY)).toBeUndefined();
  });

  it('judges them when tasksDoneRate or costPerTaskDoneUsd is given', () => {
    expect(() => expectedTasksDone(scenario({ tasksDoneRate: { min: 0.5 } }), UNREAD, TALLY)).toThrow('the runs were judged');
    expect(() => expectedTasksDone(scenario({ costPerTaskDoneUsd: { max: 1 } }), UNREAD, TALLY)).toThrow('the runs were judged');
  });

  it('refuses them over runs without ground truth, naming each', () => {
    let thrown: unknown;
    try {
      expectedTasksDone(scenario({ tasksDoneRate: { min: 0.5 }, costPerTaskDoneUsd: { max: 1 } }), [], TALLY);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(UserError);
    expect((thrown as UserError).issues.map((issue) => [issue.field, issue.code])).toEqual([
      ['expect.population.tasksDoneRate', 'no_ground_truth'],
      ['expect.population.costPerTaskDoneUsd', 'no_ground_truth'],
    ]);
  });
});
