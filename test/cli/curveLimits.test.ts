// curve at its limits says so in its own flags: a curve has no recorded calls, so a run past exact
// picodollars names --steps and the step that passes $9,007 (or the token flags when step 1 does), and
// output tokens past the max_tokens the loop sends are warned about in one line.
import { describe, expect, it } from 'vitest';
import { cli } from './run.js';

const README_SIZES = ['--model', 'gpt-4o', '--system-tokens', '500', '--output-tokens', '150', '--tool-tokens', '2050'];

describe('curve past exact picodollars', () => {
  it('at the documented most steps names --steps and the step that passes $9,007, not recorded calls', async () => {
    const r = await cli('curve', ...README_SIZES, '--steps', '100000');
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain("loopcost: <command line> field '--steps': at --steps 100000 one run passes $9,007 (the most loopcost adds exactly) at step 1,810 (give --steps 1809 or less");
    expect(r.stderr).not.toMatch(/recorded call|field 'calls'/);
  });

  it('the step it names is the first that passes: one step fewer runs', async () => {
    const r = await cli('curve', ...README_SIZES, '--steps', '1809', '--format', 'json');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).totalCostUsd).toBeLessThan(9007.2);
  });

  it('when even the first step passes it, names the token flag, not --steps', async () => {
    const r = await cli('curve', '--model', 'gpt-4o', '--system-tokens', '1e15', '--output-tokens', '150', '--tool-tokens', '2050', '--steps', '10');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("field '--system-tokens': the first step alone passes $9,007");
    expect(r.stderr).not.toMatch(/recorded call|--steps 0/);
  });

  it('names the --compare-context strategy whose run passes it', async () => {
    const r = await cli('curve', ...README_SIZES, '--steps', '3000', '--context', 'window:5', '--compare-context', 'full;mask:10');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("at --steps 3000 one run under --compare-context's full passes $9,007 (the most loopcost adds exactly) at step 1,810");
  });
});

describe('curve --output-tokens past --max-output-tokens', () => {
  it('warns in one line that a provider would cut the answers, and prices them as given', async () => {
    const r = await cli('curve', '--model', 'gpt-4o', '--system-tokens', '500', '--output-tokens', '10000', '--tool-tokens', '2050', '--steps', '3', '--format', 'json');
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.rows.map((row: { outputTokens: number }) => row.outputTokens)).toEqual([10000, 10000, 10000]);
    expect(report.warnings).toEqual([expect.objectContaining({ code: 'output_past_max_tokens', message: expect.stringContaining('--output-tokens 10,000 is more than the max_tokens the loop sends (--max-output-tokens 4,096)') })]);
  });

  it('says nothing when the output fits the max_tokens sent', async () => {
    const r = await cli('curve', '--model', 'gpt-4o', '--system-tokens', '500', '--output-tokens', '10000', '--tool-tokens', '2050', '--steps', '3', '--max-output-tokens', '10000', '--format', 'json');
    expect(JSON.parse(r.stdout).warnings).toEqual([]);
  });
});
