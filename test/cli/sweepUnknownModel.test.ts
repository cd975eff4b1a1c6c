/**
 * A run whose own model no price table knows makes its file bad in `sweep`, `calibrate` and `project` as
 * in `replay`: found by the per-file guard with the file's other problems, so it is named with every other
 * bad file (exit 2, nothing written), or left out and listed under --skip-bad with the good runs reported —
 * on the runs read whole, a share's (--target-completion), a file streamed, a byte range of a split file,
 * on one thread or two (byte-identical). Under --model (or a grid of models) no configuration prices a run
 * as its own model: its own model is never asked for, and its file is good.
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { splitCount, splitSizes } from '../../src/cli/actions/sweepSplit.js';
import { cli, tempDir } from './run.js';

const UNKNOWN = /misspelt\.jsonl:line 1 field 'header\.model': unknown model 'gpt-4o-minii' \(did you mean gpt-4o-mini/;
const SIZES = { ...splitSizes };
let dir = '';
/** good.jsonl and good2.jsonl (one run each), misspelt.jsonl (the same run on gpt-4o-minii), notjson.jsonl. */
let traces = '';

beforeAll(() => {
  dir = tempDir();
  traces = join(dir, 'tr');
  mkdirSync(traces);
  const run = readFileSync('scenarios/reference-sum-of-squares.jsonl', 'utf8');
  expect(run).toContain('"model":"gpt-4o-mini"');
  copyFileSync('scenarios/reference-sum-of-squares.jsonl', join(traces, 'good.jsonl'));
  copyFileSync('scenarios/reference-sum-of-squares.jsonl', join(traces, 'good2.jsonl'));
  writeFileSync(join(traces, 'misspelt.jsonl'), run.replace('"model":"gpt-4o-mini"', '"model":"gpt-4o-minii"'));
  writeFileSync(join(traces, 'notjson.jsonl'), '{bad\n');
});

afterEach(() => {
  Object.assign(splitSizes, SIZES);
});

type Result = { code: number; stdout: string; stderr: string };

/** Refused: both bad files named in one message, exit 2, nothing written to `out`. */
function expectRefused(r: Result, out: string): void {
  expect(r.code, r.stderr).toBe(2);
  expect(r.stderr).toMatch(UNKNOWN);
  expect(r.stderr).toContain('notjson.jsonl:line 1: is not valid JSON at column 2');
  expect(r.stderr).toContain('2 of 4 input files have problems; nothing was written');
  expect(existsSync(out)).toBe(false);
}

/** With --skip-bad: both bad files listed, the two good runs reported. */
function expectSkipped(r: Result): void {
  expect(r.code, r.stderr).toBe(0);
  expect(r.stderr).toContain('skipped 2 of 4 input files with problems (--skip-bad):\n');
  expect(r.stderr).toMatch(UNKNOWN);
  expect(r.stderr).toContain('notjson.jsonl:line 1: is not valid JSON at column 2');
  expect((JSON.parse(r.stdout) as { inputs: { recordedRuns: number } }).inputs.recordedRuns).toBe(2);
}

/** Under a model every run is priced as: only the file that is not JSON is bad, three runs reported. */
function expectGood(r: Result): void {
  expect(r.code, r.stderr).toBe(0);
  expect(r.stderr).toContain('skipped 1 of 4 input files with problems');
  expect(r.stderr).not.toContain('misspelt');
  expect((JSON.parse(r.stdout) as { inputs: { recordedRuns: number } }).inputs.recordedRuns).toBe(3);
}

