/**
 * calibrate's table names each configuration's grid values as sweep's does: a value with options after
 * commas (`summary:trigger=…,keep=…`) is one value of its axis, not cut at its first comma; `--wide` cuts
 * nothing.
 */
import { describe, expect, it } from 'vitest';
import { cli } from './run.js';

const SUMMARY = 'summary:trigger=40000,keep=5,tokens=2000';
const GRID = ['--grid', `context=full,${SUMMARY}`, '--grid', 'max-repeat=2,3'];

describe('calibrate table', () => {
  it('a context value with options is shown whole under its axis, and --wide cuts nothing', async () => {
    const wide = await cli('calibrate', 'scenarios/keeps-asking.yaml', '--runs', '5', ...GRID, '--wide');
    expect(wide.code, wide.stderr).toBe(0);
    const rows = wide.stdout.split('\n').filter((line) => line.startsWith('summary:'));
    expect(rows).toHaveLength(2);
    for (const row of rows) expect(row.startsWith(`${SUMMARY}  `)).toBe(true);
    expect(wide.stdout.split('\n')[0]).toMatch(/^context\s+max-repeat\s+stuck caught/);
  });

  it('the JSON keeps the configuration whole, as it always did', async () => {
    const json = await cli('calibrate', 'scenarios/keeps-asking.yaml', '--runs', '5', ...GRID, '--format', 'json');
    const settings = JSON.parse(json.stdout).configurations.map((row: { settings: string }) => row.settings);
    expect(settings).toContain(`context=${SUMMARY},max-repeat=3`);
  });
});
