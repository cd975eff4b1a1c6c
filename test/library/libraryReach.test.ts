/**
 * What a library user needs beyond replayTrace: `--preset recorded` (recordedBrakes), the CliIO type main()
 * takes, a Promise of every run of files, directories and globs (readTraces); a directory given to a reader of
 * one file is refused with a hint that offers what reads one, not the directory again.
 */
import { mkdtempSync, writeFileSync, copyFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as library from '../../src/index.js';
import type { CliIO, Trace } from '../../src/index.js';
import { asyncUserErrorOf, userErrorOf } from '../helpers.js';

describe('the library reaches what the CLI does', () => {
  it('recordedBrakes(trace) replays a run under the brakes it was recorded with (--preset recorded)', async () => {
    const [run] = await library.loadTraceFile('scenarios/long-exploration.jsonl');
    const recorded: Trace = { ...run!, header: { ...run!.header, recordedSettings: { maxSteps: 4, maxCostUsd: 1 } } };
    const r = library.replayTrace(recorded, { brakes: library.recordedBrakes(recorded), strategy: library.FULL_HISTORY, prices: library.loadPriceTable() });
    expect([r.stopReason, r.steps]).toEqual(['max_steps', 4]);
    expect(userErrorOf(() => library.recordedBrakes(undefined as never)).issues[0]).toMatchObject({ file: '<recordedBrakes arguments>', field: 'trace' });
  });

  it('main takes a CliIO', async () => {
    let out = '';
    const io: CliIO = { stdout: (t) => void (out += t), stderr: () => {}, cwd: process.cwd() };
    expect(await library.main(['node', 'loopcost', '--version'], io)).toBe(0);
    expect(out).toMatch(/\d+\.\d+\.\d+/);
  });

  it('readTraces: files, directories and globs into one array; loadTraceFile of a directory offers it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'loopcost-readtraces-'));
    copyFileSync('scenarios/long-exploration.jsonl', join(dir, 'a.jsonl'));
    copyFileSync('scenarios/long-exploration.jsonl', join(dir, 'b.jsonl'));
    const runs = await library.readTraces([dir]);
    expect(runs.length).toBe(2 * (await library.loadTraceFile('scenarios/long-exploration.jsonl')).length);
    expect((await library.readTraces([join(dir, '*.jsonl')])).length).toBe(runs.length);
    const refused = await asyncUserErrorOf(() => library.loadTraceFile(dir));
    expect(refused.issues[0]!.hint).not.toMatch(/a directory of them/);
    expect(refused.issues[0]!.hint).toMatch(/readTraces/);
    writeFileSync(join(dir, 'c.jsonl'), '{"type":"header"}\n');
    expect((await asyncUserErrorOf(() => library.readTraces([dir]))).issues.some((issue) => issue.file?.endsWith('c.jsonl'))).toBe(true);
    expect((await asyncUserErrorOf(() => library.readTraces(null as never))).issues[0]).toMatchObject({ file: '<readTraces arguments>', field: 'paths' });
  });
});
