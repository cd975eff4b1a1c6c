/**
 * The money helpers, memoryRecorder and the trace readers refuse a wrong argument where it is given, naming
 * it (`<formatUsd arguments>` field 'pico'), as the other entry points do. Before: `formatUsd(null)` and
 * `sumPico(null)` were TypeErrors, `formatUsd(1.5)` and `formatUsd(5, 13)` RangeErrors from BigInt,
 * `meanPico(10n, 0)` a RangeError (division by zero) and `meanPico(10, 2)` a TypeError (a number mixed with
 * bigints); `memoryRecorder(null)` recorded a run whose source was null; `loadTraceFile(null)` and
 * `streamTraceFile(path, null)` TypeErrors, and `{ limits: { maxLineByte: 5 } }` (misspelt) silently the default.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { memoryRecorder } from '../../src/agent/recorder.js';
import { loadTraceFile, streamTraceFile } from '../../src/import/index.js';
import { formatUsd, meanPico, sumPico } from '../../src/money.js';
import { writeNativeTraces } from '../../src/trace/writeNative.js';
import { asyncUserErrorOf, call, trace, userErrorOf } from '../helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'loopcost-money-reader-arguments-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const RUN = join(dir, 'run.jsonl');
writeFileSync(RUN, writeNativeTraces([trace([call(10), call(20)])]));

/** A call with a bad argument, and the argument file and field it is refused at. */
const REFUSED: [string, () => unknown, string, string][] = [
  ['formatUsd(null)', () => formatUsd(null as never), '<formatUsd arguments>', 'pico'],
  ['formatUsd()', () => (formatUsd as (...a: unknown[]) => string)(), '<formatUsd arguments>', 'pico'],
  ['formatUsd(1.5)', () => formatUsd(1.5), '<formatUsd arguments>', 'pico'],
  ["formatUsd('5')", () => formatUsd('5' as never), '<formatUsd arguments>', 'pico'],
  ['formatUsd(5, 13)', () => formatUsd(5, 13), '<formatUsd arguments>', 'decimals'],
  ['formatUsd(5, -1)', () => formatUsd(5, -1), '<formatUsd arguments>', 'decimals'],
  ['formatUsd(5, 2.5)', () => formatUsd(5, 2.5), '<formatUsd arguments>', 'decimals'],
  ['formatUsd(5, null)', () => formatUsd(5, null as never), '<formatUsd arguments>', 'decimals'],
  ['sumPico(null)', () => sumPico(null as never), '<sumPico arguments>', 'values'],
  ['sumPico()', () => (sumPico as (...a: unknown[]) => bigint)(), '<sumPico arguments>', 'values'],
  ["sumPico('12')", () => sumPico('12' as never), '<sumPico arguments>', 'values'],
  ['sumPico([1, null])', () => sumPico([1, null] as never), '<sumPico arguments>', 'values[1]'],
  ['sumPico([1, 0.5])', () => sumPico([1, 0.5]), '<sumPico arguments>', 'values[1]'],
  ['meanPico(null, 2)', () => meanPico(null as never, 2), '<meanPico arguments>', 'totalPico'],
  ['meanPico(10, 2)', () => meanPico(10 as never, 2), '<meanPico arguments>', 'totalPico'],
  ['meanPico(10n)', () => (meanPico as (...a: unknown[]) => bigint)(10n), '<meanPico arguments>', 'n'],
  ['meanPico(10n, 0)', () => meanPico(10n, 0), '<meanPico arguments>', 'n'],
  ['meanPico(10n, 1.5)', () => meanPico(10n, 1.5), '<meanPico arguments>', 'n'],
  ['memoryRecorder(null)', () => memoryRecorder(null as never), '<memoryRecorder arguments>', 'source'],
  ['memoryRecorder(5)', () => memoryRecorder(5 as never), '<memoryRecorder arguments>', 'source'],
  ['streamTraceFile(null)', () => streamTraceFile(null as never), '<streamTraceFile arguments>', 'path'],
  ['streamTraceFile(5)', () => streamTraceFile(5 as never), '<streamTraceFile arguments>', 'path'],
  ['streamTraceFile(path, null)', () => streamTraceFile(RUN, null as never), '<streamTraceFile arguments>', 'options'],
  ["streamTraceFile(path, 'x')", () => streamTraceFile(RUN, 'x' as never), '<streamTraceFile arguments>', 'options'],
  ['streamTraceFile(path, { limits: null })', () => streamTraceFile(RUN, { limits: null } as never), '<streamTraceFile arguments>', 'options.limits'],
  ['streamTraceFile(path, { limits: { maxLineByte: 5 } })', () => streamTraceFile(RUN, { limits: { maxLineByte: 5 } } as never), '<streamTraceFile arguments>', 'options.limits.maxLineByte'],
  ["streamTraceFile(path, { limits: { maxLineBytes: '5' } })", () => streamTraceFile(RUN, { limits: { maxLineBytes: '5' } } as never), '<streamTraceFile arguments>', 'options.limits.maxLineBytes'],
  ['streamTraceFile(path, { limits: { maxInputBytes: -1 } })', () => streamTraceFile(RUN, { limits: { maxInputBytes: -1 } }), '<streamTraceFile arguments>', 'options.limits.maxInputBytes'],
  ['streamTraceFile(path, { limits: { pipeWaitMs: NaN } })', () => streamTraceFile(RUN, { limits: { pipeWaitMs: NaN } }), '<streamTraceFile arguments>', 'options.limits.pipeWaitMs'],
  ['streamTraceFile(path, { cache: {} })', () => streamTraceFile(RUN, { cache: {} } as never), '<streamTraceFile arguments>', 'options.cache.runsOf'],
  ['streamTraceFile(path, { range: { from: 0 } })', () => streamTraceFile(RUN, { range: { from: 0 } } as never), '<streamTraceFile arguments>', 'options.range.to'],
  ['streamTraceFile(path, { range: { from: -1, to: 5 } })', () => streamTraceFile(RUN, { range: { from: -1, to: 5 } }), '<streamTraceFile arguments>', 'options.range.from'],
  ['streamTraceFile(path, { headerRead: 5 })', () => streamTraceFile(RUN, { headerRead: 5 } as never), '<streamTraceFile arguments>', 'options.headerRead'],
];

