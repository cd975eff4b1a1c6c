/**
 * Where sweep's recommendation shows, and what it never favours: written as CSV or JSON (or to a file), the
 * report holds no text of it, so its lines go to stderr, stdout keeping the report alone for pipes; a table
 * on stdout says it there only. A configuration completing nothing is never on the frontier (before,
 * --grid max-steps=10,20 starred both 0/38 rows), and the chart leaves it out of cost per completed run
 * (before, plotted at 0: the cheapest) and names it.
 */
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli, tempDir } from './run.js';

const MINI = '../shared/traces/mini-swe-agent';
let prices = '';
const sweep = (...more: string[]) => cli('sweep', MINI, '--prices-override', prices, '--workers', '1', ...more);
const TARGET = ['--grid', 'max-steps=50,100,200', '--target-completion', '0.5'];

beforeAll(async () => {
  prices = join(tempDir(), 'prices.json');
  const derived = await cli('prices', 'derive', MINI, '--out', prices);
  expect(derived.code, derived.stderr).toBe(0);
}, 120_000);

describe('sweep: the recommendation on stderr when the report holds none', { timeout: 120_000 }, () => {
  it('--format csv: the lines on stderr, stdout the CSV alone', async () => {
    const r = await sweep(...TARGET, '--format', 'csv');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.startsWith('settings,')).toBe(true);
    expect(r.stdout).not.toContain('→');
    expect(r.stderr).toMatch(/→ For at least 50\.0% of runs completed, the cheapest configuration is max-steps=\d+/);
  });

  it('--out FILE.json: the lines on stderr; a table on stdout: not said twice', async () => {
    const out = join(tempDir(), 's.json');
    const file = await sweep(...TARGET, '--out', out);
    expect(file.code, file.stderr).toBe(0);
    expect(file.stderr).toContain('→ For at least 50.0%');
    const table = await sweep(...TARGET);
    expect(table.stdout).toContain('→ For at least 50.0%');
    expect(table.stderr).not.toContain('→');
  });
});

describe('sweep: a configuration completing nothing is never favoured', { timeout: 120_000 }, () => {
  it('no star for 0/38 rows, and the chart leaves them out of cost per completed run', async () => {
    const json = await sweep('--grid', 'max-steps=10,20,200', '--format', 'json');
    expect((JSON.parse(json.stdout) as { pareto: string[] }).pareto).toEqual(['max-steps=200']);
    const table = await sweep('--grid', 'max-steps=10,20');
    expect(table.stdout).not.toMatch(/^\*\d/m);
    const chart = await sweep('--grid', 'max-steps=10,20,200', '--format', 'chart');
    expect(chart.stdout.replace(/\s+/g, ' ')).toContain('(none completed at 10, 20: no cost per completed run, not plotted)');
  });
});
