/**
 * Directories are created one level at a time: Node 20's recursive mkdir spins forever where the kernel
 * answers ENOENT under an existing parent (/proc), which hung `--out` and `--cache-dir` there.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeDirectories } from '../../src/io/makeDirectories.js';
import { cli, tempDir } from '../cli/run.js';

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sourceFiles(path) : path.endsWith('.ts') ? [path] : [];
  });
}

describe('makeDirectories', () => {
  it('creates missing levels, accepts existing ones, and fails (not spins) under /proc', () => {
    const base = tempDir();
    makeDirectories(join(base, 'a', 'b', 'c'));
    expect(statSync(join(base, 'a', 'b', 'c')).isDirectory()).toBe(true);
    makeDirectories(join(base, 'a', 'b'));
    expect(() => makeDirectories('/proc/loopcost/x')).toThrow(expect.objectContaining({ code: 'ENOENT' }));
    expect(existsSync('/proc/loopcost')).toBe(false);
  });

  it('--cache-dir under /proc is a user error naming the flag', async () => {
    const r = await cli('replay', 'scenarios/reference-sum-of-squares.jsonl', '--cache-dir', '/proc/loopcost/cache');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--cache-dir.*\/proc\/loopcost\/cache/);
  });

  it('no source file calls a recursive mkdir', () => {
    const offenders = sourceFiles('src').filter((path) => /mkdirSync\([^)]*recursive:\s*true/.test(readFileSync(path, 'utf8')));
    expect(offenders).toEqual([]);
  });
});
