/**
 * `sweep`'s JSON completion rate counts runs whose stop reason is `completed`, its table, frontier and false
 * stops of synthetic runs runs whose task is done (ground truth): with scenario files both show, and the report says "completed" two
 * ways in one note (text and JSON `notes`), as calibrate and project --suggest-cap do — the same counts
 * (production-mix seed 1, no brakes: 148 completed, 151 tasks done, 2 + 5 apart). Every shard says the same
 * (merge refuses shards whose headers differ); a sweep of recorded runs alone (no ground truth) says nothing of it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempDir } from './run.js';

const LINE = /"Completed" two ways \(the 200 runs with ground truth, with no brakes\): 148 completed \(stop reason completed: what JSON's and CSV's completed, completionRate and costPerCompletedUsd count, and recorded runs' false stops are judged by\), 151 tasks done \(ground truth: what the table's tasks done, the frontier and synthetic runs' false stops are judged by\): 2 completed without doing the task, 5 did it but ended trace_end\./;
const MIX = 'scenarios/production-mix.yaml';

const notesOf = (stdout: string): string[] => (JSON.parse(stdout) as { notes: string[] }).notes;

describe('sweep says "completed" two ways where both show', () => {
  it('in the table and in JSON notes, the counts calibrate gives', async () => {
    const table = await cli('sweep', MIX, '--grid', 'max-repeat=3');
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout.replace(/\s+/g, ' ')).toMatch(LINE);
    const json = await cli('sweep', MIX, '--grid', 'max-repeat=3', '--format', 'json');
    expect(notesOf(json.stdout).filter((note) => LINE.test(note))).toHaveLength(1);
    const calibrate = await cli('calibrate', MIX, '--grid', 'max-repeat=3');
    expect(calibrate.stdout.replace(/\s+/g, ' ')).toMatch(/148 completed \(stop reason completed: .*?\), 151 tasks done/);
  });

  it('every shard says the same (the first configuration of the grid): merge asks their headers to be equal', async () => {
    const dir = tempDir();
    const grid = ['--grid', 'max-steps=5,40', '--grid', 'context=full,window:3'];
    const shards = [join(dir, 's1.json'), join(dir, 's2.json')];
    for (const [k, out] of shards.entries()) expect((await cli('sweep', MIX, ...grid, '--shard', `${k + 1}/2`, '--out', out)).code).toBe(0);
    const [first, second] = shards.map((file) => notesOf(readFileSync(file, 'utf8')));
    expect(second).toEqual(first);
    expect(first!.filter((note) => LINE.test(note))).toHaveLength(1);
  });

  it('not for recorded runs alone (no ground truth)', async () => {
    const r = await cli('sweep', 'scenarios/recorded-pair.jsonl', '--grid', 'max-steps=5,10', '--format', 'json');
    expect(r.code, r.stderr).toBe(0);
    expect(notesOf(r.stdout).join('\n')).not.toContain('two ways');
  });
});
