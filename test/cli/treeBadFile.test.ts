/**
 * `--tree --skip-bad`: a session tree with a run in a file found bad on READING (a malformed line, an
 * unknown model) is left out whole, named by its session, as one with a run past $9,007 is
 * (test/cli/treeCostOverflow.test.ts; cli/actions/treesLeftOut.ts): the tree without that sub-agent would
 * under-count its spend. In replay, whatif and sweep (1 and 2 workers, --target-completion). A file bad
 * before its header line is read places no run: it is a bad file alone, its tree replayed without it.
 */
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli, tempDir } from './run.js';
import { CALL, dirOf, END, header, MAIN_AGENT, OTHER, STARTS_SUB, SUB_AGENT, SUB_MALFORMED } from './treeFiles.js';
import { expectReplayLeavesTreeOut, expectWhatifLeavesTreeOut } from './treeLeftOut.js';

const MAIN = [header(MAIN_AGENT), STARTS_SUB, '{"type":"call","inputTokens":200,"outputTokens":5}', END];

let withOther = '';
let alone = '';
beforeAll(() => {
  withOther = dirOf({ 'main.jsonl': MAIN, 'sub.jsonl': SUB_MALFORMED, 'other.jsonl': OTHER });
  alone = join(tempDir(), 'alone');
  mkdirSync(alone);
  for (const name of ['main.jsonl', 'sub.jsonl']) copyFileSync(join(withOther, name), join(alone, name));
});

const SUB_BAD = /skipped 1 of 3 input files with problems \(--skip-bad\):\n  .*sub\.jsonl:line 3: is not valid JSON at column 17: /;
const TREE_LEFT_OUT = /loopcost: warning: left out session s1 whole: its run .*sub\.jsonl \(agent sub\) is in a bad file, so its runs in other files \(1 file: .*main\.jsonl\) are left out too: the tree without that run would under-count its spend \(--skip-bad\)/;

describe('--tree --skip-bad: a sub-agent file with a malformed line leaves its whole tree out', () => {
  it('replay --tree: the tree is left out, named by its session; the other run is replayed', async () => {
    await expectReplayLeavesTreeOut(withOther, { bad: SUB_BAD, leftOut: TREE_LEFT_OUT });
  });

  it('whatif --tree: only the other run is a subject', async () => {
    await expectWhatifLeavesTreeOut(withOther, { bad: SUB_BAD, leftOut: TREE_LEFT_OUT });
  });

  it('sweep --tree on 1 and 2 workers, and with --target-completion: one tree swept, the other run', async () => {
    for (const extra of [['--workers', '1'], ['--workers', '2'], ['--workers', '2', '--target-completion', '0.5']]) {
      const r = await cli('sweep', withOther, '--tree', '--grid', 'max-steps=2,4', '--skip-bad', '--format', 'json', ...extra);
      expect(r.code, `${extra.join(' ')}: ${r.stderr}`).toBe(0);
      expect(r.stderr, extra.join(' ')).toMatch(SUB_BAD);
      expect(r.stderr, extra.join(' ')).toMatch(TREE_LEFT_OUT);
      const rows = (JSON.parse(r.stdout) as { configurations: { runs: number; costUsd: number }[] }).configurations;
      expect(rows.map((row) => [row.runs, row.costUsd]), extra.join(' ')).toEqual([
        [1, 0.0003],
        [1, 0.0003],
      ]);
    }
  });

  it('without --skip-bad every command fails as before (exit 2), naming the file and line', async () => {
    for (const args of [['replay', withOther, '--tree'], ['whatif', withOther, '--tree', '--try', 'max-steps=10'], ['sweep', withOther, '--tree', '--grid', 'max-steps=2,4', '--workers', '2']]) {
      const r = await cli(...args);
      expect([r.code, r.stdout], args[0]).toEqual([2, '']);
      expect(r.stderr, args[0]).toMatch(/sub\.jsonl:line 3: is not valid JSON at column 17: /);
      expect(r.stderr, args[0]).toMatch(/1 of 3 input files have problems; nothing was written/);
      expect(r.stderr, args[0]).not.toMatch(/left out session/);
    }
  });

  it('with no other tree left, replay and sweep fail (exit 2), naming the bad file and the session', async () => {
    for (const args of [['replay', alone, '--tree', '--skip-bad'], ['sweep', alone, '--tree', '--grid', 'max-steps=2,4', '--skip-bad']]) {
      const r = await cli(...args);
      expect([r.code, r.stdout], args[0]).toEqual([2, '']);
      expect(r.stderr, args[0]).toMatch(/sub\.jsonl:line 3: is not valid JSON at column 17: /);
      expect(r.stderr, args[0]).toMatch(/every session tree has a run in a bad file \(1 session: s1\): --skip-bad left no tree to work on; nothing was written/);
    }
  });
});

describe('--tree --skip-bad: other ways a sub-agent file is bad', () => {
  it('an unknown model (found as the run is read) leaves the tree out the same way', async () => {
    const dir = dirOf({ 'main.jsonl': MAIN, 'sub.jsonl': [header(SUB_AGENT, 'no-such-model-x'), CALL, END], 'other.jsonl': OTHER });
    const r = await cli('replay', dir, '--tree', '--skip-bad', '--format', 'json');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/sub\.jsonl:line 1 field 'header\.model': unknown model 'no-such-model-x'/);
    expect(r.stderr).toMatch(TREE_LEFT_OUT);
    expect((JSON.parse(r.stdout) as { trees: { sessionId: string }[] }).trees.map((tree) => tree.sessionId)).toEqual([join(dir, 'other.jsonl')]);
  });

  it('a complete sub-agent run in a file another run of makes bad is placed by its header (named file#1)', async () => {
    const dir = dirOf({ 'main.jsonl': MAIN, 'mixed.jsonl': [header(SUB_AGENT), CALL, END, header(''), '{"type":"call", oops', END], 'other.jsonl': OTHER });
    const r = await cli('replay', dir, '--tree', '--skip-bad', '--format', 'json');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/left out session s1 whole: its run .*mixed\.jsonl#1 \(agent sub\) is in a bad file, so its runs in other files \(1 file: .*main\.jsonl\) are left out too/);
    expect((JSON.parse(r.stdout) as { trees: { sessionId: string }[] }).trees.map((tree) => tree.sessionId)).toEqual([join(dir, 'other.jsonl')]);
  });

  it('a file bad before its header is read places no run: a bad file alone, its tree replayed without it (as before)', async () => {
    const dir = dirOf({ 'main.jsonl': MAIN, 'sub.jsonl': ['{"type":"header", oops', CALL, END] });
    const r = await cli('replay', dir, '--tree', '--skip-bad', '--format', 'json');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/skipped 1 of 2 input files with problems \(--skip-bad\):\n  .*sub\.jsonl:line 1: is not valid JSON at column 19: /);
    expect(r.stderr).not.toMatch(/left out session/);
    const report = JSON.parse(r.stdout) as { trees: { sessionId: string }[]; summary: { agents: number } };
    expect([report.trees.map((tree) => tree.sessionId), report.summary.agents]).toEqual([['s1'], 1]);
  });
});
