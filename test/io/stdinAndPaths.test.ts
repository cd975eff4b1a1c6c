/**
 * Input paths a newcomer trips on. Standard input is one input however it is named (`-`, `/dev/stdin`,
 * `/dev/fd/0`, `/proc/self/fd/0`): `replay - /dev/stdin < file` read the file twice (a pipe: once, then
 * "/dev/stdin: is empty"). Standard input from /dev/null is said as such, not as "a character device (like
 * /dev/zero or a terminal)". A path through a file (`runs.jsonl/x`, ENOTDIR) says which part is a file, not
 * "cannot be read (ENOTDIR)"; a missing `--prices-override` file is said as every missing path is.
 */
import { spawnSync } from 'node:child_process';
import { closeSync, openSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { collectInputFiles } from '../../src/io/collectInputs.js';
import { loadLiteLlmTable } from '../../src/pricing/litellm.js';
import { userErrorOf } from '../helpers.js';
import { BIN, cli, ONE_CALL_RUN as RUN, tempDir } from '../cli/run.js';

const unix = process.platform !== 'win32';

/** `loopcost replay ARGS --format json` with standard input from `stdin`: a file's path (opened, as `< file` does) or text sent through a pipe. */
function replay(args: readonly string[], stdin: { file: string } | { text: string }) {
  const fd = 'file' in stdin ? openSync(stdin.file, 'r') : undefined;
  try {
    const r = spawnSync(process.execPath, [BIN, 'replay', ...args, '--format', 'json'], { encoding: 'utf8', ...(fd === undefined ? { input: (stdin as { text: string }).text } : { stdio: [fd, 'pipe', 'pipe'] }) });
    return { status: r.status, stderr: r.stderr, runs: r.status === 0 ? (JSON.parse(r.stdout) as { summary: { runs: number } }).summary.runs : undefined };
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

describe.runIf(unix)('standard input, however named', () => {
  it('is one input: the second name is a repeat, read once', () => {
    expect(collectInputFiles(['-', '/dev/stdin', '/dev/fd/0', '/proc/self/fd/0'])).toEqual({ files: ['-'], repeated: ['/dev/stdin (= -)', '/dev/fd/0 (= -)', '/proc/self/fd/0 (= -)'], unread: [], broughtIn: new Map(), checkBaselines: [] });
    expect(collectInputFiles(['/dev/stdin', '-']).files).toEqual(['/dev/stdin']);
    expect(collectInputFiles(['-', '-'])).toEqual({ files: ['-'], repeated: ['-'], unread: [], broughtIn: new Map(), checkBaselines: [] });
  });

  it('replay - /dev/stdin reads a redirected file once and a pipe once', () => {
    const file = join(tempDir(), 'run.jsonl');
    writeFileSync(file, RUN);
    const note = 'loopcost: warning: 1 input given more than once, each file read once: /dev/stdin (= -)\n';
    expect(replay(['-', '/dev/stdin'], { file })).toEqual({ status: 0, stderr: note, runs: 1 });
    expect(replay(['-', '/dev/stdin'], { text: RUN })).toEqual({ status: 0, stderr: note, runs: 1 });
  });

  it('from /dev/null is said as such, with what to do', () => {
    const hint = '(pipe a trace in, as `cat run.jsonl | loopcost replay -` does, or pass trace files, directories or globs)';
    expect(replay(['-'], { file: '/dev/null' })).toEqual({ status: 2, stderr: `loopcost: <stdin>: standard input is /dev/null: nothing to read ${hint}\n`, runs: undefined });
    expect(replay(['/dev/stdin'], { file: '/dev/null' })).toEqual({ status: 2, stderr: `loopcost: /dev/stdin: standard input is /dev/null: nothing to read ${hint}\n`, runs: undefined });
    // Another device is still named as one.
    expect(replay(['/dev/zero'], { text: '' }).stderr).toMatch(/^loopcost: \/dev\/zero: is a character device \(like \/dev\/zero or a terminal\), not a trace file/);
  });
});

describe('a path that is not there', () => {
  it('through a file says which part is a file, not a directory', async () => {
    const dir = tempDir();
    const file = join(dir, 'run.jsonl');
    writeFileSync(file, RUN);
    const through = await cli('replay', join(file, 'x.jsonl'));
    expect(through.code).toBe(2);
    expect(through.stderr).toBe(`loopcost: ${join(file, 'x.jsonl')}: ${file} is a file, not a directory (check the path)\n`);
    expect((await cli('replay', `${file}/`)).stderr).toBe(`loopcost: ${file}/: is a file, not a directory (check the path)\n`);
    expect((await cli('generate', join(file, 'sc.yaml'), '--runs', '1', '--out', join(dir, 'out.jsonl'))).stderr).toBe(`loopcost: ${join(file, 'sc.yaml')}: ${file} is a file, not a directory (check the path)\n`);
  });

  it('given to --prices-override is said as every missing path is (its code kept)', async () => {
    const dir = tempDir();
    const missing = join(dir, 'missing.json');
    expect(userErrorOf(() => loadLiteLlmTable(missing, '--prices-override')).issues[0]).toEqual({ file: missing, code: 'file_not_found', message: 'no such file or directory', hint: 'check the path given to --prices-override' });
    const trace = join(dir, 'run.jsonl');
    writeFileSync(trace, RUN);
    const r = await cli('replay', trace, '--prices-override', missing);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`loopcost: ${missing}: no such file or directory (check the path given to --prices-override)\n`);
    expect((await cli('replay', trace, '--prices', join(trace, 'p.json'))).stderr).toBe(`loopcost: ${join(trace, 'p.json')}: ${trace} is a file, not a directory (check the path given to --prices)\n`);
  });
});
