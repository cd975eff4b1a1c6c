/**
 * `sweep --workers N` splitting the runs (src/cli/actions/sweepShares.ts, sweepUnits.ts): the threads take
 * trace files and chunks of each scenario's runs off one queue; the report is byte-identical to one thread
 * — with one input file holding many runs and more workers than files, several files, a context axis
 * (context-token curves), a target (halved step caps asked of the workers), and bad files.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { sweepUnits } from '../../src/cli/actions/sweepUnits.js';
import { cli, tempDir } from './run.js';

const GRID = ['--grid', 'max-steps=5,12,30', '--grid', 'max-repeat=2,4', '--grid', 'context=full,window:4', '--target-completion', '0.3', '--format', 'json'];
let dir = '';
let many = '';
let parts: string[] = [];

beforeAll(async () => {
  dir = tempDir();
  many = join(dir, 'many.jsonl');
  const generated = await cli('generate', 'scenarios/production-mix.yaml', '--runs', '60', '--seed', '5', '--out', many);
  expect(generated.code, generated.stderr).toBe(0);
  // The same runs in four files of 15 runs each.
  const lines = readFileSync(many, 'utf8').split('\n').filter((line) => line !== '');
  const runs: string[][] = [];
  for (const line of lines) (line.includes('"type":"header"') ? runs.push([line]) : runs.at(-1)!.push(line));
  parts = [0, 1, 2, 3].map((k) => join(dir, `part${k}.jsonl`));
  parts.forEach((file, k) => writeFileSync(file, runs.slice(k * 15, (k + 1) * 15).flat().join('\n') + '\n'));
});

/** `inputs` swept with one thread and with two: the two outputs, errors and codes must be the same; the first returned. */
async function oneAndTwoThreads(inputs: readonly string[], extra: readonly string[]) {
  const one = await cli('sweep', ...inputs, ...GRID, ...extra, '--workers', '1');
  const two = await cli('sweep', ...inputs, ...GRID, ...extra, '--workers', '2');
  expect([two.code, two.stdout, two.stderr]).toEqual([one.code, one.stdout, one.stderr]);
  return one;
}

describe('sweep --workers split by runs', () => {
  it('one file with many runs, more workers than files: byte-identical to one thread', async () => {
    const one = await cli('sweep', many, ...GRID, '--workers', '1');
    const three = await cli('sweep', many, ...GRID, '--workers', '3');
    expect(one.code, one.stderr).toBe(0);
    expect(three.code, three.stderr).toBe(0);
    expect(three.stdout).toBe(one.stdout);
    const report = JSON.parse(one.stdout) as { inputs: { recordedRuns: number }; contextTokens?: unknown; configurations: { halfStepCap?: unknown }[] };
    expect(report.inputs.recordedRuns).toBe(60);
    expect(report.contextTokens).toBeDefined();
    expect(report.configurations.some((row) => row.halfStepCap !== undefined)).toBe(true);
  });

  it('several files and a scenario, split over 2 and 3 workers: byte-identical to one thread', async () => {
    const args = [...parts, 'scenarios/production-mix.yaml', '--runs', '7', ...GRID];
    const one = await cli('sweep', ...args, '--workers', '1');
    expect(one.code, one.stderr).toBe(0);
    for (const workers of ['2', '3']) {
      const split = await cli('sweep', ...args, '--workers', workers);
      expect(split.code, split.stderr).toBe(0);
      expect(split.stdout).toBe(one.stdout);
    }
    // The one-file sweep of the same runs reads the same population.
    const whole = JSON.parse((await cli('sweep', many, 'scenarios/production-mix.yaml', '--runs', '7', ...GRID, '--workers', '2')).stdout) as { configurations: unknown };
    expect(whole.configurations).toEqual((JSON.parse(one.stdout) as { configurations: unknown }).configurations);
  });

  it('bad files: refused, or with --skip-bad listed, exactly as one thread does', async () => {
    const bad = join(dir, 'bad.jsonl');
    writeFileSync(bad, readFileSync(parts[1]!, 'utf8').replace('"outputTokens":', '"outputTokens":-'));
    const inputs = [parts[0]!, bad, parts[2]!, parts[3]!];
    for (const extra of [[], ['--skip-bad']]) {
      const one = await oneAndTwoThreads(inputs, extra);
      expect(one.code).toBe(extra.length === 0 ? 2 : 0);
      expect(one.stderr).toContain('bad.jsonl');
    }
  });

  it('a share of bad files only: the same error (or, with --skip-bad, the same list) as one thread', async () => {
    const bad = [1, 2].map((k) => join(dir, `bad-only${k}.jsonl`));
    for (const file of bad) writeFileSync(file, readFileSync(parts[bad.indexOf(file) + 1]!, 'utf8').replace('"outputTokens":', '"outputTokens":-'));
    // Two good files then two bad ones of the same size: with 2 threads the second share is the bad files.
    const inputs = [parts[0]!, parts[3]!, ...bad];
    for (const extra of [[], ['--skip-bad']]) {
      const one = await oneAndTwoThreads(inputs, extra);
      expect(one.code).toBe(extra.length === 0 ? 2 : 0);
      expect(one.stderr).toContain('bad-only2.jsonl');
    }
    // Every file bad: refused alike, with or without --skip-bad.
    for (const extra of [[], ['--skip-bad']]) {
      const one = await oneAndTwoThreads(bad, extra);
      expect(one.code).toBe(2);
    }
  });
});

describe('sweepUnits', () => {
  it('one unit per file, largest first (ties in file order), then each scenario’s runs in contiguous chunks', () => {
    const files = ['a', 'b', 'c', 'd', 'e'];
    const units = sweepUnits(files, [10, 20, 50, 10, 20], [7, 0], 2);
    const byFile = units.filter((u) => u.files.length > 0);
    expect(byFile.map((u) => [u.files, u.order])).toEqual([[['c'], 2], [['b'], 1], [['e'], 4], [['a'], 0], [['d'], 3]]);
    expect(byFile.every((u) => u.scenarioRuns.every((r) => r.runs === 0))).toBe(true);
    // Scenario 0's 7 runs in 4 chunks (2 per thread), covering 0..6 once; scenario 1 has none.
    const chunks = units.slice(5).map((u) => u.scenarioRuns);
    expect(chunks.map((r) => r[0])).toEqual([{ firstRun: 0, runs: 1 }, { firstRun: 1, runs: 2 }, { firstRun: 3, runs: 2 }, { firstRun: 5, runs: 2 }]);
    expect(chunks.every((r) => r[1]!.runs === 0)).toBe(true);
    // Fewer runs than chunks: a chunk per run. Nothing at all: one empty unit.
    expect(sweepUnits([], [], [3], 4).map((u) => u.scenarioRuns[0])).toEqual([{ firstRun: 0, runs: 1 }, { firstRun: 1, runs: 1 }, { firstRun: 2, runs: 1 }]);
    expect(sweepUnits([], [], [], 3)).toEqual([{ files: [], scenarioRuns: [], order: 0 }]);
  });
});
