/**
 * A named pipe (or a device) a glob matches directly, not through a link: the glob library's walk keeps
 * only files, directories and links, so `replay 'dir/*.jsonl'` dropped the FIFO `dir/live.jsonl` unseen
 * (neither read, refused nor listed) while a link to it was refused. It is now refused naming it, or with
 * --skip-bad listed and left out, as one a directory brings in (test/cli/directoryPipesSkipBad.test.ts).
 * And an empty directory given after a directory holding a pipe is still "a directory that holds no trace
 * files": the check counts the current input's pipes, not every input's so far.
 * Each test has a short timeout: opening a pipe waits 10 s for its first byte.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { collectInputFiles } from '../../src/io/collectInputs.js';
import { canMakeFifo, cli, tempDir } from './run.js';

const FAST = { timeout: 20_000 };

/** `traces/` under a new directory with one trace (`pair.jsonl`) and a FIFO named as a trace (`live.jsonl`). */
function traceAndPipe(): { dir: string; traces: string; pipe: string } {
  const dir = tempDir();
  const traces = join(dir, 'traces');
  mkdirSync(traces);
  copyFileSync('scenarios/recorded-pair.jsonl', join(traces, 'pair.jsonl'));
  const pipe = join(traces, 'live.jsonl');
  execFileSync('mkfifo', [pipe]);
  return { dir, traces, pipe };
}

const GLOB_REFUSAL = "a named pipe, which is not read: a glob's matches are read only when they are regular files (a named pipe only when given on its own) (to read the pipe, give its path on its own; else leave it out of the pattern)";

describe.skipIf(!canMakeFifo())('a named pipe a glob matches directly', () => {
  it('is refused naming it (nothing on stdout), as a link to it is', FAST, async () => {
    const { traces, pipe } = traceAndPipe();
    const pattern = join(traces, '*.jsonl');
    const r = await cli('replay', pattern);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(`loopcost: ${pattern}: matches ${pipe}, ${GLOB_REFUSAL}\n`);
  });

  it('with --skip-bad it is listed, never opened, and the report is the pipe-free one', FAST, async () => {
    const { traces, pipe } = traceAndPipe();
    const pattern = join(traces, '*.jsonl');
    const skipped = await cli('replay', pattern, '--skip-bad', '--format', 'json');
    expect(skipped.code, skipped.stderr).toBe(0);
    expect(skipped.stderr.startsWith(`skipped 1 of 2 input files with problems (--skip-bad):\n  ${pattern}: matches ${pipe}, ${GLOB_REFUSAL}\n`), skipped.stderr).toBe(true);
    expect(skipped.stderr).not.toMatch(/sent nothing in 10 s|internal error/);
    const alone = await cli('replay', join(traces, 'pair.jsonl'), '--format', 'json');
    // The pipe-free report, but for the warning that names the pipe left out.
    const report = JSON.parse(skipped.stdout) as { warnings: { code: string; files?: string[] }[] };
    expect(report.warnings.find((w) => w.code === 'skipped_inputs')?.files).toEqual([pipe]);
    report.warnings = report.warnings.filter((w) => w.code !== 'skipped_inputs');
    expect(`${JSON.stringify(report, null, 2)}\n`).toBe(alone.stdout);
  });

  it('a relative pattern, and one that matches the pipe alone: collectInputFiles hands it over unopened', FAST, () => {
    const { traces, pipe } = traceAndPipe();
    const cwd = process.cwd();
    process.chdir(traces);
    try {
      const collected = collectInputFiles(['*.jsonl'], { skipBad: true });
      expect(collected.files).toEqual(['pair.jsonl']);
      expect(collected.unread.map((entry) => [entry.path, entry.issue.file])).toEqual([['live.jsonl', '*.jsonl']]);
    } finally {
      process.chdir(cwd);
    }
    const only = collectInputFiles([join(traces, 'live*')], { skipBad: true });
    expect(only.files).toEqual([]);
    expect(only.unread.map((entry) => entry.path)).toEqual([pipe]);
    expect(() => collectInputFiles([join(traces, 'live*')])).toThrow(/matches \S*live\.jsonl, a named pipe, which is not read/);
  });
});

describe.skipIf(!canMakeFifo())('an empty directory after a directory that holds a pipe', () => {
  it('is refused as empty, with --skip-bad too: the pipe is the earlier input’s', FAST, async () => {
    const { dir, traces } = traceAndPipe();
    const empty = join(dir, 'empty');
    mkdirSync(empty);
    const r = await cli('replay', traces, empty, '--skip-bad');
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(`loopcost: ${empty}: directory holds no trace files (.jsonl, .json, .traj, .yaml, .yml, optionally .gz) (check the path)\n`);
    expect(() => collectInputFiles([traces, empty], { skipBad: true })).toThrow(/directory holds no trace files/);
    // A directory holding only a pipe of its own is not empty: the pipe is listed (--skip-bad), the other input read.
    const onlyPipe = join(dir, 'only-pipe');
    mkdirSync(onlyPipe);
    execFileSync('mkfifo', [join(onlyPipe, 'p.jsonl')]);
    const piped = collectInputFiles([join(traces, 'pair.jsonl'), onlyPipe], { skipBad: true });
    expect([piped.files, piped.unread.map((entry) => entry.path)]).toEqual([[join(traces, 'pair.jsonl')], [join(onlyPipe, 'p.jsonl')]]);
  });
});
