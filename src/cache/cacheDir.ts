/**
 * `--cache-dir DIR`: the directory of the runs cache (src/cache/traceCache.ts), created when missing and
 * checked before any work, so a directory that cannot be used fails the command (exit 2, naming the flag)
 * at once rather than being skipped silently on every file. One that passes those checks but takes no
 * file (as /sys, or a read-only mount for root) is no cache: the command says so once and reads without
 * one (cacheWriteProblem).
 */
import { accessSync, constants, existsSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { danglingLinkHint, danglingLinkOn, danglingLinkWords } from '../io/danglingLink.js';
import { writeProblem } from '../io/fileErrorWords.js';
import { makeDirectories } from '../io/makeDirectories.js';
import { UserError } from '../errors.js';

export function usableCacheDir(dir: string, flag = '--cache-dir'): string {
  const problem = (message: string, hint = 'give a directory loopcost may create and write, or leave the flag out (no cache)'): UserError =>
    new UserError({ file: '<command line>', field: flag, code: 'bad_cache_dir', message: `'${dir}' ${message}`, hint });
  if (dir.trim() === '') throw problem('is empty');
  if (existsSync(dir) && !statSync(dir).isDirectory()) throw problem('is not a directory');
  // No directory can be made at a link to nothing (the file system says EEXIST): said as such, with what to do.
  const dangling = danglingLinkOn(dir);
  if (dangling !== undefined) throw problem(`cannot be created: ${danglingLinkWords(dangling)}`, danglingLinkHint('give another directory, or leave the flag out (no cache)'));
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

/**
 * Why the cache directory `dir` (usableCacheDir's) takes no file — a file written and removed at once to
 * tell — as the warning says it; undefined: it takes files.
 */
export function cacheWriteProblem(dir: string, flag = '--cache-dir'): string | undefined {
  const probe = join(dir, `.loopcost-probe.${process.pid}`);
  try {
    writeFileSync(probe, '');
  } catch (error) {
    return `${flag} '${dir}' ${writeProblem(error, 'written')}: nothing was cached, every input was read as without a cache`;
  }
  try {
    rmSync(probe, { force: true });
  } catch {
    // written but not removable: the cache's own writes will fail the same way, quietly
  }
  return undefined;
}
