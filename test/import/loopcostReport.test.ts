/**
 * loopcost's own reports are no traces: one left in an input directory (`replay rd --out rd/r.json`, which
 * is warned about) is named as a loopcost report on the next run (still exit 2, still a bad file under
 * --skip-bad), not "not a trace format … (its first record's fields: tool, settings, …)".
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UserError } from '../../src/errors.js';
import { detectFormat } from '../../src/import/formats.js';
import { cli, ONE_CALL_RUN, tempDir } from '../cli/run.js';

function refusalOf(text: string): { code: string; message: string } {
  try {
    detectFormat(text, 'r');
  } catch (error) {
    if (error instanceof UserError) return { code: error.issues[0]!.code, message: error.issues[0]!.message };
    throw error;
  }
  throw new Error('not refused');
}

const SAYS = 'is a loopcost report (written by --out or --report-dir), not a trace';

describe('a loopcost report read as an input', () => {
  it('JSON (pretty or compact), CSV and table reports are named as reports', () => {
    const json = { tool: { name: 'loopcost', version: '0.1.0' }, settings: {}, runs: [] };
    expect(refusalOf(JSON.stringify(json, null, 2))).toEqual({ code: 'loopcost_report', message: SAYS });
    expect(refusalOf(JSON.stringify(json) + '\n')).toEqual({ code: 'loopcost_report', message: SAYS });
    expect(refusalOf('source,task,model,costUsd,priceSource,priceVersion,priceHash,priceAsOf,priceOverrides\nt,,gpt-4o,0.1,x,1,ab,,\n').code).toBe('loopcost_report');
    expect(refusalOf('runs   1, completed 0\n\nsettings: brakes none · context full\nprices: @pydantic/genai-prices 0.1.8\n').code).toBe('loopcost_report');
    // Another tool's JSON is still "not a trace format".
    expect(refusalOf(JSON.stringify({ tool: { name: 'other' }, runs: [] })).code).toBe('unknown_format');
  });

  it('replay dir --out dir/r.json, then replay dir: the report is named (exit 2; skipped with --skip-bad)', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 't.jsonl'), ONE_CALL_RUN);
    const first = await cli('replay', dir, '--out', join(dir, 'r.json'));
    expect(first.code, first.stderr).toBe(0);
    const again = await cli('replay', dir);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain(`r.json: ${SAYS} (move it out of the input directory, or name the trace files)`);
    expect(again.stderr).not.toMatch(/first record's fields/);
    const skipping = await cli('replay', dir, '--skip-bad', '--format', 'json');
    expect(skipping.code, skipping.stderr).toBe(0);
    expect(JSON.parse(skipping.stdout).runs).toHaveLength(1);
    expect(skipping.stderr).toMatch(/skipped 1 of 2 input files with problems \(--skip-bad\):\n {2}.*r\.json: is a loopcost report/);
  });

  it('a --report-dir file named as an input is named as a report', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 't.jsonl'), ONE_CALL_RUN);
    const reports = join(tempDir(), 'reports');
    mkdirSync(reports);
    expect((await cli('replay', join(dir, 't.jsonl'), '--report-dir', reports)).code).toBe(0);
    for (const name of ['replay.json', 'replay.csv', 'replay-steps.csv', 'replay.txt', 'replay-chart.txt']) {
      expect(readFileSync(join(reports, name), 'utf8').length).toBeGreaterThan(0);
      const r = await cli('replay', join(reports, name));
      expect(r.code).toBe(2);
      expect(r.stderr, name).toContain(`${name}: ${SAYS}`);
    }
  });
});
