/**
 * Creating a directory and its missing ancestors, one level at a time. Node 20's
 * recursive `mkdirSync` spins forever where the kernel answers ENOENT for a parent that
 * exists (as under /proc), so loopcost never calls it: every directory it creates goes through here.
 * Throws the file-system error of the level that failed (with its `code`), for the caller to word.
 * Returns the directories it created, outermost first (for a caller that takes them back on failure).
 */
import { mkdirSync, rmdirSync, statSync } from 'node:fs';
import { dirname } from 'node:path';

function isDirectory(path: string): boolean | undefined {
  try {
    return statSync(path).isDirectory();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

export function makeDirectories(dir: string): string[] {
  const missing: string[] = [];
  for (let current = dir; isDirectory(current) === undefined; current = dirname(current)) {
    missing.push(current);
    if (dirname(current) === current) break;
  }
  const created: string[] = [];
  for (const level of missing.reverse()) {
    try {
      mkdirSync(level);
      created.push(level);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST' && isDirectory(level) === true) continue;
      throw error;
    }
  }
  return created;
}

/** Removes `created` (makeDirectories' answer) innermost first, each only while empty: nothing made by anyone else goes. */
export function removeCreatedDirectories(created: readonly string[]): void {
  for (const dir of [...created].reverse()) {
    try {
      rmdirSync(dir);
    } catch {
      return; // not empty (a file got in), or gone: the levels above it stay too
    }
  }
}
