/**
 * `--skip-bad` and a named pipe (or a device) that a directory, a glob or a scenario's `traces:` brings in:
 * the entry is never opened (a FIFO nobody writes to would keep the command waiting), it is listed with the
 * bad inputs and the command goes on with the other files, its report the same as without the entry.
 * Without --skip-bad it is refused at once as before (test/cli/directoryPipes.test.ts), nothing written.
 * Each test has a short timeout: opening a pipe waits 10 s for its first byte.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { collectInputFiles } from '../../src/io/collectInputs.js';
import { TraceInputs } from '../../src/import/inputSet.js';
import { canMakeFifo, cli, tempDir } from './run.js';

const FAST = { timeout: 20_000 };

/** Two traces and two FIFOs named as traces (`live.jsonl`, `sub/tail.json`) in `traces/` under a new directory. */
function tracesWithPipes(): { dir: string; traces: string; pipes: string[] } {
  const dir = tempDir();
  const traces = join(dir, 'traces');
  mkdirSync(join(traces, 'sub'), { recursive: true });
  copyFileSync('scenarios/recorded-pair.jsonl', join(traces, 'pair.jsonl'));
  copyFileSync('scenarios/long-exploration.jsonl', join(traces, 'z-long.jsonl'));
  const pipes = [join(traces, 'live.jsonl'), join(traces, 'sub', 'tail.json')];
  execFileSync('mkfifo', pipes);
  return { dir, traces, pipes };
}

const PIPE_HINT = 'to read the pipe, give its path on its own; else leave it out of the directory';
/** A `traces:` entry's problem says where relative paths are read from instead. */
const ENTRY_HINT = 'a relative path or glob is read from the scenario file’s directory';

/** Today's refusal of the two pipes: each named, with what to do (`place`: where each line says it is). */
function pipeLines(place: string, hint = PIPE_HINT): string[] {
  const why = `which is not read: a directory's files are read only when they are regular files (a named pipe only when given on its own) (${hint})`;
  return [`${place}: holds live.jsonl, a named pipe, ${why}`, `${place}: holds sub/tail.json, a named pipe, ${why}`];
}

function refused(r: { code: number; stdout: string; stderr: string }, lines: string[]): void {
  expect(r.code).toBe(2);
  expect(r.stdout).toBe('');
  expect(r.stderr).toBe(`loopcost: ${lines.join('\n')}\n`);
}

/** The --skip-bad listing of the two pipes among `total` inputs, at the start of stderr. */
function listed(r: { code: number; stderr: string }, lines: string[], total: number): void {
  expect(r.code, r.stderr).toBe(0);
  expect(r.stderr.startsWith(`skipped 2 of ${total} input files with problems (--skip-bad):\n${lines.map((line) => `  ${line}\n`).join('')}`), r.stderr).toBe(true);
  expect(r.stderr).not.toMatch(/sent nothing in 10 s|internal error|\n\s+at /);
}

