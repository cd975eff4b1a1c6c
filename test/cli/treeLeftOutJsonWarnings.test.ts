/**
 * `replay --tree --skip-bad`: what reading the inputs said on stderr — the bad file left out, and the
 * session tree left out whole with it (treeDrop.ts, treesLeftOut.ts) — is in the report's `warnings` too, as
 * every other command's input warnings are (inputWarnings.ts): `skipped_inputs` and `trees_left_out` (its
 * `files`: the good files whose runs went with the tree). Said once on stderr, also for CSV (whose warnings
 * go to stderr): never twice.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli, tempDir } from './run.js';

const header = (agent: string) => `{"type":"header","schema":"loopcost.trace/1","model":"gpt-4o","systemTokens":10,"goalTokens":5${agent === '' ? '' : `,"agent":${agent}`}}`;
const END = '{"type":"end","outcome":"completed"}';
const CALL = '{"type":"call","inputTokens":100,"outputTokens":5}';
const MAIN = [header('{"sessionId":"s1","agentId":"main","kind":"main"}'), '{"type":"call","inputTokens":100,"outputTokens":5,"toolCalls":[{"name":"Task","arguments":{"t":"x"},"resultTokens":10,"id":"t1","startedAgentId":"sub"}]}', END];
const SUB = [header('{"sessionId":"s1","agentId":"sub","kind":"subagent","parentAgentId":"main","parentToolCallId":"t1"}'), CALL, '{"type":"call", oops', END];
const OTHER = [header(''), CALL, END];

let dir = '';
beforeAll(() => {
  dir = join(tempDir(), 'trees');
  mkdirSync(dir);
  for (const [name, lines] of Object.entries({ 'main.jsonl': MAIN, 'sub.jsonl': SUB, 'other.jsonl': OTHER })) writeFileSync(join(dir, name), lines.join('\n') + '\n');
});

const LEFT_OUT = /^left out session s1 whole: its run .*sub\.jsonl \(agent sub\) is in a bad file, so its runs in other files \(1 file: .*main\.jsonl\) are left out too: the tree without that run would under-count its spend \(--skip-bad\)$/;

describe('replay --tree: trees left out reach the JSON warnings', () => {
  it('JSON: skipped_inputs and trees_left_out, each said once on stderr', async () => {
    const r = await cli('replay', dir, '--tree', '--skip-bad', '--format', 'json');
    expect(r.code, r.stderr).toBe(0);
    const warnings = (JSON.parse(r.stdout) as { warnings: { code: string; message: string; files?: string[] }[] }).warnings;
    expect(warnings.map((w) => w.code).slice(0, 2)).toEqual(['skipped_inputs', 'trees_left_out']);
    const leftOut = warnings.find((w) => w.code === 'trees_left_out')!;
    expect(leftOut.message).toMatch(LEFT_OUT);
    expect(leftOut.files).toEqual([join(dir, 'main.jsonl')]);
    expect(r.stderr.match(/left out session s1 whole/g)).toHaveLength(1);
    expect(r.stderr).toContain(`loopcost: warning: ${leftOut.message}\n`);
  });

  it('CSV and table: the stderr line once, the table footer names it', async () => {
    const csv = await cli('replay', dir, '--tree', '--skip-bad', '--format', 'csv');
    expect(csv.code, csv.stderr).toBe(0);
    expect(csv.stderr.match(/left out session s1 whole/g)).toHaveLength(1);
    const table = await cli('replay', dir, '--tree', '--skip-bad');
    expect(table.stderr.match(/left out session s1 whole/g)).toHaveLength(1);
    expect(table.stdout.replace(/\s+/g, ' ')).toContain('left out session s1 whole');
  });
});
