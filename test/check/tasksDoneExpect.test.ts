/**
 * `check` holds the figure replay and sweep headline for synthetic runs: tasks done (by ground truth), not runs
 * that ended `completed`. The bundled Springfield retrier answers that it could not find the weather: with no
 * brake to stop it, every run completes and none does its task. `tasksDoneRate` / `costPerTaskDoneUsd` read
 * replay's `tasksDone.doneRate` / `tasksDone.costPerDoneUsd`; `taskDoneRate` gets a did-you-mean; over
 * recorded traces (no ground truth) an expectation on tasks done is refused, exit 2, not passed on nothing.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, cliJson, ONE_CALL_RUN, tempDir } from '../cli/run.js';

/** The bundled Springfield scenario with a step cap above the retrier's 90 attempts, held to `population`. */
function springfield(population: string): string {
  const text = readFileSync('scenarios/springfield-weather.yaml', 'utf8');
  const loose = text.replace('brakes: { preset: reference }', 'brakes: { max-steps: 200 }').replace(/^expect:.*\n {2}runs:.*\n/m, `expect:\n  population: ${population}\n`);
  expect(loose).not.toBe(text);
  const file = join(tempDir(), 'springfield.yaml');
  writeFileSync(file, loose);
  return file;
}

describe('check: population.tasksDoneRate and costPerTaskDoneUsd', () => {
  it('every run completes, none does its task: completionRate passes, tasksDoneRate fails; replay says the same', async () => {
    const file = springfield('{ completionRate: { min: 0.9 }, tasksDoneRate: { min: 0.5 } }');
    const report = await cli('check', file, '--format', 'json');
    expect(report.code, report.stderr).toBe(1);
    const results = JSON.parse(report.stdout).scenarios[0].expectations as { expectation: string; measured: unknown; pass: boolean }[];
    const byName = Object.fromEntries(results.map((r) => [r.expectation, r]));
    expect(byName['population.completionRate']).toMatchObject({ measured: 1, pass: true });
    expect(byName['population.tasksDoneRate']).toMatchObject({ measured: 0, pass: false });
    const replay = await cliJson('replay', file);
    expect(replay.summary.tasksDone.doneRate).toBe(byName['population.tasksDoneRate']!.measured);
  });

  it('a bound the runs keep passes: tasksDoneRate ≤ 0, and costPerTaskDoneUsd with no task done is none (fails)', async () => {
    const file = springfield('{ tasksDoneRate: { max: 0 }, costPerTaskDoneUsd: { max: 1 } }');
    const report = await cli('check', file, '--format', 'json');
    const results = JSON.parse(report.stdout).scenarios[0].expectations as { expectation: string; measured: unknown; pass: boolean }[];
    expect(results.map((r) => [r.expectation, r.measured, r.pass])).toEqual([
      ['population.tasksDoneRate', 0, true],
      ['population.costPerTaskDoneUsd', null, false],
    ]);
  });

  it('a baseline holds a tasks-done expectation as measured and reads it back: the check against it passes', async () => {
    const file = springfield('{ tasksDoneRate: { max: 0 } }');
    const baseline = join(tempDir(), 'baseline.json');
    const written = await cli('check', file, '--update-baseline', baseline);
    expect(written.code, written.stderr).toBe(0);
    expect(JSON.parse(readFileSync(baseline, 'utf8')).scenarios[0].expectations).toEqual({ 'population.tasksDoneRate': 0 });
    const again = await cli('check', file, '--baseline', baseline);
    expect(again.code, again.stderr).toBe(0);
  });

  it('taskDoneRate: did you mean tasksDoneRate', async () => {
    const r = await cli('check', springfield('{ taskDoneRate: { min: 0.5 } }'));
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/taskDoneRate/);
    expect(r.stderr).toMatch(/did you mean tasksDoneRate/);
  });

  it('recorded traces carry no ground truth: an expectation on tasks done is refused (file, line, field, completionRate instead)', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'run.jsonl'), ONE_CALL_RUN);
    const lines = ['scenario: loopcost.scenario/1', 'name: recorded', 'model: gpt-4o-mini', 'traces: [run.jsonl]', 'expect:', '  population:', '    tasksDoneRate: { min: 0.5 }'];
    writeFileSync(join(dir, 'recorded.yaml'), lines.join('\n') + '\n');
    const r = await cli('check', join(dir, 'recorded.yaml'));
    expect(r.code, r.stdout).toBe(2);
    expect(r.stderr).toMatch(/recorded\.yaml/);
    expect(r.stderr).toMatch(/:7\b|line 7/);
    expect(r.stderr).toMatch(/expect\.population\.tasksDoneRate/);
    expect(r.stderr).toMatch(/no run of this scenario carries ground truth/);
    expect(r.stderr).toMatch(/use completionRate for recordings/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });
});
