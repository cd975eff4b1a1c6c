/**
 * The `replay --tree` text table shows token counts with thousands separators, as every other text table
 * does (report/text.ts tokenCount); JSON and CSV keep the plain numbers.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseCsv } from '../cli/csv.js';
import { cli, tempDir } from '../cli/run.js';

let file = '';
beforeAll(() => {
  file = join(tempDir(), 'big.jsonl');
  const header = '{"type":"header","schema":"loopcost.trace/1","model":"gpt-4o","systemTokens":10,"goalTokens":5,"agent":{"sessionId":"big","agentId":"main","kind":"main"}}';
  writeFileSync(file, [header, '{"type":"call","inputTokens":1234567,"outputTokens":12345,"toolCalls":[{"name":"read","arguments":{"a":1},"resultTokens":10}]}', '{"type":"call","inputTokens":1300000,"outputTokens":2000}', '{"type":"end","outcome":"completed"}'].join('\n') + '\n');
});

describe('replay --tree: token counts in the text table', () => {
  it('the table shows prompt and output tokens with separators; JSON and CSV keep the numbers', async () => {
    const json = await cli('replay', '--tree', file, '--format', 'json');
    expect(json.code, json.stderr).toBe(0);
    const totals = (JSON.parse(json.stdout) as { trees: { totals: { inputTokens: number; outputTokens: number } }[] }).trees[0]!.totals;
    expect([totals.inputTokens, totals.outputTokens]).toEqual([2534567, 14345]);
    const table = await cli('replay', '--tree', file);
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toMatch(/^main +- +gpt-4o +2\/2 +2 +0 +2,534,567 +14,345 /m);
    expect(table.stdout).toMatch(/^tree +- +gpt-4o +2\/2 +2 +0 +2,534,567 +14,345 /m);
    const [head, ...rows] = parseCsv((await cli('replay', '--tree', file, '--format', 'csv')).stdout);
    const at = (name: string) => head!.indexOf(name);
    expect(rows.filter((row) => row.length > 1).map((row) => [row[at('agent')], row[at('inputTokens')], row[at('outputTokens')]])).toEqual([
      ['main', '2534567', '14345'],
      ['tree', '2534567', '14345'],
    ]);
  });
});
