/**
 * `check --tree --skip-bad`: a session tree with a run in a bad file (a sub-agent transcript with a malformed
 * line) is left out WHOLE, named by its session on stderr, and the other trees are judged, as replay --tree,
 * whatif --tree and sweep --tree leave it out (cli/actions/treesLeftOut.ts). Before, check refused --skip-bad
 * with --tree outright. Without --skip-bad the bad file fails the check (exit 2), as in every command.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempDir } from '../cli/run.js';

const header = (agent: string) => `{"type":"header","schema":"loopcost.trace/1","model":"gpt-4o","systemTokens":10,"goalTokens":5${agent === '' ? '' : `,"agent":${agent}`}}`;
const END = '{"type":"end","outcome":"completed"}';
const CALL = '{"type":"call","inputTokens":100,"outputTokens":5}';
const MAIN = [header('{"sessionId":"s1","agentId":"main","kind":"main"}'), '{"type":"call","inputTokens":100,"outputTokens":5,"toolCalls":[{"name":"Task","arguments":{"t":"x"},"resultTokens":10,"id":"t1","startedAgentId":"sub"}]}', '{"type":"call","inputTokens":200,"outputTokens":5}', END];
const SUB = '{"sessionId":"s1","agentId":"sub","kind":"subagent","parentAgentId":"main","parentToolCallId":"t1"}';
/** The sub-agent's file: its third line is no JSON. */
const SUB_MALFORMED = [header(SUB), CALL, '{"type":"call", oops', END];
const OTHER_MAIN = [header('{"sessionId":"s2","agentId":"main","kind":"main"}'), CALL, CALL, END];

/** The sub-agent's file: its second call alone costs more than $9,007 (found bad only when the tree is replayed). */
const SUB_PAST_MAX = [header(SUB), '{"type":"call","inputTokens":100,"outputTokens":5,"toolCalls":[{"name":"read","arguments":{"a":1},"resultTokens":10,"id":"r1"}]}', '{"type":"call","inputTokens":100,"outputTokens":1000000000000}', END];

/** Two sessions' files (s1's sub-agent's bad: `sub`) and a scenario over them. */
function setup(sub = SUB_MALFORMED): { scenario: string; dir: string } {
  const dir = join(tempDir(), 'trees');
  mkdirSync(dir);
  for (const [name, lines] of Object.entries({ 'main.jsonl': MAIN, 'sub.jsonl': sub, 'other.jsonl': OTHER_MAIN })) writeFileSync(join(dir, name), lines.join('\n') + '\n');
  const scenario = join(dir, '..', 'trees.yaml');
  writeFileSync(scenario, ['scenario: loopcost.scenario/1', 'name: trees', `traces: [${dir}]`, 'brakes: { max-steps: 10 }', 'expect:', '  population: { completionRate: { min: 1 } }', ''].join('\n'));
  return { scenario, dir };
}

describe('check --tree --skip-bad', () => {
  it('leaves the tree with a run in a bad file out whole, named by its session, and judges the other tree', async () => {
    const { scenario } = setup();
    const r = await cli('check', '--tree', '--skip-bad', scenario, '--format', 'json');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/skipped 1 of 3 input files with problems \(--skip-bad\):\n  .*sub\.jsonl:line 3: is not valid JSON at column 17: /);
    expect(r.stderr).toMatch(/loopcost: warning: left out session s1 whole: its run .*sub\.jsonl \(agent sub\) is in a bad file, so its runs in other files \(1 file: .*main\.jsonl\) are left out too: the tree without that run would under-count its spend \(--skip-bad\)/);
    const checked = JSON.parse(r.stdout).scenarios[0];
    expect(checked.recordedRuns).toBe(1);
    expect(checked.tree.sessionTrees).toBe(1);
    // The tree judged is s2 alone: its two calls at gpt-4o's prices, as replay --tree of its file gives.
    const alone = await cli('replay', '--tree', join(setup().dir, 'other.jsonl'), '--format', 'json');
    expect(checked.figures.costUsd).toBe(JSON.parse(alone.stdout).trees[0].totals.costUsd);
  });

  it('a sub-agent run past $9,007 (found as the trees are judged) leaves its tree out whole too, named as passing it', async () => {
    const { scenario } = setup(SUB_PAST_MAX);
    const r = await cli('check', '--tree', '--skip-bad', scenario, '--format', 'json');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/loopcost: warning: left out session s1 whole: its run .*sub\.jsonl \(agent sub\) passed \$9,007, so its runs in other files \(1 file: .*main\.jsonl\) are left out too/);
    expect(JSON.parse(r.stdout).scenarios[0].recordedRuns).toBe(1);
  });

  it('without --skip-bad the bad file fails the check, named (exit 2)', async () => {
    const { scenario } = setup();
    const r = await cli('check', '--tree', scenario);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/sub\.jsonl:line 3/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });
});
