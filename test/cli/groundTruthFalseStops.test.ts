/**
 * A reviewer's support bot (test/fixtures/ground-truth/support.yaml): 28 of its runs are retriers that
 * give up on a flaky CRM tool and answer anyway — "completed" with no brakes, their task not done. The
 * same-error brake that stops them catches them: `check`, `sweep` (one thread or two) and `calibrate`
 * count no false stop, as the README's glossary defines one for synthetic runs (by ground truth), and
 * `calibrate` reads the same ground truth off generated traces' headers. A sweep of the scenario file runs
 * under its own brakes (max-repeat 3 among them) with the grid on top, so its perfectionists are caught too;
 * the generated traces, which carry no brakes, are swept with the file's brakes given as flags.
 */
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli, tempDir } from './run.js';

const SUPPORT = 'test/fixtures/ground-truth/support.yaml';
/** support.yaml's own brakes and cache, as flags (traces carry none). */
const FILE_SETTINGS = ['--max-steps', '15', '--max-cost', '0.25', '--max-repeat', '3', '--cache', 'on'];
let generated = '';

beforeAll(async () => {
  generated = join(tempDir(), 'gen.jsonl');
  const made = await cli('generate', SUPPORT, '--out', generated);
  expect(made.code, made.stderr).toBe(0);
});

interface Row {
  falseStops: number;
  falseStopRate: number | null;
  caughtEarly: number;
  stopReasons: Record<string, number>;
}

describe('false stops by ground truth, every command', () => {
  it('check: the same-error stops of the retriers are no false stops (28 of 266 before)', async () => {
    const { code, stdout } = await cli('check', SUPPORT, '--format', 'json');
    expect(code).toBe(1); // its p95 expectation fails, as the reviewer's did
    const scenario = (JSON.parse(stdout) as { scenarios: { expectations: { expectation: string; pass: boolean; breakdown?: unknown }[]; figures: Row }[] }).scenarios[0]!;
    const falseStopRate = scenario.expectations.find((e) => e.expectation === 'population.falseStopRate')!;
    expect(falseStopRate.pass).toBe(true);
    expect(falseStopRate.breakdown).toEqual({ stopped: 0, of: 245, byStop: [] });
    expect(scenario.figures.stopReasons.error_limit).toBe(28);
    expect([scenario.figures.falseStops, scenario.figures.falseStopRate]).toEqual([0, 0]);
  });

  it('sweep max-same-error=2,3,5: the 28 retriers caught by it (62 stuck runs in all, with the file\'s max-repeat 3), 0 false stops, one thread or two alike; generated traces the same', async () => {
    const grid = ['--grid', 'max-same-error=2,3,5', '--format', 'json'];
    const one = await cli('sweep', SUPPORT, ...grid, '--workers', '1');
    const two = await cli('sweep', SUPPORT, ...grid, '--workers', '2');
    expect(one.code, one.stderr).toBe(0);
    expect(two.stdout).toBe(one.stdout);
    const rows = (JSON.parse(one.stdout) as { configurations: Row[] }).configurations;
    expect(rows.map((r) => [r.falseStops, r.caughtEarly, r.stopReasons.error_limit])).toEqual([
      [0, 62, 28],
      [0, 62, 28],
      [0, 62, 28],
    ]);
    const fromTraces = await cli('sweep', generated, ...grid, ...FILE_SETTINGS, '--workers', '2');
    expect(fromTraces.code, fromTraces.stderr).toBe(0);
    expect((JSON.parse(fromTraces.stdout) as { configurations: Row[] }).configurations.map((r) => [r.falseStops, r.falseStopRate, r.caughtEarly])).toEqual(rows.map((r) => [r.falseStops, r.falseStopRate, r.caughtEarly]));
  });

  it('calibrate on generated traces: judged by their headers\' ground truth, as the scenario file', async () => {
    const grid = ['--grid', 'max-repeat=3', '--grid', 'max-same-error=2,3', '--format', 'json'];
    const fromScenario = await cli('calibrate', SUPPORT, ...grid);
    const fromTraces = await cli('calibrate', generated, ...grid, ...FILE_SETTINGS.filter((_, i, all) => all[i] !== '--max-repeat' && all[i - 1] !== '--max-repeat'));
    expect(fromTraces.code, fromTraces.stderr).toBe(0);
    expect(fromTraces.stderr).not.toContain('no scenario file');
    type Report = { inputs: { recordedRuns: number; syntheticRuns: number }; configurations: { synthetic: unknown; recorded: { runs: number } }[] };
    const traces = JSON.parse(fromTraces.stdout) as Report;
    const scenario = JSON.parse(fromScenario.stdout) as Report;
    expect(traces.inputs).toEqual({ recordedRuns: 0, syntheticRuns: 300 });
    expect(traces.configurations.map((c) => c.synthetic)).toEqual(scenario.configurations.map((c) => c.synthetic));
    expect(traces.configurations.map((c) => c.recorded.runs)).toEqual([0, 0]);
  });
});
