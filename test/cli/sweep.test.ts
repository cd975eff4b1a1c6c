/**
 * `loopcost sweep` and `loopcost merge` end to end: --workers 2 is byte-identical to --workers 1, shards
 * merged equal one run, bad grids exit 2 naming the key with nothing written, and the recommendation can
 * be recomputed from the CSV.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempDir } from './run.js';
import { pipedAndTerminal } from './terminalRuns.js';

const INPUTS = ['test/fixtures/mini-swe-agent', 'scenarios/production-mix.yaml', '--runs', '30'];
const GRID = ['--grid', 'max-steps=20,60', '--grid', 'max-repeat=2,4', '--grid', 'repeat-mode=total,cycle', '--target-completion', '0.5'];

describe('loopcost sweep', () => {
  it('--workers 2 writes exactly what --workers 1 writes, and shards merged equal one run', async () => {
    const one = await cli('sweep', ...INPUTS, ...GRID, '--format', 'json', '--workers', '1');
    const two = await cli('sweep', ...INPUTS, ...GRID, '--format', 'json', '--workers', '2');
    expect(one.code, one.stderr).toBe(0);
    expect(two.code, two.stderr).toBe(0);
    expect(two.stdout).toBe(one.stdout);
    const dir = tempDir();
    const shards = [1, 2, 3].map((k) => join(dir, `shard${k}.json`));
    for (const [k, out] of shards.entries()) {
      const shard = await cli('sweep', ...INPUTS, ...GRID, '--workers', '1', '--shard', `${k + 1}/3`, '--out', out);
      expect(shard.code, shard.stderr).toBe(0);
    }
    const merged = await cli('merge', shards[2]!, shards[0]!, shards[1]!, '--format', 'json');
    expect(merged.code, merged.stderr).toBe(0);
    expect(merged.stdout).toBe(one.stdout);
    const missing = await cli('merge', shards[0]!, shards[1]!);
    expect([missing.code, missing.stderr]).toEqual([2, expect.stringContaining('shard 3 of 3 missing')]);
  });

  it('the recommendation is the cheapest per completed run among those reaching the target, from the CSV', async () => {
    const { code, stdout, stderr } = await cli('sweep', ...INPUTS, ...GRID, '--format', 'csv', '--workers', '1');
    expect(code, stderr).toBe(0);
    const [header, ...lines] = stdout.trim().split('\n');
    const columns = header!.split(',');
    const rows = lines.map((line) => Object.fromEntries(line.match(/("[^"]*"|[^,]*)(,|$)/g)!.map((cell, i) => [columns[i]!, cell.replace(/,$/, '').replace(/^"|"$/g, '')])));
    expect(rows).toHaveLength(8);
    const eligible = rows.filter((r) => Number(r.completionRate) >= 0.5 && r.costPerCompletedUsd !== '');
    const best = [...eligible].sort((a, b) => Number(a.costPerCompletedUsd) - Number(b.costPerCompletedUsd) || Number(a.costUsd) - Number(b.costUsd))[0]!;
    expect(rows.filter((r) => r.recommended === '1').map((r) => r.settings)).toEqual([best.settings]);
    for (const r of rows) expect(Number(r.costPerCompletedUsd)).toBeCloseTo(Number(r.costUsd) / Number(r.completed), 9);
  });

  it('refuses bad grids with exit 2, naming the key, writing nothing', async () => {
    const dir = tempDir();
    const out = join(dir, 'sweep.json');
    for (const [grid, field] of [
      ['max-stepz=1,2', '--grid max-stepz'],
      ['max-steps=', '--grid max-steps'],
      ['max-steps=10,zero', '--grid max-steps'],
      ['model=no-such-model', '--grid model'],
      ['max-steps=' + Array.from({ length: 1001 }, (_, i) => i + 1).join(',') + ' ', ''],
    ] as const) {
      const args = grid.startsWith('max-steps=1,2,3') ? ['--grid', grid, '--grid', 'max-repeat=' + Array.from({ length: 1000 }, (_, i) => i + 1).join(',')] : ['--grid', grid];
      const r = await cli('sweep', ...INPUTS, ...args, '--out', out);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain(field === '' ? '--grid max-steps × max-repeat' : field);
      expect(existsSync(out)).toBe(false);
    }
  });

  it('renders a table and a chart naming the recommendation', async () => {
    const table = await cli('sweep', ...INPUTS, ...GRID, '--workers', '1');
    expect(table.code, table.stderr).toBe(0);
    // Its completion columns count what the pick counts (recommend.ts countedRow), and say so.
    expect(table.stdout).toMatch(/^max-steps\s+max-repeat\s+repeat-mode\s+tasks done\s+per task done/);
    // Synthetic runs beside the recorded ones: the target is met by tasks done (recorded runs by their stop reason), and a line says so.
    expect(table.stdout).toContain('→ For at least 50.0% of tasks done, the cheapest configuration is');
    expect(table.stdout.replace(/\s+/g, ' ')).toContain('Completion here counts tasks done for the 30 runs with ground truth, and stop reason `completed` for the 4 recorded runs (they carry none)');
    const chart = await cli('sweep', ...INPUTS, '--grid', 'max-steps=10,20,40', '--format', 'chart', '--workers', '1');
    expect(chart.code, chart.stderr).toBe(0);
    expect(chart.stdout).toContain('x axis: max-steps (10, 20, 40)');
    expect(chart.stdout).toMatch(/tasks done \(%\) against max-steps\n[^]*\n {13}10 +20 +40\n/);
    const dir = join(tempDir(), 'reports');
    const all = await cli('sweep', ...INPUTS, '--grid', 'max-steps=10,20', '--workers', '1', '--report-dir', dir);
    expect(all.code, all.stderr).toBe(0);
    for (const name of ['sweep.json', 'sweep.csv', 'sweep.txt', 'sweep-chart.txt']) expect(existsSync(join(dir, name))).toBe(true);
  });
});

describe('sweep chart', () => {
  it('plots against the first grid key, one panel per combination of the others, with the rows\' figures', async () => {
    const json = await cli('sweep', ...INPUTS, ...GRID, '--format', 'json', '--workers', '1');
    const chart = await cli('sweep', ...INPUTS, ...GRID, '--format', 'chart', '--workers', '1');
    expect(chart.code, chart.stderr).toBe(0);
    const rows = (JSON.parse(json.stdout) as { configurations: { settings: string; tasksDone: { doneRate: number } }[] }).configurations;
    const panels = chart.stdout.split('\n== ').slice(1);
    expect(panels.map((p) => p.slice(0, p.indexOf(' =='))).sort()).toEqual(['max-repeat=2,repeat-mode=cycle', 'max-repeat=2,repeat-mode=total', 'max-repeat=4,repeat-mode=cycle', 'max-repeat=4,repeat-mode=total']);
    for (const panel of panels) {
      const others = panel.slice(0, panel.indexOf(' =='));
      const mine = rows.filter((row) => row.settings.endsWith(others));
      expect(mine).toHaveLength(2);
      // Tasks done, as the table and the pick count them (runs with ground truth beside recorded ones).
      const top = Math.max(...mine.map((row) => row.tasksDone.doneRate * 100));
      expect(panel).toContain(`tasks done (%) against max-steps\n${top.toFixed(1).padStart(11)} `);
    }
  });
});

describe('sweep progress', () => {
  it('is drawn on stderr only when stderr is a terminal, and leaves the report as it is', async () => {
    const argv = ['sweep', 'test/fixtures/mini-swe-agent', '--grid', 'max-steps=' + Array.from({ length: 40 }, (_, i) => i + 1).join(','), '--format', 'csv', '--workers', '1'];
    const { piped, terminal } = await pipedAndTerminal(argv);
    expect([piped.code, terminal.code]).toEqual([0, 0]);
    expect(terminal.stdout).toBe(piped.stdout);
    expect(piped.stderr).not.toContain('sweep: ');
    // The files are units of the runs (streamed through the sweep): progress counts them.
    expect(terminal.stderr).toMatch(/sweep: units: 4\/4 \([\d.]+\/s, 0s left\) =+/);
  });

  it('counts configurations when they are split instead (a session tree, or stdin)', async () => {
    const { main } = await import('../../src/cli/main.js');
    const argv = ['sweep', '--tree', 'test/fixtures/claude-code', '--grid', 'max-steps=' + Array.from({ length: 40 }, (_, i) => i + 1).join(','), '--format', 'csv', '--workers', '1'];
    let stderr = '';
    const code = await main(argv, { stdout: () => undefined, stderr: (s) => (stderr += s), cwd: process.cwd(), stderrIsTerminal: true });
    expect(code, stderr).toBe(0);
    expect(stderr).toMatch(/sweep: configurations: 40\/40 \([\d.]+\/s, 0s left\) =+/);
  });
});
