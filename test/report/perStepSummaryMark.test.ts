/**
 * `--per-step` marks a strategy's summary calls (review s25-r1: a summary call repeated the step number before
 * it, unmarked, so the rows could not be checked by hand): JSON `summary: true`, a CSV `summary` column.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempDir } from '../cli/run.js';

/** A gpt-4o run of 6 calls, each step adding a 3,000-token tool result: past 8,000 tokens a summary is due. */
function run(): string {
  const header = '{"type":"header","schema":"loopcost.trace/1","model":"gpt-4o","systemTokens":500,"goalTokens":100}';
  const calls = Array.from({ length: 6 }, (_, i) => `{"type":"call","outputTokens":100${i === 5 ? ',"final":true' : `,"toolCalls":[{"name":"read","arguments":{"part":${i}},"resultTokens":3000}]`}}`);
  const file = join(tempDir(), 'run.jsonl');
  writeFileSync(file, [header, ...calls, '{"type":"end","outcome":"completed"}'].join('\n') + '\n');
  return file;
}

const SUMMARY = ['--context', 'summary:trigger=8000,keep=1,tokens=200', '--per-step'];

describe('--per-step marks summary calls', () => {
  it('JSON: each summary call is marked, every other call is not, and their count is the context summaries', async () => {
    const report = JSON.parse((await cli('replay', run(), ...SUMMARY, '--format', 'json')).stdout) as { runs: { perStep: { step: number; summary?: boolean }[]; summaryCalls: number }[] };
    const steps = report.runs[0]!.perStep;
    const marked = steps.filter((row) => row.summary === true);
    // The prompt passes 8,000 tokens after steps 3 and 5: a summary call before the calls that follow.
    expect(steps.map((row) => `${row.step}${row.summary ? 'S' : ''}`)).toEqual(['1', '2', '3', '3S', '4', '5', '5S', '6']);
    expect(marked).toHaveLength(report.runs[0]!.summaryCalls);
    expect(steps.filter((row) => row.summary !== undefined && row.summary !== true)).toEqual([]);
    // A summary call is not a step: it carries the step count of the call before it.
    for (const row of marked) expect(steps[steps.indexOf(row) - 1]!.step).toBe(row.step);
    expect(steps.filter((row) => row.summary !== true).map((row) => row.step)).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('CSV: a summary column, 1 on summary calls only', async () => {
    const lines = (await cli('replay', run(), ...SUMMARY, '--format', 'csv')).stdout.trim().split('\n');
    const header = lines[0]!.split(',');
    const at = header.indexOf('summary');
    expect(at).toBeGreaterThan(header.indexOf('failed'));
    const cells = lines.slice(1).map((line) => line.split(',')[at]);
    expect(cells.map((cell) => cell !== '')).toEqual([false, false, false, true, false, false, true, false]);
    expect(cells.every((cell) => cell === '' || cell === '1' || cell === 'true')).toBe(true);
  });
});