describe('money helpers, memoryRecorder and streamTraceFile refuse a wrong argument, naming it', () => {
  it.each(REFUSED)('%s', (_, refused, file, field) => {
    const error = userErrorOf(refused);
    expect(error.issues[0]).toEqual(expect.objectContaining({ file, field }));
    expect(error.issues[0]!.hint).toBeTruthy();
  });

  it('says what the argument is and what to give', () => {
    expect(userErrorOf(() => formatUsd(null as never)).message).toBe(
      `<formatUsd arguments> field 'pico': null is not a whole number of picodollars (or a bigint) (picodollars are whole: usdToPico(0.5) gives $0.50 in them)`,
    );
    expect(userErrorOf(() => meanPico(10n, 0)).issues[0]!.message).toBe('0 is not a whole number greater than 0');
    expect(userErrorOf(() => streamTraceFile(RUN, { limits: { maxLineByte: 5 } } as never)).message).toContain('unknown limit "maxLineByte" (did you mean maxLineBytes?)');
  });
});

const REFUSED_ASYNC: [string, () => Promise<unknown>, string][] = [
  ['loadTraceFile(null)', () => loadTraceFile(null as never), 'path'],
  ['loadTraceFile()', () => (loadTraceFile as (...a: unknown[]) => Promise<unknown>)(), 'path'],
  ['loadTraceFile(path, null)', () => loadTraceFile(RUN, null as never), 'options'],
  ["loadTraceFile(path, { limits: { maxLineBytes: 'big' } })", () => loadTraceFile(RUN, { limits: { maxLineBytes: 'big' } } as never), 'options.limits.maxLineBytes'],
];

describe('loadTraceFile refuses the same, in its own name', () => {
  it.each(REFUSED_ASYNC)('%s', async (_, refused, field) => {
    const error = await asyncUserErrorOf(refused);
    expect(error.issues[0]).toEqual(expect.objectContaining({ file: '<loadTraceFile arguments>', field }));
  });
});

describe('…and each takes what it took before', () => {
  it('money: whole numbers and bigints, negative too, any decimals from 0 to 12', () => {
    expect([formatUsd(28_000_000_000), formatUsd(1_500_000, 6), formatUsd(-5n, 12), formatUsd(2_500_000_000_000, 0)]).toEqual(['$0.0280', '$0.000002', '-$0.000000000005', '$3']);
    expect([sumPico([]), sumPico([1, 2, 3]), sumPico(new Set([Number.MAX_SAFE_INTEGER, -1, Number.MAX_SAFE_INTEGER - 1]))]).toEqual([0n, 6n, 2n * BigInt(Number.MAX_SAFE_INTEGER) - 2n]);
    expect([meanPico(10n, 4), meanPico(10n, 3), meanPico(7n, 1)]).toEqual([3n, 3n, 7n]);
  });

  it('meanPico rounds a negative total (a saving) half up too: −10/3 is −3, −5/2 is −2 (before: −10/3 was −2, truncated)', () => {
    expect([meanPico(-10n, 3), meanPico(-5n, 2), meanPico(-7n, 2), meanPico(-6n, 3), meanPico(-1n, 3)]).toEqual([-3n, -2n, -3n, -2n, 0n]);
  });

  it('memoryRecorder: its source, or "memory"', () => {
    expect([memoryRecorder('mine'), memoryRecorder()].map((recorder) => recorder.trace().source)).toEqual(['mine', 'memory']);
  });

  it('the readers: a path with no options, {} or the limits and the input set’s own keys', async () => {
    const runs = await loadTraceFile(RUN);
    expect(runs.map((trace) => trace.calls.length)).toEqual([2]);
    expect(await loadTraceFile(RUN, { limits: { maxLineBytes: 1024 * 1024, pipeWaitMs: 0 } })).toEqual(runs);
    const streamed = [];
    for await (const run of streamTraceFile(RUN, { skipBad: true, limits: {} } as never)) streamed.push(run);
    expect(streamed).toEqual(runs);
  });
});
