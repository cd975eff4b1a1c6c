/**
 * `sweep --workers N` on one big plain native file (src/cli/actions/sweepSplit.ts): the file is cut into
 * byte ranges that any thread takes, each read as the whole file's reader reads it
 * (src/import/nativeRange.ts). Split with tiny sizes here, the report, its errors and code are
 * byte-identical to the file read whole on one thread: many runs, one run, a bad line in a middle range
 * (with and without --skip-bad), a run without its end record just before a range's start; with
 * --target-completion too (its halved step caps tallied over each thread's ranges' runs).
 */
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { UserError, type InputIssue } from '../../src/errors.js';
import { streamTraceFile } from '../../src/import/index.js';
import { readNativeRange, UNSPLIT_HEADER_CODE } from '../../src/import/nativeRange.js';
import { readLimits } from '../../src/io/limits.js';
import { byteRanges, splitCount, splitSizes } from '../../src/cli/actions/sweepSplit.js';
import type { ByteRange } from '../../src/io/byteRange.js';
import type { Trace } from '../../src/trace/types.js';
import { expectToEqual } from '../expectToEqual.js';
import { cli, tempDir } from './run.js';

const GRID = ['--grid', 'max-steps=5,12,30', '--grid', 'max-repeat=2,4', '--grid', 'context=full,window:4', '--format', 'json'];
const SIZES = { ...splitSizes };
let dir = '';
let many = '';
let other = '';
let single = '';

beforeAll(async () => {
  dir = tempDir();
  [many, other, single] = ['many.jsonl', 'other.jsonl', 'single.jsonl'].map((name) => join(dir, name)) as [string, string, string];
  for (const [file, runs, seed] of [[many, '60', '5'], [other, '20', '6'], [single, '1', '7']] as const) {
    const generated = await cli('generate', 'scenarios/production-mix.yaml', '--runs', runs, '--seed', seed, '--out', file);
    expect(generated.code, generated.stderr).toBe(0);
  }
});

afterEach(() => {
  Object.assign(splitSizes, SIZES);
});

/**
 * The sweep of `inputs` read whole on one thread, then split on 1 and 2 threads: each the same (code,
 * stdout, stderr). (Two threads: the machines this runs on have two cores; sweep caps --workers at the
 * cores. No module is mocked: the suite's files share their workers' modules.)
 */
async function sameSplitOrNot(inputs: readonly string[], extra: readonly string[] = []) {
  splitSizes.minFileBytes = Number.POSITIVE_INFINITY;
  splitCount.ranges = 0;
  const whole = await cli('sweep', ...inputs, ...GRID, ...extra, '--workers', '1');
  expect(splitCount.ranges).toBe(0);
  Object.assign(splitSizes, { minFileBytes: 1, minUnitBytes: 1 });
  for (const workers of ['1', '2']) {
    splitCount.ranges = 0;
    const split = await cli('sweep', ...inputs, ...GRID, ...extra, '--workers', workers);
    expect([split.code, split.stdout, split.stderr], `--workers ${workers}`).toEqual([whole.code, whole.stdout, whole.stderr]);
    // Split with more than one thread: 4 ranges a thread of each file (one thread: never split).
    if (workers === '1') expect(splitCount.ranges).toBe(0);
    else expect(splitCount.ranges).toBeGreaterThanOrEqual(4 * Number(workers));
  }
  return whole;
}

/** `many` with a negative outputTokens on a call line past its middle, as `name` in the test's directory; `bad`: that line's index (0-based). */
function badMiddleLine(name: string): { file: string; bad: number } {
  const lines = readFileSync(many, 'utf8').split('\n');
  const bad = lines.findIndex((line, k) => k > lines.length / 2 && line.includes('"outputTokens":'));
  lines[bad] = lines[bad]!.replace('"outputTokens":', '"outputTokens":-');
  const file = join(dir, name);
  writeFileSync(file, lines.join('\n'));
  return { file, bad };
}

/** Every run of `file` read whole, or the problems reading it whole reports. */
async function readWhole(file: string): Promise<Trace[] | InputIssue[]> {
  const runs: Trace[] = [];
  try {
    for await (const run of streamTraceFile(file)) runs.push(run);
  } catch (error) {
    if (error instanceof UserError) return error.issues;
    throw error;
  }
  return runs;
}

/**
 * The runs of each range in turn, and the problems of each range that has some, in order; `counting`: each
 * range counted on from the last (as a thread taking them in order does), else from the file's start.
 */
async function readRanges(file: string, ranges: readonly ByteRange[], counting = false): Promise<{ runs: Trace[]; issues: InputIssue[][] }> {
  const runs: Trace[] = [];
  const issues: InputIssue[][] = [];
  const counted = { at: 0, lines: 0, headers: 0 };
  for (const range of ranges) {
    try {
      for await (const run of readNativeRange(file, counting ? { ...range, counted } : range, readLimits())) runs.push(run);
    } catch (error) {
      if (!(error instanceof UserError)) throw error;
      issues.push(error.issues);
    }
  }
  return { runs, issues };
}

