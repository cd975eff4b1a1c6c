/**
 * `sweep --tree`: a run past $9,007 in a sub-agent is named by that run (its file, run and agent), not by
 * the tree's main run (the tree engine places it: tree/engine.ts step), and under --skip-bad its file is
 * the one left out: the main agent's file is still swept.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli, tempDir } from './run.js';

const header = (agent: string) => `{"type":"header","schema":"loopcost.trace/1","model":"gpt-4o","systemTokens":10,"goalTokens":5,"agent":${agent}}`;
const END = '{"type":"end","outcome":"completed"}';

let dir = '';
beforeAll(() => {
  dir = join(tempDir(), 'tree');
  mkdirSync(dir);
  const main = header('{"sessionId":"s1","agentId":"main","kind":"main"}');
  const sub = header('{"sessionId":"s1","agentId":"sub","kind":"subagent","parentAgentId":"main","parentToolCallId":"t1"}');
  writeFileSync(
    join(dir, 'main.jsonl'),
    [main, '{"type":"call","inputTokens":100,"outputTokens":5,"toolCalls":[{"name":"Task","arguments":{"t":"x"},"resultTokens":10,"id":"t1","startedAgentId":"sub"}]}', '{"type":"call","inputTokens":200,"outputTokens":5}', END].join('\n') + '\n',
  );
  // The sub-agent's second call alone costs more than $9,007.
  writeFileSync(
    join(dir, 'sub.jsonl'),
    [sub, '{"type":"call","inputTokens":100,"outputTokens":5,"toolCalls":[{"name":"read","arguments":{"a":1},"resultTokens":10,"id":"s1"}]}', '{"type":"call","inputTokens":100,"outputTokens":1000000000000}', END].join('\n') + '\n',
  );
});

const SUB_NAMED = /sub\.jsonl field 'calls': run of agent sub on gpt-4o with 2 recorded calls: one run costs more than \$9,007 \(2 calls\).*under configuration brakes none/;

describe('sweep --tree: a sub-agent run past $9,007', () => {
  it('is named by the sub-agent run that passed it, not the main run, on 1 and 2 workers (exit 2)', async () => {
    for (const workers of ['1', '2']) {
      const r = await cli('sweep', dir, '--tree', '--grid', 'max-steps=2,4', '--workers', workers);
      expect([r.code, r.stdout], workers).toEqual([2, '']);
      expect(r.stderr, workers).toMatch(SUB_NAMED);
      expect(r.stderr, workers).not.toMatch(/main\.jsonl/);
    }
  });

  it('--skip-bad leaves out the sub-agent file only: the main agent is swept', async () => {
    const r = await cli('sweep', dir, '--tree', '--grid', 'max-steps=2,4', '--skip-bad');
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/skipped 1 of 2 input files with problems \(--skip-bad\):\n.*sub\.jsonl field 'calls'/);
    expect(r.stderr).toMatch(SUB_NAMED);
    expect(r.stdout).toMatch(/1\/1 100\.0%/);
  });

  it('replay --tree names the sub-agent run too', async () => {
    const r = await cli('replay', dir, '--tree');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/sub\.jsonl field 'calls': run of agent sub on gpt-4o with 2 recorded calls: one run costs more than \$9,007/);
  });
});
