/**
 * A report that cannot be written whole (a disk filling up, a file-size limit, /dev/full) is the user's
 * environment, not a bug: one line naming the output and why, exit 2, never a stack trace — and never a
 * cut-off file with exit 0. A file-size limit (`ulimit -f`, SIGXFSZ ignored) acts as a disk with 4 KiB
 * left: the write past it is short, the next one fails (EFBIG). Standard output redirected to such a
 * file went through Node's writer for files, which drops what a short write left.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, tempDir } from './run.js';

const linux = process.platform === 'linux';

/** `loopcost args…` with at most 4 KiB a file (SIGXFSZ ignored, so a write past it fails instead of killing), stdout to `stdoutFile`. */
function underFileLimit(args: string[], stdoutFile: string) {
  const quoted = [process.execPath, BIN, ...args].map((arg) => `'${arg}'`).join(' ');
  return spawnSync('bash', ['-c', `trap '' XFSZ; ulimit -f 4; exec ${quoted} > '${stdoutFile}'`], { encoding: 'utf8' });
}

describe.runIf(linux)('a report that cannot be written whole', () => {
  it('to standard output redirected to a file: exit 2 naming standard output, not a cut file with exit 0', () => {
    const dir = tempDir();
    const out = join(dir, 'report.json');
    const r = underFileLimit(['replay', 'scenarios/', '--format', 'json'], out);
    expect(r.status).toBe(2);
    expect(r.stderr).toBe('loopcost: standard output cannot be written: the file is larger than its file system or this process may write; free some space or write with --out elsewhere\n');
    expect(statSync(out).size).toBeLessThanOrEqual(4096);
  });

  it('to --out: exit 2 naming the file, and no file (nor temporary) left', () => {
    const dir = tempDir();
    const r = underFileLimit(['replay', 'scenarios/', '--format', 'json', '--out', join(dir, 'report.json')], join(dir, 'stdout.txt'));
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/report\.json field '--out': cannot be written/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(existsSync(join(dir, 'report.json'))).toBe(false);
    expect(readdirSync(dir)).toEqual(['stdout.txt']);
  });

  it('to /dev/full: exit 2, no stack trace', () => {
    const r = spawnSync('bash', ['-c', `exec '${process.execPath}' '${BIN}' replay scenarios/ --format json > /dev/full`], { encoding: 'utf8' });
    expect(r.status).toBe(2);
    expect(r.stderr).toBe('loopcost: standard output cannot be written: no space left on the device; free some space or write with --out elsewhere\n');
  });
});
