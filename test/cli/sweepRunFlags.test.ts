/**
 * A sweep's row flags (JSON, CSV, the recommendation's) carry the `--runs` and `--seed` given with scenario
 * files: they make the runs. Before, each row's flags read `--max-steps 20 --max-repeat 2` and, pasted after
 * `replay mix.yaml`, replayed the file's own 200 runs with seed 1, while the recommendation's text alone said
 * `--runs 300 --seed 3`. One rule writes them (sweepReproduce.ts syntheticRunFlags), said once in the text.
 */
import { describe, expect, it } from 'vitest';
import { cli } from './run.js';

const MIX = 'scenarios/production-mix.yaml';
const MINI = '../shared/traces/mini-swe-agent';

interface Row {
  settings: string;
  flags: string;
  costUsd: number;
  completed: number;
}

async function replaySummary(inputs: string[], flags: string): Promise<{ totalCostUsd: number; completed: number }> {
  const replay = await cli('replay', ...inputs, ...flags.split(' '), '--format', 'json');
  expect(replay.code, replay.stderr).toBe(0);
  return JSON.parse(replay.stdout).summary;
}

describe('sweep: the flags of a row carry the runs it was swept on', () => {
  it('JSON rows and the recommendation start with --runs and --seed, and pasted they replay to the row', async () => {
    const sweep = await cli('sweep', MIX, '--runs', '40', '--seed', '3', '--grid', 'max-steps=5,20', '--grid', 'max-repeat=2,3', '--target-completion', '0.3', '--format', 'json');
    expect(sweep.code, sweep.stderr).toBe(0);
    const report = JSON.parse(sweep.stdout);
    const rows: Row[] = report.configurations;
    expect(rows.map((row) => row.flags)).toEqual([
      '--runs 40 --seed 3 --max-steps 5 --max-repeat 2',
      '--runs 40 --seed 3 --max-steps 5 --max-repeat 3',
      '--runs 40 --seed 3 --max-steps 20 --max-repeat 2',
      '--runs 40 --seed 3 --max-steps 20 --max-repeat 3',
    ]);
    for (const row of rows) {
      const summary = await replaySummary([MIX], row.flags);
      expect(summary.totalCostUsd, row.flags).toBe(row.costUsd);
      expect(summary.completed, row.flags).toBe(row.completed);
    }
    // Without them the file's own 200 runs and seed 1 replay: other figures.
    const own = await replaySummary([MIX], rows[2]!.flags.replace('--runs 40 --seed 3 ', ''));
    expect(own.totalCostUsd).not.toBe(rows[2]!.costUsd);
    const { recommendation } = report;
    expect(recommendation.flags).toBe(rows.find((row) => row.settings === recommendation.settings)!.flags);
    expect(recommendation.text).toContain(`To reproduce it: loopcost replay ${MIX} ${recommendation.flags}`);
    expect(recommendation.text.match(/--runs/g)).toHaveLength(1);
  });

  it('the CSV cell too, after the command; no --runs where no scenario file makes runs', async () => {
    const csv = await cli('sweep', MIX, '--runs', '40', '--seed', '3', '--grid', 'max-steps=5,20', '--format', 'csv');
    expect(csv.code, csv.stderr).toBe(0);
    expect(csv.stdout.split('\n')[1]).toMatch(/^max-steps=5,replay --runs 40 --seed 3 --max-steps 5,/);
    // Trace files alone: --runs and --seed do nothing (a warning says so), so the flags leave them out.
    const traces = await cli('sweep', MINI, '--runs', '40', '--seed', '3', '--grid', 'max-steps=5,20', '--format', 'json');
    expect(traces.code, traces.stderr).toBe(0);
    expect(JSON.parse(traces.stdout).configurations.map((row: Row) => row.flags)).toEqual(['--max-steps 5', '--max-steps 20']);
  });

  it("calibrate's rows alike", async () => {
    const calibrate = await cli('calibrate', MIX, '--runs', '40', '--seed', '2', '--grid', 'max-repeat=2,3', '--format', 'json');
    expect(calibrate.code, calibrate.stderr).toBe(0);
    expect(JSON.parse(calibrate.stdout).configurations.map((row: Row) => row.flags)).toEqual(['--runs 40 --seed 2 --max-repeat 2', '--runs 40 --seed 2 --max-repeat 3']);
  });
});
