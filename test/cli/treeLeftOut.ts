/**
 * What `replay --tree` and `whatif --tree` under --skip-bad give when a session tree is left out whole
 * (its sub-agent's file is bad, or a run of it passed $9,007): the bad file named, the tree named by its
 * session, and only the loose run `other.jsonl` of `dir` reported.
 */
import { join } from 'node:path';
import { expect } from 'vitest';
import { cli } from './run.js';

export interface LeftOutWords {
  /** The bad file, as the skipped list names it. */
  bad: RegExp;
  /** The warning that names the tree left out. */
  leftOut: RegExp;
}

export async function expectReplayLeavesTreeOut(dir: string, words: LeftOutWords): Promise<void> {
  const r = await cli('replay', dir, '--tree', '--skip-bad', '--format', 'json');
  expect(r.code, r.stderr).toBe(0);
  expect(r.stderr).toMatch(words.bad);
  expect(r.stderr).toMatch(words.leftOut);
  const report = JSON.parse(r.stdout) as { trees: { sessionId: string }[]; summary: { trees: number; agents: number } };
  expect(report.trees.map((tree) => tree.sessionId)).toEqual([join(dir, 'other.jsonl')]);
  expect([report.summary.trees, report.summary.agents]).toEqual([1, 1]);
}

export async function expectWhatifLeavesTreeOut(dir: string, words: LeftOutWords): Promise<void> {
  const r = await cli('whatif', dir, '--tree', '--try', 'max-steps=10', '--skip-bad', '--format', 'json');
  expect(r.code, r.stderr).toBe(0);
  expect(r.stderr).toMatch(words.bad);
  expect(r.stderr).toMatch(words.leftOut);
  expect((JSON.parse(r.stdout) as { runs: { source: string }[] }).runs.map((run) => run.source)).toEqual([join(dir, 'other.jsonl')]);
}