describe.skipIf(!canMakeFifo())('--skip-bad and a named pipe a directory brings in', () => {
  it('replay: refused without it (nothing written); with it listed, never opened, and the report is the pipes-free one', FAST, async () => {
    const { dir, traces, pipes } = tracesWithPipes();
    const out = join(dir, 'replay.json');
    refused(await cli('replay', traces, '--out', out), pipeLines(traces));
    expect(existsSync(out)).toBe(false);
    const skipped = await cli('replay', traces, '--skip-bad', '--format', 'json');
    listed(skipped, pipeLines(traces), 4);
    for (const pipe of pipes) rmSync(pipe);
    const without = await cli('replay', traces, '--format', 'json');
    expect(without.code, without.stderr).toBe(0);
    // The pipes-free report, but for the warning that names the pipes left out (each as stderr lists it).
    const report = JSON.parse(skipped.stdout) as { runs: unknown[]; warnings: { code: string; files?: string[] }[] };
    const leftOut = report.warnings.find((w) => w.code === 'skipped_inputs');
    expect(leftOut?.files).toEqual(pipes);
    report.warnings = report.warnings.filter((w) => w !== leftOut);
    expect(`${JSON.stringify(report, null, 2)}\n`).toBe(without.stdout);
    expect(report.runs.length).toBe(3);
  });

  /** A JSON report but for its warning naming the pipes left out (`files`: those pipes), as the pipes-free run writes it. */
  function withoutLeftOut(json: string, pipes: readonly string[]): string {
    const report = JSON.parse(json) as { warnings: { code: string; files?: string[] }[] };
    const leftOut = report.warnings.find((w) => w.code === 'skipped_inputs');
    expect(leftOut?.files).toEqual(pipes);
    report.warnings = report.warnings.filter((w) => w !== leftOut);
    return `${JSON.stringify(report, null, 2)}\n`;
  }

  it('sweep, one thread and two: refused alike without it; with it the same list and the pipes-free rows', FAST, async () => {
    const { traces, pipes } = tracesWithPipes();
    const grid = ['--grid', 'max-steps=3,5,30', '--format', 'json'];
    for (const workers of ['1', '2']) refused(await cli('sweep', traces, ...grid, '--workers', workers), pipeLines(traces));
    const one = await cli('sweep', traces, ...grid, '--skip-bad', '--workers', '1');
    const two = await cli('sweep', traces, ...grid, '--skip-bad', '--workers', '2');
    listed(one, pipeLines(traces), 4);
    expect([two.code, two.stdout, two.stderr]).toEqual([one.code, one.stdout, one.stderr]);
    for (const pipe of pipes) rmSync(pipe);
    const without = await cli('sweep', traces, ...grid, '--workers', '1');
    expect(without.code, without.stderr).toBe(0);
    expect(withoutLeftOut(one.stdout, pipes)).toBe(without.stdout);
    expect((JSON.parse(one.stdout) as { inputs: { recordedRuns: number } }).inputs.recordedRuns).toBe(3);
  });

  it("check: a `traces:` directory's pipes are listed at the entry that holds them, and the scenario is checked", FAST, async () => {
    const { dir, traces, pipes } = tracesWithPipes();
    const scenario = join(dir, 'check.yaml');
    writeFileSync(scenario, 'scenario: loopcost.scenario/1\nname: piped\ntraces: [traces]\nexpect:\n  runs: { steps: { max: 100 } }\n');
    const place = `${scenario}:line 3 field 'traces[0]': "traces" (${traces})`;
    refused(await cli('check', scenario), pipeLines(place, ENTRY_HINT));
    const skipped = await cli('check', scenario, '--skip-bad', '--format', 'json');
    listed(skipped, pipeLines(place, ENTRY_HINT), 4);
    for (const pipe of pipes) rmSync(pipe);
    const without = await cli('check', scenario, '--format', 'json');
    expect(without.code, without.stderr).toBe(0);
    expect(withoutLeftOut(skipped.stdout, pipes)).toBe(without.stdout);
  });

  it("check: a pipe in check's own input directory is listed with --skip-bad and the scenario checked; refused without", FAST, async () => {
    const dir = tempDir();
    copyFileSync('scenarios/recorded-pair.jsonl', join(dir, 'pair.jsonl'));
    writeFileSync(join(dir, 'check.yaml'), 'scenario: loopcost.scenario/1\nname: piped\ntraces: [pair.jsonl]\nexpect:\n  runs: { steps: { max: 100 } }\n');
    execFileSync('mkfifo', [join(dir, 'own.yaml')]);
    const why = `which is not read: a directory's files are read only when they are regular files (a named pipe only when given on its own) (${PIPE_HINT})`;
    const line = `${dir}: holds own.yaml, a named pipe, ${why}`;
    refused(await cli('check', dir), [line]);
    const skipped = await cli('check', dir, '--skip-bad', '--format', 'json');
    expect(skipped.code, skipped.stderr).toBe(0);
    expect(skipped.stderr.startsWith(`skipped 1 of `) && skipped.stderr.includes(`  ${line}\n`), skipped.stderr).toBe(true);
    expect((JSON.parse(skipped.stdout) as { scenarios: unknown[] }).scenarios).toHaveLength(1);
  });

  it('check: a `traces:` entry that holds only a pipe leaves its scenario no run, refused as every bad trace is', FAST, async () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'only'));
    execFileSync('mkfifo', [join(dir, 'only', 'p.jsonl')]);
    const scenario = join(dir, 'only.yaml');
    writeFileSync(scenario, 'scenario: loopcost.scenario/1\nname: only\ntraces: [only]\nexpect:\n  runs: { steps: { max: 100 } }\n');
    const r = await cli('check', scenario, '--skip-bad');
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/skipped 1 of 1 input files with problems \(--skip-bad\):\n {2}\S*only\.yaml:line 3 field 'traces\[0\]': "only" \(\S*\): holds p\.jsonl, a named pipe/);
    expect(r.stderr).toMatch(/only\.yaml:line 3 field 'traces': every trace file it names has problems: --skip-bad left it no run to check; nothing was written/);
  });

  it('every other command that reads traces: the same list, and it goes on', FAST, async () => {
    const { dir, traces } = tracesWithPipes();
    const commands = [
      ['replay', traces, '--tree'],
      ['whatif', traces, '--try', 'max-steps=3'],
      ['compare', traces],
      ['import', traces, '--out', join(dir, 'all.jsonl')],
      ['calibrate', traces, '--grid', 'max-steps=3,5'],
      ['project', traces, '--runs-per-day', '100'],
      ['contexts', traces],
      ['fit', traces],
      ['serve', traces, '--check'],
    ];
    for (const argv of commands) {
      refused(await cli(...argv), pipeLines(traces));
      listed(await cli(...argv, '--skip-bad'), pipeLines(traces), 4);
    }
    expect(readFileSync(join(dir, 'all.jsonl'), 'utf8')).toContain('"type":"header"');
  });

  it('a pipe alone in a directory: with --skip-bad nothing is left, refused as when every file is bad', FAST, async () => {
    const dir = tempDir();
    execFileSync('mkfifo', [join(dir, 'p.jsonl')]);
    const r = await cli('replay', dir, '--skip-bad');
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/holds p\.jsonl, a named pipe, which is not read[^\n]*\nevery input file has problems: --skip-bad left no run to work on; nothing was written/);
  });

  it('a glob: the pipe it matches, a link to it and one to a device among its matches are listed too', FAST, async () => {
    const { traces } = tracesWithPipes();
    symlinkSync(join(traces, 'live.jsonl'), join(traces, 'link.jsonl'));
    symlinkSync('/dev/null', join(traces, 'null.jsonl'));
    const r = await cli('replay', join(traces, '*.jsonl'), '--skip-bad');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/^skipped 3 of 5 input files with problems \(--skip-bad\):\n {2}\S+: matches \S*link\.jsonl, a named pipe, which is not read[^\n]*\n {2}\S+: matches \S*live\.jsonl, a named pipe, which is not read[^\n]*\n {2}\S+: matches \S*null\.jsonl, a character device/);
  });

  it('--out inside the directory is still checked against the regular files beside a pipe', FAST, async () => {
    const { traces } = tracesWithPipes();
    const pair = join(traces, 'pair.jsonl');
    const before = readFileSync(pair, 'utf8');
    const r = await cli('import', traces, '--skip-bad', '--out', pair);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/pair\.jsonl field '--out': is read as \S*pair\.jsonl, from the input directory/);
    expect(readFileSync(pair, 'utf8')).toBe(before);
  });

  it('collectInputFiles hands the pipes over unopened; TraceInputs lists them first among the bad inputs', FAST, async () => {
    const { traces, pipes } = tracesWithPipes();
    expect(() => collectInputFiles([traces])).toThrow(/holds live\.jsonl, a named pipe/);
    const collected = collectInputFiles([traces], { skipBad: true });
    expect(collected.files).toEqual([join(traces, 'pair.jsonl'), join(traces, 'z-long.jsonl')]);
    expect(collected.unread.map((entry) => entry.path)).toEqual(pipes);
    const set = TraceInputs.fromPaths([traces], { skipBad: true });
    const { results, skipped } = await set.map((trace) => trace.source);
    expect(results.length).toBe(3);
    expect(set.inputCount).toBe(4);
    expect(skipped.map((bad) => bad.file)).toEqual(pipes);
    expect(skipped[0]!.issues[0]!.message).toMatch(/^holds live\.jsonl, a named pipe, which is not read/);
  });
});
