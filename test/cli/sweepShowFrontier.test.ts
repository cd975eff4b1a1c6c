/**
 * `sweep --show frontier`: the table shows only the configurations on the frontier (the rows the full table
 * stars `*`) and the recommended one (even off the frontier), in grid order, with a line saying how many of
 * how many; the legend, recommendation and notes unchanged. `--show all` (the default) is today's table byte
 * for byte. CSV, JSON and shards carry every row: `--show frontier` is refused with them (exit 2); with
 * --report-dir the table follows it and the other files carry every row; the chart plots every configuration.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { renderSweep, type SweepReport } from '../../src/report/sweepReport.js';
import { cli, tempDir } from './run.js';

const MINI = '../shared/traces/mini-swe-agent';
let prices = '';
const sweep = (...more: string[]) => cli('sweep', MINI, '--prices-override', prices, '--workers', '1', ...more);
const GRID = ['--grid', 'max-steps=40,60,80,100,150,200', '--grid', 'max-repeat=2,3,4,6', '--target-completion', '0.5'];

beforeAll(async () => {
  prices = join(tempDir(), 'prices.json');
  const derived = await cli('prices', 'derive', MINI, '--out', prices);
  expect(derived.code, derived.stderr).toBe(0);
}, 120_000);

/** A table's rows (the lines under its first rule whose first cell is a step cap, marks and all), each as its header → cell. */
function tableRows(text: string): Record<string, string>[] {
  const lines = text.split('\n');
  const rule = lines.findIndex((line) => line.startsWith('─'));
  const headers = lines[rule - 1]!.trim().split(/\s{2,}/);
  const rows: Record<string, string>[] = [];
  for (const line of lines.slice(rule + 1)) {
    if (!/^[*→]*\d+\s{2}/.test(line)) break;
    const cells = line.trim().split(/\s{2,}/);
    expect(cells.length, line).toBe(headers.length);
    rows.push(Object.fromEntries(headers.map((header, i) => [header, cells[i]!])));
  }
  return rows;
}

/** The text from the legend on (`* on the frontier: …` to the end). */
const fromLegend = (text: string): string => text.slice(text.indexOf('* on the frontier:'));

describe('sweep --show frontier: the table', { timeout: 120_000 }, () => {
  it('shows exactly the rows the full table stars, the recommended among them, and says how many of how many', async () => {
    const full = await sweep(...GRID);
    const frontier = await sweep(...GRID, '--show', 'frontier');
    expect(frontier.code, frontier.stderr).toBe(0);
    const starred = tableRows(full.stdout).filter((row) => row['max-steps']!.startsWith('*'));
    const shown = tableRows(frontier.stdout);
    expect(starred.length).toBeGreaterThan(1);
    expect(shown).toEqual(starred);
    expect(shown.filter((row) => row['max-steps']!.includes('→'))).toHaveLength(1);
    const json = JSON.parse((await sweep(...GRID, '--format', 'json')).stdout) as SweepReport;
    expect(json.pareto).toHaveLength(shown.length);
    expect(frontier.stdout).toContain(`\n${shown.length} of ${json.configurations.length} configurations shown (the frontier: --show all for every row; CSV and JSON have all)\n`);
    // The legend, the recommendation and the notes: the whole sweep's.
    expect(fromLegend(frontier.stdout)).toBe(fromLegend(full.stdout));
  });

  it('an empty frontier (no configuration completes a run): no rows, and the line says why', async () => {
    const r = await sweep('--grid', 'max-steps=5,10', '--show', 'frontier');
    expect(r.code, r.stderr).toBe(0);
    expect(tableRows(r.stdout)).toEqual([]);
    // Wrapped at 120 columns, read as one.
    expect(r.stdout.replace(/\s+/g, ' ')).toContain(' 0 of 2 configurations shown (the frontier, empty since no configuration completes a run: --show all for every row; CSV and JSON have all) ');
  });

  it('an empty frontier of runs with ground truth: no configuration gets a task done (each retrier completes, its task undone)', async () => {
    const dir = tempDir();
    const file = join(dir, 'gives-up.yaml');
    writeFileSync(file, readFileSync('scenarios/springfield-weather.yaml', 'utf8').replace('givesUpAfter: 90', 'givesUpAfter: 3').replace('brakes: { preset: reference }', 'brakes: {}'));
    const r = await cli('sweep', file, '--grid', 'max-steps=10,40', '--show', 'frontier');
    expect(r.code, r.stderr).toBe(0);
    expect(tableRows(r.stdout)).toEqual([]);
    expect(r.stdout.replace(/\s+/g, ' ')).toContain(' 0 of 2 configurations shown (the frontier, empty since no configuration gets a task done: ');
  });

  it('--show all is the default, byte for byte', async () => {
    const plain = await sweep(...GRID);
    const all = await sweep(...GRID, '--show', 'all');
    expect(all.code, all.stderr).toBe(0);
    expect(all.stdout).toBe(plain.stdout);
    expect(plain.stdout).not.toContain('configurations shown');
  });

  it('shows the recommended row even off the frontier, and says so', async () => {
    const report = JSON.parse((await sweep(...GRID, '--format', 'json')).stdout) as SweepReport;
    const picked = report.recommendation!.settings;
    // Off the frontier, as --max-false-stops can put it: the report with the pick left out of pareto.
    const offFrontier: SweepReport = { ...report, pareto: report.pareto!.filter((settings) => settings !== picked) };
    const text = renderSweep(offFrontier, 'table', { width: 120, wide: false }, 'frontier');
    const rows = tableRows(text);
    expect(rows.map((row) => row['max-steps']!.startsWith('*'))).toEqual(rows.map((row) => !row['max-steps']!.startsWith('→')));
    expect(rows.filter((row) => row['max-steps']!.startsWith('→'))).toHaveLength(1);
    expect(rows).toHaveLength(report.pareto!.length);
    // The line wrapped at 120 columns, read as one.
    expect(text.replace(/\s+/g, ' ')).toContain(`${rows.length} of ${report.configurations.length} configurations shown (the frontier and the recommended configuration: --show all for every row; CSV and JSON have all)`);
  });
});

