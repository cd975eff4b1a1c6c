/**
 * `--cache-dir DIR`: the directory of the runs cache (src/cache/traceCache.ts), created when missing and
 * checked before any work, so a directory that cannot be used fails the command (exit 2, naming the flag)
 * at once rather than being skipped silently on every file.
 */
import { accessSync, constants, existsSync, statSync } from 'node:fs';
import { writeProblem } from '../io/fileErrorWords.js';
import { makeDirectories } from '../io/makeDirectories.js';
import { UserError } from '../errors.js';

export function usableCacheDir(dir: string, flag = '--cache-dir'): string {
  const problem = (message: string): UserError =>
    new UserError({ file: '<command line>', field: flag, code: 'bad_cache_dir', message: `'${dir}' ${message}`, hint: 'give a directory loopcost may create and write, or leave the flag out (no cache)' });
  if (dir.trim() === '') throw problem('is empty');
  if (existsSync(dir) && !statSync(dir).isDirectory()) throw problem('is not a directory');
  try {
    makeDirectories(dir);
  } catch (error) {
    throw problem(writeProblem(error, 'created'));
  }
  try {
    accessSync(dir, constants.R_OK | constants.W_OK | constants.X_OK);
  } catch {
    throw problem('is not readable and writable');
  }
  return dir;
}
