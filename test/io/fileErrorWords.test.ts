/**
 * File-system error codes are said in words, from one table (src/io/fileErrorWords.ts), for inputs,
 * outputs and --cache-dir alike: never `ELOOP`, `EACCES` or `ENOENT` in a user's message.
 */
import { symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { usableCacheDir } from '../../src/cache/cacheDir.js';
import { UserError } from '../../src/errors.js';
import { unreadable } from '../../src/io/inputErrors.js';
import { outputError } from '../../src/io/outputTarget.js';
import { cli, ONE_CALL_RUN, tempDir } from '../cli/run.js';

const RAW_CODE = /\bE[A-Z]{3,}\b/;
const coded = (code: string): Error => Object.assign(new Error(code), { code });

function messageOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (error instanceof UserError) return error.message;
    throw error;
  }
  throw new Error('no error');
}

describe('file-system errors in words', () => {
  it('inputs, outputs and cache directories say the code in words', () => {
    expect(unreadable('loopA', coded('ELOOP')).message).toMatch(/^loopA: cannot be read: a symbolic link loop \(a symbolic link on the path leads back to itself/);
    expect(unreadable('x', coded('ENAMETOOLONG')).message).toMatch(/cannot be read: the path, or a name in it, is too long/);
    expect(outputError('r.json', coded('ELOOP')).message).toMatch(/r\.json field '--out': cannot be written: a symbolic link loop/);
    expect(outputError('r.json', coded('EACCES')).message).toMatch(/cannot be written: permission denied/);
    expect(outputError('r.json', coded('EDQUOT')).message).toMatch(/cannot be written: disk quota exceeded/);
    for (const code of ['ELOOP', 'EACCES', 'ENOENT', 'EROFS', 'ENOSPC', 'EPERM', 'ENOTDIR', 'EIO']) {
      expect(unreadable('p', coded(code)).message).not.toMatch(RAW_CODE);
      expect(outputError('p', coded(code)).message).not.toMatch(RAW_CODE);
    }
    // An unknown code is still said in words, the code after them.
    expect(unreadable('p', coded('EWEIRD')).message).toMatch(/cannot be read: an unexpected file-system error \(EWEIRD\)/);
  });

  it('--cache-dir where nothing can be created, or through a link loop', () => {
    const proc = messageOf(() => usableCacheDir('/proc/cd'));
    expect(proc).toMatch(/'\/proc\/cd' cannot be created there: the directory it goes in was removed, or takes no new entries \(as \/proc\)/);
    expect(proc).not.toMatch(RAW_CODE);
    const dir = tempDir();
    symlinkSync(join(dir, 'b'), join(dir, 'a'));
    symlinkSync(join(dir, 'a'), join(dir, 'b'));
    const loop = messageOf(() => usableCacheDir(join(dir, 'a', 'cache')));
    expect(loop).toMatch(/cannot be created: a symbolic link loop/);
    expect(loop).not.toMatch(RAW_CODE);
  });

  it('replay of a symbolic link loop says so, with what to do (exit 2)', async () => {
    const dir = tempDir();
    symlinkSync(join(dir, 'loopB'), join(dir, 'loopA'));
    symlinkSync(join(dir, 'loopA'), join(dir, 'loopB'));
    const r = await cli('replay', join(dir, 'loopA'));
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/loopA: cannot be read: a symbolic link loop \(a symbolic link on the path leads back to itself .*'ls -l' shows where each leads/);
    expect(r.stderr).not.toMatch(RAW_CODE);
    const trace = join(dir, 't.jsonl');
    writeFileSync(trace, ONE_CALL_RUN);
    const out = await cli('replay', trace, '--out', join(dir, 'loopA', 'r.json'));
    expect(out.code).toBe(2);
    expect(out.stderr).toMatch(/field '--out': cannot be written: a symbolic link loop/);
    expect(out.stderr).not.toMatch(RAW_CODE);
  });
});
