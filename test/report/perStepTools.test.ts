/**
 * `--per-step` says which tools each call asked for and how big their results were as they entered the context
 * (a call could not be told from another by hand): JSON `tools`, `toolResultTokens` (past the tool-result cap; a
 * skipped tool's warning in its place), `toolResultTokensBeforeCap` (only where the cap cut one), `skippedTools`
 * (the duplicate-action guard's); CSV columns of the same names, a call's names in one quoted cell. Never the
 * tools' arguments (large, or secret).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseCsv } from '../cli/csv.js';
import { cli, tempDir } from '../cli/run.js';

const HEADER = '{"type":"header","schema":"loopcost.trace/1","model":"gpt-4o","provider":"openai","systemTokens":500,"goalTokens":100,"origin":"recorded"}';
/** Each prompt recorded as the last plus its output and results; call 1 asks for two tools, grep's result past a 1,000-token cap; call 3 repeats call 1's read_file (skipped under --max-repeat 1 … skip). */
const CALLS = [
  '{"type":"call","outputTokens":100,"inputTokens":700,"toolCalls":[{"name":"read_file","arguments":{"path":"a"},"resultTokens":300},{"name":"grep","arguments":{"token":"s3cr3t-arg"},"resultTokens":5000}]}',
  '{"type":"call","outputTokens":50,"inputTokens":6100,"toolCalls":[{"name":"read_file","arguments":{"path":"b"},"resultTokens":200}]}',
  '{"type":"call","outputTokens":80,"inputTokens":6350,"toolCalls":[{"name":"read_file","arguments":{"path":"a"},"resultTokens":300}]}',
  '{"type":"call","outputTokens":30,"inputTokens":6730,"final":true}',
  '{"type":"end","outcome":"completed"}',
];
const CAPPED_SKIPPING = ['--tool-result-cap', '1000', '--max-repeat', '1', '--repeat-action', 'skip,warning=40'];

interface Row {
  inputTokens: number;
  outputTokens: number;
  tools?: string[];
  toolResultTokens?: number;
  toolResultTokensBeforeCap?: number;
  skippedTools?: string[];
}

function run(): string {
  const file = join(tempDir(), 'tools.jsonl');
  writeFileSync(file, [HEADER, ...CALLS].join('\n') + '\n');
  return file;
}

async function jsonRows(...flags: string[]): Promise<{ rows: Row[]; text: string }> {
  const text = (await cli('replay', run(), '--per-step', '--format', 'json', ...flags)).stdout;
  return { rows: (JSON.parse(text) as { runs: { perStep: Row[] }[] }).runs[0]!.perStep, text };
}

const toolFields = (row: Row) => [row.tools, row.toolResultTokens, row.toolResultTokensBeforeCap, row.skippedTools];

describe('--per-step: the tools a call asked for and their results', () => {
  it('JSON: names in order, results as they entered (capped, a skip its warning), before the cap only where it cut', async () => {
    const { rows, text } = await jsonRows(...CAPPED_SKIPPING);
    expect(rows.map(toolFields)).toEqual([
      [['read_file', 'grep'], 300 + 1000, 300 + 5000, undefined],
      [['read_file'], 200, undefined, undefined],
      [['read_file'], 40, undefined, ['read_file']],
      [undefined, undefined, undefined, undefined],
    ]);
    expect(text).not.toContain('s3cr3t-arg');
  });

  it('JSON: checked by hand under the cap, each prompt is the last one plus its output and the results it entered', async () => {
    // Not across a skip of a recorded run: the calls after it are billed as recorded, its result seen (open loop, as replay warns).
    const { rows } = await jsonRows('--tool-result-cap', '1000');
    expect(rows.map((row) => row.toolResultTokens)).toEqual([1300, 200, 300, undefined]);
    for (let i = 1; i < rows.length; i++) expect(rows[i]!.inputTokens).toBe(rows[i - 1]!.inputTokens + rows[i - 1]!.outputTokens + rows[i - 1]!.toolResultTokens!);
  });

  it('JSON: without a cap or a repeat brake, the results as recorded and nothing skipped', async () => {
    const { rows } = await jsonRows();
    expect(rows.map(toolFields)).toEqual([
      [['read_file', 'grep'], 5300, undefined, undefined],
      [['read_file'], 200, undefined, undefined],
      [['read_file'], 300, undefined, undefined],
      [undefined, undefined, undefined, undefined],
    ]);
  });

  it('a synthetic agent (closed loop): the skipped calls marked, their warning entered, and the prompts add up across them', async () => {
    // A repeater cycling over four arguments: under --max-repeat 1 its 5th reorganisation on is a repeat, skipped.
    const flags = ['--runs', '1', '--preset', 'none', '--max-steps', '8', '--max-repeat', '1', '--repeat-action', 'skip,warning=25'];
    const report = JSON.parse((await cli('replay', 'scenarios/folder-reorganised.yaml', '--per-step', '--format', 'json', ...flags)).stdout) as { runs: { perStep: Row[] }[] };
    const rows = report.runs[0]!.perStep;
    expect(rows.map((row) => row.skippedTools)).toEqual([undefined, undefined, undefined, undefined, undefined, ['organize_folder'], ['organize_folder'], ['organize_folder']]);
    expect(rows.slice(5).map((row) => row.toolResultTokens)).toEqual([25, 25, 25]);
    for (let i = 1; i < rows.length; i++) expect(rows[i]!.inputTokens).toBe(rows[i - 1]!.inputTokens + rows[i - 1]!.outputTokens + rows[i - 1]!.toolResultTokens!);
  });

  it('CSV: the same columns, a call\'s tool names in one quoted cell, never the arguments', async () => {
    const text = (await cli('replay', run(), '--per-step', '--format', 'csv', ...CAPPED_SKIPPING)).stdout;
    expect(text).toContain('"read_file,grep"');
    expect(text).not.toContain('s3cr3t-arg');
    const [header, ...lines] = parseCsv(text);
    const columns = ['tools', 'toolResultTokens', 'toolResultTokensBeforeCap', 'skippedTools'];
    const at = columns.map((column) => header!.indexOf(column));
    expect(at).toEqual([0, 1, 2, 3].map((i) => header!.indexOf('cacheWrite1hTokens') + 1 + i));
    expect(lines.map((line) => at.map((i) => line[i]))).toEqual([
      ['read_file,grep', '1300', '5300', ''],
      ['read_file', '200', '', ''],
      ['read_file', '40', '', 'read_file'],
      ['', '', '', ''],
    ]);
  });
});