describe('sweep --show: refused where it cannot choose rows', { timeout: 120_000 }, () => {
  it('a value other than all or frontier: exit 2 naming the flag and its choices', async () => {
    const r = await sweep(...GRID, '--show', 'front');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("option '--show <rows>' argument 'front' is invalid. Allowed choices are all, frontier.");
  });

  it('frontier with CSV or JSON (by --format or --out) or --shard: exit 2, no stack trace', async () => {
    const cases: [string[], RegExp][] = [
      [['--format', 'csv'], /field '--show': 'frontier' chooses a table's rows; a CSV report always carries every configuration/],
      [['--format', 'json'], /field '--show': 'frontier' chooses a table's rows; a JSON report always carries every configuration/],
      [['--out', join(tempDir(), 's.csv')], /a CSV report always carries every configuration/],
      [['--shard', '1/2'], /field '--show': 'frontier' chooses a table's rows; a shard's report is JSON carrying every configuration/],
    ];
    for (const [flags, message] of cases) {
      const r = await sweep(...GRID, '--show', 'frontier', ...flags);
      expect(r.code, flags.join(' ')).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.stderr).not.toMatch(/\n\s+at /);
      expect(r.stdout).toBe('');
    }
  });

  it('frontier with the chart: the chart of every configuration, and a warning that says so', async () => {
    const chart = await sweep(...GRID, '--format', 'chart');
    const shown = await sweep(...GRID, '--format', 'chart', '--show', 'frontier');
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toBe(chart.stdout);
    expect(shown.stderr).toContain("warning: --show frontier chooses a table's rows; the chart plots every configuration");
  });
});

describe('sweep --show frontier --report-dir', { timeout: 120_000 }, () => {
  it('the table (sweep.txt and stdout) follows --show; CSV, JSON and chart carry every row, as without it', async () => {
    const [allDir, frontierDir] = [join(tempDir(), 'all'), join(tempDir(), 'frontier')];
    const all = await sweep(...GRID, '--report-dir', allDir);
    const frontier = await sweep(...GRID, '--report-dir', frontierDir, '--show', 'frontier');
    expect(frontier.code, frontier.stderr).toBe(0);
    const read = (dir: string, name: string) => readFileSync(join(dir, name), 'utf8');
    for (const name of ['sweep.json', 'sweep.csv', 'sweep-chart.txt']) expect(read(frontierDir, name), name).toBe(read(allDir, name));
    const table = read(frontierDir, 'sweep.txt');
    expect(frontier.stdout).toBe(table);
    const starred = tableRows(read(allDir, 'sweep.txt')).filter((row) => row['max-steps']!.startsWith('*'));
    expect(tableRows(table)).toEqual(starred);
    expect(table).toContain(`${starred.length} of 24 configurations shown`);
    expect(tableRows(all.stdout)).toHaveLength(24);
  });
});
