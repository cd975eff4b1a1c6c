/**
 * whatif judges "completions stopped" by ground truth where a run has it (groundTruth.ts, the rule sweep,
 * check, project and calibrate count by), against whatif's own baseline (the recorded or scenario
 * settings): a run whose task is done in the baseline, stopped before the step it is done at. Before, it
 * read the baseline's stop reason: an asker that answers and keeps asking (its baseline ends on a brake
 * or at the hard cap, never `completed`) stopped before its answer was "caught", not a completion
 * stopped; a retrier that gives up and answers anyway (`completed`, its task not done) stopped by the
 * same-error limit was a completion stopped, not a catch.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli, tempDir } from '../cli/run.js';

interface Row {
  source: string;
  baselineStopReason: string;
  stopReason: string;
  steps: number;
  baselineCompletionStopped: boolean;
  falseStop: boolean;
  savedUsd: number;
}
interface Report {
  baseline: { runs: number; groundTruthRuns?: number };
  totals: { baselineCompletionsStopped: number; falseStops: number; caughtRuns: number; savedUsd: number }[];
  runs: Row[];
}

async function whatif(...args: string[]): Promise<Report> {
  const r = await cli('whatif', ...args, '--per-run', '--format', 'json');
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as Report;
}

let dir: string;
let generated: string;
/** Each generated run's step its task is done at with no brakes, by source (the header's ground truth). */
const doneAt = new Map<string, number | undefined>();

beforeAll(async () => {
  dir = tempDir();
  generated = join(dir, 'asking.jsonl');
  const made = await cli('generate', 'scenarios/keeps-asking.yaml', '--runs', '8', '--seed', '3', '--out', generated);
  expect(made.code, made.stderr).toBe(0);
  const headers = readFileSync(generated, 'utf8').split('\n').filter((line) => line.includes('"type":"header"'));
  headers.forEach((line, i) => doneAt.set(`${generated}#${i + 1}`, (JSON.parse(line) as { synthetic: { doneAtStep?: number } }).synthetic.doneAtStep));
});

describe('whatif: completions stopped by ground truth', () => {
  it('generated traces (an asker, its baseline no brakes up to the hard cap): stopped before the step its task is done at', async () => {
    const report = await whatif(generated, '--try', 'max-steps=3');
    expect(report.baseline.groundTruthRuns).toBe(8);
    expect(report.runs).toHaveLength(8);
    const expected = report.runs.map((row) => {
      expect(row.baselineStopReason).not.toBe('completed');
      const done = doneAt.get(row.source);
      expect(done, row.source).toBeDefined();
      return row.stopReason === 'max_steps' && row.steps < done!;
    });
    expect(report.runs.map((row) => row.baselineCompletionStopped)).toEqual(expected);
    expect(report.runs.map((row) => row.falseStop)).toEqual(expected);
    const stopped = expected.filter(Boolean).length;
    expect(stopped).toBeGreaterThan(0);
    expect(stopped).toBeLessThan(8);
    expect(report.totals[0]!.baselineCompletionsStopped).toBe(stopped);
    // The others were stopped at or after their answer, before the hard cap: caught, with the spend saved.
    expect(report.totals[0]!.caughtRuns).toBe(8 - stopped);
    for (const row of report.runs) expect(row.savedUsd > 0).toBe(!row.baselineCompletionStopped);
  });

  it("a scenario file's runs: judged against its own brakes' run (its task done there, the asking cut by them)", async () => {
    const report = await whatif('scenarios/keeps-asking.yaml', '--runs', '8', '--seed', '3', '--try', 'max-steps=3');
    expect(report.baseline.groundTruthRuns).toBe(8);
    // The same agents as the generated traces (same seed and run index): the same verdicts.
    const expected = [...doneAt.values()].map((done) => done! > 3);
    expect(report.runs.map((row) => row.baselineCompletionStopped)).toEqual(expected);
    expect(report.totals[0]!.baselineCompletionsStopped).toBe(expected.filter(Boolean).length);
    expect(report.totals[0]!.caughtRuns).toBe(expected.filter((stopped) => !stopped).length);
  });

  it('a retrier that gives up and answers anyway (completed, its task not done) stopped by the same-error limit: caught, not a completion stopped', async () => {
    const file = join(dir, 'retrier.yaml');
    writeFileSync(
      file,
      [
        'scenario: loopcost.scenario/1',
        'model: gpt-4o-mini',
        'systemTokens: 100',
        'runs: 6',
        'population:',
        '  - behaviour: retrier',
        '    weight: 1',
        '    leadSteps: { kind: uniform, min: 0, max: 2 }',
        '    givesUpAfter: 12',
        '    outputTokens: 60',
        '    toolResultTokens: 40',
        '',
      ].join('\n'),
    );
    const report = await whatif(file, '--try', 'max-same-error=2');
    expect(report.runs.every((row) => row.baselineStopReason === 'completed')).toBe(true);
    expect(report.runs.every((row) => row.stopReason === 'error_limit')).toBe(true);
    expect(report.totals[0]).toMatchObject({ baselineCompletionsStopped: 0, falseStops: 0, caughtRuns: 6 });
    expect(report.totals[0]!.savedUsd).toBeGreaterThan(0);
  });

  it('recorded runs (no ground truth) are judged as before: by the baseline\'s stop reason, and no groundTruthRuns', async () => {
    const report = await whatif('test/fixtures/mini-swe-agent', '--try', 'max-steps=5');
    expect(report.baseline.groundTruthRuns).toBeUndefined();
    for (const row of report.runs) expect(row.baselineCompletionStopped).toBe(row.baselineStopReason === 'completed' && row.stopReason === 'max_steps');
  });
});
