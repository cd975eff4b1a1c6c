/**
 * A session tree's spend past 2^53 picodollars (≈ $9,007) over all its agents, no run of it past that on
 * its own: refused as a run past $9,007 is (cost_out_of_range), named by the tree's session and the run
 * (file, agent) whose call took the tree past it — never summed inexactly. In the CLI that run's file is a
 * bad file: exit 2 without --skip-bad, with it the whole tree left out (actions/treeDrop.ts).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { NO_BRAKES } from '../../src/brakes/config.js';
import { FULL_HISTORY } from '../../src/context/strategy.js';
import { UserError } from '../../src/errors.js';
import type { AgentRef, Trace } from '../../src/trace/types.js';
import { replayTree } from '../../src/tree/replayTree.js';
import { cli, tempDir } from '../cli/run.js';
import { call, handPriced, handTable, toolCall, trace } from '../helpers.js';

/** $10 per million output tokens: 600,000,000 output tokens cost $6,000 (6e15 picodollars, under 2^53 ≈ 9.007e15); two, $12,000. */
const OUTPUT = 600_000_000;
const TREE_PAST = /run of agent sub on (m|gpt-4o) with 1 recorded call: session s2 costs more than \$9,007 over all its agents \(2 steps\), beyond exact picodollar arithmetic/;

function agentRun(agent: AgentRef, run: Trace): Trace {
  run.source = `s2#${agent.agentId}`;
  run.header.agent = agent;
  return run;
}

describe('replayTree: a tree past $9,007 over its agents', () => {
  it('two runs each under $9,007 ($6,000 each) are refused as the tree passes it, at the sub-agent call that took it past', () => {
    const table = handTable(handPriced('m', { input: 1, output: 10 }));
    const main = agentRun({ sessionId: 's2', agentId: 'main', kind: 'main' }, trace([call(OUTPUT, [toolCall('Task', { t: 'x' }, 10, { id: 'T1' })]), call(5)], { model: 'm', outcome: 'completed', origin: 'recorded' }));
    const sub = agentRun({ sessionId: 's2', agentId: 'sub', kind: 'subagent', parentAgentId: 'main', parentToolCallId: 'T1' }, trace([call(OUTPUT)], { model: 'm', outcome: 'completed', origin: 'recorded' }));
    // Each run alone is exact.
    for (const run of [main, sub]) expect(replayTree([run], { brakes: NO_BRAKES, strategy: FULL_HISTORY, prices: table }).totals.costPico).toBeLessThan(Number.MAX_SAFE_INTEGER);
    let thrown: unknown;
    try {
      replayTree([main, sub], { brakes: NO_BRAKES, strategy: FULL_HISTORY, prices: table });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(UserError);
    const issues = (thrown as UserError).issues;
    expect(issues.map((issue) => [issue.code, issue.file, issue.field])).toEqual([['cost_out_of_range', 's2#sub', 'calls']]);
    expect(issues[0]!.message).toMatch(TREE_PAST);
  });
});

const header = (agent: string) => `{"type":"header","schema":"loopcost.trace/1","model":"gpt-4o","systemTokens":10,"goalTokens":5,"agent":${agent}}`;
const END = '{"type":"end","outcome":"completed"}';

let dir = '';
let withOther = '';
beforeAll(() => {
  dir = join(tempDir(), 'tree2');
  withOther = join(tempDir(), 'tree2-other');
  const main = [header('{"sessionId":"s2","agentId":"main","kind":"main"}'), `{"type":"call","inputTokens":100,"outputTokens":${OUTPUT},"toolCalls":[{"name":"Task","arguments":{"t":"x"},"resultTokens":10,"id":"t1","startedAgentId":"sub"}]}`, '{"type":"call","inputTokens":200,"outputTokens":5}', END];
  const sub = [header('{"sessionId":"s2","agentId":"sub","kind":"subagent","parentAgentId":"main","parentToolCallId":"t1"}'), `{"type":"call","inputTokens":100,"outputTokens":${OUTPUT}}`, END];
  for (const at of [dir, withOther]) {
    mkdirSync(at);
    writeFileSync(join(at, 'main.jsonl'), main.join('\n') + '\n');
    writeFileSync(join(at, 'sub.jsonl'), sub.join('\n') + '\n');
  }
  writeFileSync(join(withOther, 'other.jsonl'), ['{"type":"header","schema":"loopcost.trace/1","model":"gpt-4o","systemTokens":10,"goalTokens":5}', '{"type":"call","inputTokens":100,"outputTokens":5}', END].join('\n') + '\n');
});

describe('the CLI: a tree past $9,007 over its agents is a bad file', () => {
  it('replay --tree, whatif --tree and sweep --tree fail (exit 2) naming the session, and the file and agent whose call took it past', async () => {
    for (const args of [['replay', dir, '--tree'], ['whatif', dir, '--tree', '--try', 'max-steps=10'], ['sweep', dir, '--tree', '--grid', 'max-steps=5,10']]) {
      const r = await cli(...args);
      expect([r.code, r.stdout], args[0]).toEqual([2, '']);
      expect(r.stderr, args[0]).toMatch(/sub\.jsonl field 'calls': /);
      expect(r.stderr, args[0]).toMatch(TREE_PAST);
      expect(r.stderr, args[0]).not.toMatch(/disagree|at .*\.ts:\d+/);
    }
  });

  it('each run alone (without --tree) replays: $6,000 each', async () => {
    const r = await cli('replay', dir, '--format', 'json');
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout) as { runs: { costUsd: number }[] };
    expect(report.runs.map((run) => Math.round(run.costUsd))).toEqual([6000, 6000]);
  });

  it('replay --tree --skip-bad leaves the tree out whole, naming its session, and replays the rest', async () => {
    const r = await cli('replay', withOther, '--tree', '--skip-bad', '--format', 'json');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/skipped 1 of 3 input files with problems \(--skip-bad\):\n  .*sub\.jsonl field 'calls'/);
    expect(r.stderr).toMatch(/left out session s2 whole: its run .*sub\.jsonl \(agent sub\) passed \$9,007/);
    const report = JSON.parse(r.stdout) as { trees: { sessionId: string }[] };
    expect(report.trees.map((tree) => tree.sessionId)).toEqual([join(withOther, 'other.jsonl')]);
  });
});
