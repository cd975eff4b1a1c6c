/**
 * `--per-step` says which cache writes were for an hour (review s25-r1: 5-minute and 1-hour writes were one
 * `cacheWriteTokens`, so a call billed at the 1-hour price could not be checked by hand): JSON
 * `cacheWrite1hTokens` on the calls that wrote for an hour, a CSV column, empty elsewhere.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempDir } from '../cli/run.js';

const HEADER = '{"type":"header","schema":"loopcost.trace/1","model":"claude-sonnet-4","provider":"anthropic","systemTokens":1000,"goalTokens":200,"origin":"recorded"}';
const CALLS = [
  '{"type":"call","outputTokens":100,"inputTokens":1500,"cachedInputTokens":0,"cacheWrite1hTokens":1500,"toolCalls":[{"name":"sh","arguments":{"cmd":"a"},"resultTokens":800}]}',
  '{"type":"call","outputTokens":100,"inputTokens":2400,"cachedInputTokens":1500,"cacheWriteTokens":900,"toolCalls":[{"name":"sh","arguments":{"cmd":"b"},"resultTokens":300}]}',
  '{"type":"call","outputTokens":100,"inputTokens":2800,"cachedInputTokens":2400,"cacheWrite1hTokens":400,"final":true}',
  '{"type":"end","outcome":"completed"}',
];

function run(): string {
  const file = join(tempDir(), 'hour.jsonl');
  writeFileSync(file, [HEADER, ...CALLS].join('\n') + '\n');
  return file;
}

describe('--per-step: cache writes for an hour', () => {
  it('JSON: cacheWrite1hTokens on the calls that wrote for an hour, within their cacheWriteTokens', async () => {
    const report = JSON.parse((await cli('replay', run(), '--per-step', '--format', 'json')).stdout) as { runs: { perStep: { cacheWriteTokens: number; cacheWrite1hTokens?: number }[] }[] };
    expect(report.runs[0]!.perStep.map((row) => [row.cacheWriteTokens, row.cacheWrite1hTokens])).toEqual([
      [1500, 1500],
      [900, undefined],
      [400, 400],
    ]);
  });

  it('CSV: a cacheWrite1hTokens column, empty where no write was for an hour', async () => {
    const lines = (await cli('replay', run(), '--per-step', '--format', 'csv')).stdout.trim().split('\n');
    const header = lines[0]!.split(',');
    const at = header.indexOf('cacheWrite1hTokens');
    expect(at).toBeGreaterThan(0);
    expect(lines.slice(1).map((line) => line.split(',')[at])).toEqual(['1500', '', '400']);
  });
});