/** The offsets where lines start, and the line starting each header. */
function headerStarts(text: string): number[] {
  const starts: number[] = [];
  for (let at = 0; at >= 0; at = text.indexOf('\n{"type":"header"', at + 1)) starts.push(at === 0 ? 0 : at + 1);
  return starts;
}

/** `bytes` cut in `count` ranges of about the same size. */
function evenRanges(bytes: number, count: number): ByteRange[] {
  return Array.from({ length: count }, (_, k) => ({ from: Math.floor((k * bytes) / count), to: Math.floor(((k + 1) * bytes) / count) }));
}

/** `bytes` cut at `cuts` (sorted, inside it). */
function rangesAt(cuts: readonly number[], bytes: number): ByteRange[] {
  const edges = [0, ...cuts, bytes];
  return edges.slice(0, -1).map((from, k) => ({ from, to: edges[k + 1]! }));
}

describe('a native file read in byte ranges', () => {
  it('gives the runs of the whole file, named alike, however it is cut (at, just before and just after header lines)', async () => {
    const whole = (await readWhole(many)) as Trace[];
    expect(whole).toHaveLength(60);
    const bytes = statSync(many).size;
    const starts = headerStarts(readFileSync(many, 'latin1'));
    const cuts = [
      ...[2, 3, 5, 8, 13, 40, 100, 333].map((count) => evenRanges(bytes, count)),
      rangesAt(starts.slice(1), bytes),
      rangesAt(starts.slice(1).map((at) => at - 1), bytes),
      rangesAt(starts.slice(1).map((at) => at + 1), bytes),
    ];
    for (const ranges of cuts) {
      for (const counting of [false, true]) {
        const read = await readRanges(many, ranges, counting);
        expect(read.issues).toEqual([]);
        expectToEqual(read.runs, whole);
      }
    }
    // Ranges out of order, counted on from the last where it is before (else from the start).
    const shuffled = evenRanges(bytes, 13).sort((a, b) => (a.from * 7919) % 13 - (b.from * 7919) % 13);
    const read = await readRanges(many, shuffled, true);
    const place = new Map(whole.map((run, k) => [run.source, k]));
    expectToEqual(read.runs.sort((a, b) => place.get(a.source)! - place.get(b.source)!), whole);
  });

  it('a file of one run: the run is named by the file alone', async () => {
    const whole = (await readWhole(single)) as Trace[];
    expect(whole.map((run) => run.source)).toEqual([single]);
    expectToEqual((await readRanges(single, evenRanges(statSync(single).size, 12))).runs, whole);
  });

  it('a bad line in a middle range: the same problem on the same line as reading the whole file', async () => {
    const { file, bad } = badMiddleLine('bad-middle.jsonl');
    const whole = (await readWhole(file)) as InputIssue[];
    expect(whole.map((issue) => [issue.file, issue.line])).toEqual([[file, bad + 1]]);
    for (const counting of [false, true]) expect((await readRanges(file, evenRanges(statSync(file).size, 8), counting)).issues).toEqual([whole]);
  });

  it('a run without its end record just before a range: the next range\'s header line says so, as reading the whole file does', async () => {
    const { file, boundaryLine } = endlessBeforeRange();
    const whole = (await readWhole(file)) as InputIssue[];
    expect(whole.map((issue) => [issue.line, issue.code])).toEqual([[boundaryLine, 'unexpected_record']]);
    for (const counting of [false, true]) expect((await readRanges(file, TWO_THREADS(statSync(file).size), counting)).issues).toEqual([whole]);
  });

  it('a header written otherwise than the split looks for: the range that meets it gives the file up (to be read whole)', async () => {
    const file = rewrittenHeader();
    const whole = (await readWhole(file)) as Trace[];
    expect(whole).toHaveLength(60);
    const read = await readRanges(file, evenRanges(statSync(file).size, 8));
    expect(read.issues.map((issues) => issues.map((issue) => issue.code))).toEqual([[UNSPLIT_HEADER_CODE]]);
  });
});

/** `many` with its 30th run's header written with its keys in another order (a good file all the same). */
function rewrittenHeader(): string {
  let seen = 0;
  const lines = readFileSync(many, 'utf8')
    .split('\n')
    .map((line) => {
      if (!line.startsWith('{"type":"header"') || ++seen !== 30) return line;
      const { type, ...rest } = JSON.parse(line) as Record<string, unknown>;
      return JSON.stringify({ ...rest, type });
    });
  const file = join(dir, 'rewritten.jsonl');
  writeFileSync(file, lines.join('\n'));
  return file;
}

