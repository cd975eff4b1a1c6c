/**
 * An absolute glob is walked from where its wildcards start (src/io/globMatches.ts): tinyglobby left to
 * itself walked from the directory the pattern shares with the current one — `/` for a pattern under /tmp
 * run in the project — listing `/`, all of /tmp (tens of thousands of entries on a test machine) and the
 * current directory on the way, a quarter of a second for a glob that matches nothing. The matches are
 * the same either way.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { globMatches, globWalk } from '../../src/io/globMatches.js';
import { tempDir } from '../cli/run.js';

/** The matches of `pattern`, and how many directories the glob listed to find them. */
function walked(pattern: string): { matches: string[]; directoriesRead: number } {
  const before = globWalk.directoriesRead;
  const matches = globMatches(pattern);
  return { matches, directoriesRead: globWalk.directoriesRead - before };
}

describe('an absolute glob', () => {
  const dir = tempDir();
  mkdirSync(join(dir, 'runs', 'sub', 'node_modules'), { recursive: true });
  for (const file of ['runs/a.jsonl', 'runs/sub/b.jsonl', 'runs/sub/node_modules/c.jsonl', 'runs/.d.jsonl']) writeFileSync(join(dir, file), '');

  it('lists only the directories under its fixed part, whatever the current directory', () => {
    expect(process.cwd().startsWith(dir)).toBe(false);
    expect(walked(join(dir, 'runs', 'nomatch-*.jsonl'))).toEqual({ matches: [], directoriesRead: 1 });
    expect(walked(join(dir, 'runs', '*.jsonl'))).toEqual({ matches: [join(dir, 'runs/a.jsonl')], directoriesRead: 1 });
    // `**` goes into sub/ (not into node_modules, nor into the walk's start's parents).
    expect(walked(join(dir, 'runs', '**', '*.jsonl'))).toEqual({ matches: [join(dir, 'runs/a.jsonl'), join(dir, 'runs/sub/b.jsonl')], directoriesRead: 2 });
  });

  it('a wildcard in a directory name: the walk starts above it', () => {
    expect(walked(join(dir, '*', 'sub', '*.jsonl'))).toEqual({ matches: [join(dir, 'runs/sub/b.jsonl')], directoriesRead: 3 });
  });

  it('matches as before: a pattern that writes out a hidden name or node_modules, a path through ..', () => {
    expect(globMatches(join(dir, 'runs', '.d*'))).toEqual([join(dir, 'runs/.d.jsonl')]);
    expect(globMatches(join(dir, 'runs', 'sub', 'node_modules', '*.jsonl'))).toEqual([join(dir, 'runs/sub/node_modules/c.jsonl')]);
    expect(globMatches(`${dir}/runs/sub/../*.jsonl`)).toEqual([join(dir, 'runs/a.jsonl')]);
    expect(globMatches(join(dir, 'nope', '*.jsonl'))).toEqual([]);
  });
});
