/**
 * `sweep --tree`: a run past $9,007 in a sub-agent is named by that run (its file, run and agent), not by
 * the tree's main run (the tree engine places it: tree/engine.ts step). In `sweep --tree`, `replay --tree`
 * and `whatif --tree` its file is a bad file (exit 2 naming it; under --skip-bad listed with the bad
 * files), and under --skip-bad its whole tree is left out, named by its session (a tree without that run
 * would under-count its spend: cli/actions/treesLeftOut.ts).
 */
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli, tempDir } from './run.js';
import { expectReplayLeavesTreeOut, expectWhatifLeavesTreeOut } from './treeLeftOut.js';

const header = (agent: string) => `{"type":"header","schema":"loopcost.trace/1","model":"gpt-4o","systemTokens":10,"goalTokens":5,"agent":${agent}}`;
const END = '{"type":"end","outcome":"completed"}';

let dir = '';
/** The same tree beside a run of no session (other.jsonl): what --skip-bad leaves to replay. */
let withOther = '';
const OTHER = ['{"type":"header","schema":"loopcost.trace/1","model":"gpt-4o","systemTokens":10,"goalTokens":5}', '{"type":"call","inputTokens":100,"outputTokens":5}', END].join('\n') + '\n';
beforeAll(() => {
  dir = join(tempDir(), 'tree');
  mkdirSync(dir);
  const main = header('{"sessionId":"s1","agentId":"main","kind":"main"}');
  const sub = header('{"sessionId":"s1","agentId":"sub","kind":"subagent","parentAgentId":"main","parentToolCallId":"t1"}');
  writeFileSync(
    join(dir, 'main.jsonl'),
    [main, '{"type":"call","inputTokens":100,"outputTokens":5,"toolCalls":[{"name":"Task","arguments":{"t":"x"},"resultTokens":10,"id":"t1","startedAgentId":"sub"}]}', '{"type":"call","inputTokens":200,"outputTokens":5}', END].join('\n') + '\n',
  );
  // The sub-agent's two calls cost $6,000 each (600M output tokens at $10 a million): its second passes $9,007.
  // (One call past it on its own is named by its line instead: test/trace/callPastExactCli.test.ts.)
  writeFileSync(
    join(dir, 'sub.jsonl'),
    [sub, '{"type":"call","inputTokens":100,"outputTokens":600000000,"toolCalls":[{"name":"read","arguments":{"a":1},"resultTokens":10,"id":"s1"}]}', '{"type":"call","inputTokens":100,"outputTokens":600000000}', END].join('\n') + '\n',
  );
  withOther = join(tempDir(), 'with-other');
  mkdirSync(withOther);
  for (const name of ['main.jsonl', 'sub.jsonl']) copyFileSync(join(dir, name), join(withOther, name));
  writeFileSync(join(withOther, 'other.jsonl'), OTHER);
});

const SUB_NAMED = /sub\.jsonl field 'calls': run of agent sub on gpt-4o with 2 recorded calls: one run costs more than \$9,007, beyond.*under configuration brakes none/;

describe('sweep --tree: a sub-agent run past $9,007', () => {
  it('is named by the sub-agent run that passed it, not the main run, on 1 and 2 workers (exit 2)', async () => {
    for (const workers of ['1', '2']) {
      const r = await cli('sweep', dir, '--tree', '--grid', 'max-steps=2,4', '--workers', workers);
      expect([r.code, r.stdout], workers).toEqual([2, '']);
      expect(r.stderr, workers).toMatch(SUB_NAMED);
      expect(r.stderr, workers).not.toMatch(/main\.jsonl/);
    }
  });

  it('--skip-bad leaves out the sub-agent file as bad and its whole tree, as replay --tree does: the other run is swept', async () => {
    const r = await cli('sweep', withOther, '--tree', '--grid', 'max-steps=2,4', '--skip-bad');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/skipped 1 of 3 input files with problems \(--skip-bad\):\n.*sub\.jsonl field 'calls'/);
    expect(r.stderr).toMatch(SUB_NAMED);
    expect(r.stderr).toMatch(/warning: left out session s1 whole: its run .*sub\.jsonl \(agent sub\) passed \$9,007, so its runs in other files \(1 file: .*main\.jsonl\) are left out too/);
    expect(r.stdout).toMatch(/1\/1 100\.0%/);
    const json = await cli('sweep', withOther, '--tree', '--grid', 'max-steps=2,4', '--skip-bad', '--format', 'json');
    expect((JSON.parse(json.stdout) as { configurations: { runs: number; costUsd: number }[] }).configurations.map((row) => [row.runs, row.costUsd])).toEqual([
      [1, 0.0003],
      [1, 0.0003],
    ]);
  });

  it('--skip-bad with no other tree left fails (exit 2), naming the session', async () => {
    const r = await cli('sweep', dir, '--tree', '--grid', 'max-steps=2,4', '--skip-bad');
    expect([r.code, r.stdout]).toEqual([2, '']);
    expect(r.stderr).toMatch(/every session tree has a run past \$9,007 \(1 session: s1\): --skip-bad left no tree to work on/);
  });

  it('replay --tree names the sub-agent run too', async () => {
    const r = await cli('replay', dir, '--tree');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/sub\.jsonl field 'calls': run of agent sub on gpt-4o with 2 recorded calls: one run costs more than \$9,007/);
  });
});

const SUB_BAD = /skipped 1 of 3 input files with problems \(--skip-bad\):\n  .*sub\.jsonl field 'calls': run of agent sub on gpt-4o with 2 recorded calls: one run costs more than \$9,007/;
const TREE_LEFT_OUT = /warning: left out session s1 whole: its run .*sub\.jsonl \(agent sub\) passed \$9,007, so its runs in other files \(1 file: .*main\.jsonl\) are left out too/;

describe('replay --tree and whatif --tree: a sub-agent run past $9,007 makes its file a bad file', () => {
  it('without --skip-bad both fail (exit 2) naming the file, run and agent, with the count of bad files', async () => {
    for (const args of [['replay', withOther, '--tree'], ['whatif', withOther, '--tree', '--try', 'max-steps=10']]) {
      const r = await cli(...args);
      expect([r.code, r.stdout], args[0]).toEqual([2, '']);
      expect(r.stderr, args[0]).toMatch(/sub\.jsonl field 'calls': run of agent sub on gpt-4o with 2 recorded calls: one run costs more than \$9,007/);
      expect(r.stderr, args[0]).toMatch(/1 of 3 input files have problems; nothing was written/);
    }
  });

  it('replay --tree --skip-bad lists the file as bad and leaves the whole tree out, naming its session; the other run is replayed', async () => {
    await expectReplayLeavesTreeOut(withOther, { bad: SUB_BAD, leftOut: TREE_LEFT_OUT });
  });

  it('whatif --tree --skip-bad leaves the same tree out: only the other run is a subject', async () => {
    await expectWhatifLeavesTreeOut(withOther, { bad: SUB_BAD, leftOut: TREE_LEFT_OUT });
  });

  it('--skip-bad with no other tree left fails (exit 2), naming the session', async () => {
    const r = await cli('replay', dir, '--tree', '--skip-bad');
    expect([r.code, r.stdout]).toEqual([2, '']);
    expect(r.stderr).toMatch(/every session tree has a run past \$9,007 \(1 session: s1\): --skip-bad left no tree to work on; nothing was written/);
  });
});