/** The ranges of a file split for two threads (the sizes the CLI tests give). */
const TWO_THREADS = (bytes: number) => (Object.assign(splitSizes, { minFileBytes: 1, minUnitBytes: 1 }), byteRanges(bytes, 2));

/** `many` with the end record of the run before the 4th of 8 ranges (two threads) blanked (the same bytes: the same ranges). */
function endlessBeforeRange(): { file: string; boundaryLine: number } {
  const text = readFileSync(many, 'utf8');
  const ranges = TWO_THREADS(Buffer.byteLength(text));
  expect(ranges).toHaveLength(8);
  const start = headerStarts(text).find((at) => at >= ranges[3]!.from)!;
  const endLine = text.lastIndexOf('\n', start - 2) + 1;
  const blanked = text.slice(0, endLine) + ' '.repeat(start - 1 - endLine) + text.slice(start - 1);
  expect(text.slice(endLine, start - 1)).toMatch(/^\{"type":"end"/);
  const file = join(dir, 'endless.jsonl');
  writeFileSync(file, blanked);
  return { file, boundaryLine: text.slice(0, start).split('\n').length };
}

describe('sweep --workers N on one big native file', () => {
  it('many runs on 1 and 2 threads: byte-identical to the file read whole', async () => {
    const whole = await sameSplitOrNot([many]);
    expect(whole.code, whole.stderr).toBe(0);
    expect((JSON.parse(whole.stdout) as { inputs: { recordedRuns: number } }).inputs.recordedRuns).toBe(60);
  });

  it('a file of one run, and two files both split: byte-identical to the files read whole', async () => {
    expect((await sameSplitOrNot([single])).code).toBe(0);
    expect((await sameSplitOrNot([many, other])).code).toBe(0);
  });

  it('a bad line in a middle range: refused, or with --skip-bad left out, exactly as reading it whole', async () => {
    const { file, bad } = badMiddleLine('bad-sweep.jsonl');
    const refused = await sameSplitOrNot([file, other]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`${file}:line ${bad + 1} field 'outputTokens'`);
    const skipped = await sameSplitOrNot([file, other], ['--skip-bad']);
    expect(skipped.code, skipped.stderr).toBe(0);
    expect(skipped.stderr).toContain(`skipped 1 of 2 input files with problems (--skip-bad):\n  ${file}:line ${bad + 1} field 'outputTokens'`);
    expect((JSON.parse(skipped.stdout) as { inputs: { recordedRuns: number } }).inputs.recordedRuns).toBe(20);
  });

  it('a header written otherwise than the split looks for: byte-identical to the file read whole', async () => {
    expect((await sameSplitOrNot([rewrittenHeader()])).code).toBe(0);
  });

  it('--target-completion: a file just over the threshold is split, the report (halved step caps too) byte-identical to --workers 1', async () => {
    const target = ['--target-completion', '0.5'];
    splitSizes.minFileBytes = Number.POSITIVE_INFINITY;
    const whole = await cli('sweep', many, ...GRID, ...target, '--workers', '1');
    expect(whole.code, whole.stderr).toBe(0);
    // Halved step caps tallied (on each thread, over the runs of the ranges it read): the second pass is covered.
    const rows = (JSON.parse(whole.stdout) as { configurations: { halfStepCap: { completed: number } | null }[] }).configurations;
    expect(rows.filter((row) => row.halfStepCap !== null).length).toBeGreaterThan(0);
    Object.assign(splitSizes, { minFileBytes: statSync(many).size - 1, minUnitBytes: 1 });
    splitCount.ranges = 0;
    const split = await cli('sweep', many, ...GRID, ...target, '--workers', '2');
    expect(splitCount.ranges).toBe(8);
    expect([split.code, split.stdout, split.stderr]).toEqual([whole.code, whole.stdout, whole.stderr]);
    // One byte under the threshold: read whole.
    Object.assign(splitSizes, { minFileBytes: statSync(many).size + 1 });
    splitCount.ranges = 0;
    expect((await cli('sweep', many, ...GRID, ...target, '--workers', '2')).stdout).toBe(whole.stdout);
    expect(splitCount.ranges).toBe(0);
  });

  it('--target-completion with a bad line in a middle range, or a header written otherwise: exactly as reading the file whole', async () => {
    const target = ['--target-completion', '0.5'];
    const { file } = badMiddleLine('bad-target.jsonl');
    expect((await sameSplitOrNot([file, other], target)).code).toBe(2);
    expect((await sameSplitOrNot([file, other], [...target, '--skip-bad'])).code).toBe(0);
    expect((await sameSplitOrNot([rewrittenHeader()], target)).code).toBe(0);
  });

  it('a run without its end record just before a range: refused as reading it whole', async () => {
    const { file, boundaryLine } = endlessBeforeRange();
    const refused = await sameSplitOrNot([file]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`${file}:line ${boundaryLine} field 'type': header before the run started`);
  });
});