describe('sweep: a run of an unknown model is a bad file', () => {
  const GRID = ['--grid', 'max-steps=2,3', '--format', 'json'];

  for (const extra of [[], ['--target-completion', '0.5']]) {
    it(`named with the other bad file, or left out with --skip-bad, the same on 1 and 2 threads ${extra.join(' ')}`, async () => {
      const out = join(dir, 'sweep.json');
      const results: Result[] = [];
      for (const workers of ['1', '2']) {
        const refused = await cli('sweep', traces, ...GRID, ...extra, '--workers', workers, '--out', out);
        expectRefused(refused, out);
        const skipped = await cli('sweep', traces, ...GRID, ...extra, '--workers', workers, '--skip-bad');
        expectSkipped(skipped);
        results.push(refused, skipped);
      }
      expect(results.slice(2)).toEqual(results.slice(0, 2));
    });
  }

  it('--tree (the runs read on the command thread): the same', async () => {
    const out = join(dir, 'tree.json');
    expectRefused(await cli('sweep', traces, ...GRID, '--tree', '--out', out), out);
    expectSkipped(await cli('sweep', traces, ...GRID, '--tree', '--skip-bad'));
  });

  it('under --model gpt-4o, or a grid of models, its file is good', async () => {
    for (const workers of ['1', '2']) {
      expectGood(await cli('sweep', traces, ...GRID, '--workers', workers, '--skip-bad', '--model', 'gpt-4o'));
      expectGood(await cli('sweep', traces, ...GRID, '--workers', workers, '--skip-bad', '--grid', 'model=gpt-4o,gpt-4o-mini'));
    }
  });

  it('a run of an unknown model in a middle range of a split file: exactly as the file read whole', async () => {
    const many = join(dir, 'many.jsonl');
    const generated = await cli('generate', 'scenarios/production-mix.yaml', '--runs', '40', '--seed', '3', '--out', many);
    expect(generated.code, generated.stderr).toBe(0);
    let seen = 0;
    const lines = readFileSync(many, 'utf8').split('\n');
    const text = lines.map((line) => (line.startsWith('{"type":"header"') && ++seen === 30 ? line.replace('"model":"gpt-4o-mini"', '"model":"gpt-4o-minii"') : line)).join('\n');
    expect(text).toContain('gpt-4o-minii');
    const headerLine = text.split('\n').findIndex((line) => line.includes('gpt-4o-minii')) + 1;
    expect(headerLine).toBeGreaterThan(100);
    const file = join(dir, 'split.jsonl');
    writeFileSync(file, text);
    const other = join(traces, 'good.jsonl');
    for (const extra of [[], ['--skip-bad']]) {
      splitSizes.minFileBytes = Number.POSITIVE_INFINITY;
      const whole = await cli('sweep', file, other, ...GRID, ...extra, '--workers', '1');
      // The 30th run's own header line, the file's line (not its range's), read whole or split.
      expect(whole.stderr).toContain(`${file}#30:line ${headerLine} field 'header.model': unknown model 'gpt-4o-minii'`);
      expect(whole.code).toBe(extra.length === 0 ? 2 : 0);
      Object.assign(splitSizes, { minFileBytes: 1, minUnitBytes: 1 });
      splitCount.ranges = 0;
      const split = await cli('sweep', file, other, ...GRID, ...extra, '--workers', '2');
      expect(splitCount.ranges).toBeGreaterThanOrEqual(8);
      expect([split.code, split.stdout, split.stderr]).toEqual([whole.code, whole.stdout, whole.stderr]);
    }
  });
});

describe('calibrate and project: a run of an unknown model is a bad file', () => {
  const COMMANDS = [
    ['calibrate', '--format', 'json'],
    ['project', '--runs-per-day', '10', '--format', 'json'],
  ];

  for (const [command, ...flags] of COMMANDS) {
    it(`${command}: named with the other bad file, or left out with --skip-bad; under --model gpt-4o its file is good`, async () => {
      const out = join(dir, `${command}.json`);
      expectRefused(await cli(command!, traces, ...flags, '--out', out), out);
      expectSkipped(await cli(command!, traces, ...flags, '--skip-bad'));
      expectGood(await cli(command!, traces, ...flags, '--skip-bad', '--model', 'gpt-4o'));
    });
  }

  it('calibrate with a grid of models: its file is good', async () => {
    expectGood(await cli('calibrate', traces, '--format', 'json', '--skip-bad', '--grid', 'model=gpt-4o,gpt-4o-mini'));
  });
});
