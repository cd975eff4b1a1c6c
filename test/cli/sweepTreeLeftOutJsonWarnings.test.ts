/**
 * `sweep --tree --skip-bad`: what reading the inputs said on stderr — the bad file left out and the session
 * tree left out whole with it (sweepDrop.ts tallyDropping, treesLeftOut.ts) — is in the report's `warnings`
 * too (`skipped_inputs`, `trees_left_out` with `files`: the good files whose runs went with the tree), as
 * in replay --tree (treeLeftOutJsonWarnings.test.ts): on one thread and two, in each shard (which then
 * merge into the unsharded report), for a file bad on reading and for a run past $9,007; project --tree
 * (which tallies through the same tallyDropping) too. Said once on stderr, also for CSV and the table.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli, tempDir } from './run.js';
import { dirOf, END, header, MAIN_AGENT, OTHER, STARTS_SUB, SUB_AGENT, SUB_MALFORMED } from './treeFiles.js';

const MAIN = [header(MAIN_AGENT), STARTS_SUB, END];
/** The sub-agent's two calls cost $6,000 each (600M output tokens at $10 a million): its second passes $9,007 at the tally. */
const SUB_PAST = [header(SUB_AGENT), '{"type":"call","inputTokens":100,"outputTokens":600000000,"toolCalls":[{"name":"read","arguments":{"a":1},"resultTokens":10,"id":"s1"}]}', '{"type":"call","inputTokens":100,"outputTokens":600000000}', END];

const cases: { name: string; why: string; dir: string }[] = [];
beforeAll(() => {
  cases.push({ name: 'a malformed line', why: 'is in a bad file', dir: dirOf({ 'main.jsonl': MAIN, 'sub.jsonl': SUB_MALFORMED, 'other.jsonl': OTHER }) });
  cases.push({ name: 'a run past $9,007', why: 'passed \\$9,007', dir: dirOf({ 'main.jsonl': MAIN, 'sub.jsonl': SUB_PAST, 'other.jsonl': OTHER }) });
});

interface Warning {
  code: string;
  message: string;
  files?: string[];
}

const SWEEP = ['--tree', '--grid', 'max-steps=2,4', '--skip-bad', '--format', 'json'];

/** The sweep's JSON warnings, checked said once each on stderr (the run exits 0). */
async function sweepWarnings(dir: string, extra: string[]): Promise<{ warnings: Warning[]; stdout: string }> {
  const r = await cli('sweep', dir, ...SWEEP, ...extra);
  const label = `${dir} ${extra.join(' ')}`;
  expect(r.code, `${label}: ${r.stderr}`).toBe(0);
  const warnings = (JSON.parse(r.stdout) as { warnings: Warning[] }).warnings;
  const leftOut = warnings.find((w) => w.code === 'trees_left_out');
  expect(leftOut, label).toBeDefined();
  expect(r.stderr.match(/left out session s1 whole/g), label).toHaveLength(1);
  expect(r.stderr, label).toContain(`loopcost: warning: ${leftOut!.message}\n`);
  expect(r.stderr.match(/skipped 1 of 3 input files with problems/g), label).toHaveLength(1);
  return { warnings, stdout: r.stdout };
}

describe('sweep --tree --skip-bad: the bad file and the tree left out reach the JSON warnings', () => {
  it('on 1 and 2 workers: skipped_inputs then trees_left_out (its files: the good file of the tree), each said once on stderr', async () => {
    for (const { name, why, dir } of cases) {
      const leftOut = new RegExp(`^left out session s1 whole: its run .*sub\\.jsonl \\(agent sub\\) ${why}, so its runs in other files \\(1 file: .*main\\.jsonl\\) are left out too: the tree without that run would under-count its spend \\(--skip-bad\\)$`);
      for (const workers of ['1', '2']) {
        const { warnings } = await sweepWarnings(dir, ['--workers', workers]);
        const label = `${name}, --workers ${workers}`;
        expect(warnings.map((w) => w.code).slice(0, 2), label).toEqual(['skipped_inputs', 'trees_left_out']);
        expect(warnings[0]!.files, label).toEqual([join(dir, 'sub.jsonl')]);
        expect(warnings[1]!.message, label).toMatch(leftOut);
        expect(warnings[1]!.files, label).toEqual([join(dir, 'main.jsonl')]);
      }
    }
  });

  it('each shard carries them, and the shards merge into the unsharded report', async () => {
    for (const { name, dir } of cases) {
      const whole = await sweepWarnings(dir, ['--workers', '1']);
      const shardsDir = tempDir();
      const shards: string[] = [];
      for (const k of ['1', '2']) {
        const shard = await sweepWarnings(dir, ['--shard', `${k}/2`]);
        expect(shard.warnings, `${name}, shard ${k}/2`).toEqual(whole.warnings);
        const path = join(shardsDir, `shard-${k}.json`);
        writeFileSync(path, shard.stdout);
        shards.push(path);
      }
      const merged = await cli('merge', ...shards, '--format', 'json');
      expect(merged.code, merged.stderr).toBe(0);
      expect(merged.stdout, name).toBe(whole.stdout);
    }
  });
});

describe('sweep --tree --skip-bad: CSV and table say it once on stderr', () => {
  it('the stderr line once; the table footer names it', async () => {
    const dir = cases[0]!.dir;
    const csv = await cli('sweep', dir, '--tree', '--grid', 'max-steps=2,4', '--skip-bad', '--format', 'csv');
    expect(csv.code, csv.stderr).toBe(0);
    expect(csv.stderr.match(/left out session s1 whole/g)).toHaveLength(1);
    const table = await cli('sweep', dir, '--tree', '--grid', 'max-steps=2,4', '--skip-bad');
    expect(table.code, table.stderr).toBe(0);
    expect(table.stderr.match(/left out session s1 whole/g)).toHaveLength(1);
    expect(table.stdout.replace(/\s+/g, ' ')).toContain('left out session s1 whole');
  });
});

describe('project --tree --skip-bad (sweepDrop.ts tallyDropping too): the same warnings in its JSON', () => {
  it('skipped_inputs then trees_left_out, the tree line said once on stderr', async () => {
    for (const { name, dir } of cases) {
      const r = await cli('project', dir, '--tree', '--skip-bad', '--format', 'json');
      expect(r.code, `${name}: ${r.stderr}`).toBe(0);
      const warnings = (JSON.parse(r.stdout) as { warnings: Warning[] }).warnings;
      expect(warnings.map((w) => w.code).slice(0, 2), name).toEqual(['skipped_inputs', 'trees_left_out']);
      expect(warnings[1]!.files, name).toEqual([join(dir, 'main.jsonl')]);
      expect(r.stderr.match(/left out session s1 whole/g), name).toHaveLength(1);
    }
  });
});
