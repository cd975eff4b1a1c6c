/**
 * calibrate's table names each configuration's grid values as sweep's does: a value with options after
 * commas (`summary:trigger=…,keep=…`) is one value of its axis, not cut at its first comma; `--wide` cuts
 * nothing. Its two false-stop columns say their definitions and print in one form, `stopped/of rate`, each
 * followed by how many of them a loop detector made; a table too wide for 120 columns gives the false stops
 * a table of their own (test/cli/tableWidths.test.ts holds every command to the width).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempDir } from './run.js';

const SUMMARY = 'summary:trigger=40000,keep=5,tokens=2000';
const GRID = ['--grid', `context=full,${SUMMARY}`, '--grid', 'max-repeat=2,3'];

describe('calibrate table', () => {
  it('a context value with options is shown whole under its axis, and --wide cuts nothing', async () => {
    const wide = await cli('calibrate', 'scenarios/keeps-asking.yaml', '--runs', '5', ...GRID, '--wide');
    expect(wide.code, wide.stderr).toBe(0);
    const rows = wide.stdout.split('\n').filter((line) => line.startsWith('summary:'));
    expect(rows).toHaveLength(2);
    for (const row of rows) expect(row.startsWith(`${SUMMARY}  `)).toBe(true);
    expect(wide.stdout.split('\n')[0]).toMatch(/^context\s+max-repeat\s+precision/);
  });

  it('fits 120 columns with three grid keys: the false stops in a table of their own, each row keyed again', async () => {
    const r = await cli('calibrate', 'scenarios/keeps-asking.yaml', '--runs', '5', '--grid', 'max-repeat=2,3', '--grid', 'repeat-mode=total,consecutive,cycle', '--grid', 'max-same-error=2,3');
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.split('\n');
    expect(Math.max(...lines.map((line) => line.length))).toBeLessThanOrEqual(120);
    expect(lines[0]).toMatch(/^max-repeat\s+repeat-mode\s+max-same-error\s+precision\s+recall\s+wasted steps$/);
    expect(lines[1]).toMatch(/^─+(  ─+){5}$/);
    const at = lines.indexOf('false stops, per configuration:');
    expect(at).toBe(2 + 12 + 1);
    expect(lines[at + 1]).toMatch(/^max-repeat\s+repeat-mode\s+max-same-error\s+false stops \(synthetic\)\s+detector\s+false stops \(recorded\)\s+detector$/);
    expect(lines[at + 3]).toMatch(/^2\s+total\s+2\s+\d+\/\d+ \S+\s+\d+\s+-\s+-$/);
  });

  it('the JSON keeps the configuration whole, as it always did', async () => {
    const json = await cli('calibrate', 'scenarios/keeps-asking.yaml', '--runs', '5', ...GRID, '--format', 'json');
    const settings = JSON.parse(json.stdout).configurations.map((row: { settings: string }) => row.settings);
    expect(settings).toContain(`context=${SUMMARY},max-repeat=3`);
  });
});

/** 50 retriers that give up after 20 attempts: each "completes" with no brakes, its task not done. */
function retriers(): string {
  const path = join(tempDir(), 'retr.yaml');
  const lines = ['scenario: loopcost.scenario/1', 'model: gpt-4o-mini', 'provider: openai', 'systemTokens: 350', 'goalTokens: 30', 'runs: 50', 'population:'];
  writeFileSync(path, [...lines, '  - behaviour: retrier', '    weight: 1', '    givesUpAfter: 20', '    outputTokens: 60', '    toolResultTokens: 40'].join('\n') + '\n');
  return path;
}

describe('calibrate false stops', () => {
  it('retriers caught by max-same-error=3 are no false stops: caught 50/50 and false stops 0/0 (their task is never done)', async () => {
    const r = await cli('calibrate', retriers(), '--grid', 'max-same-error=3');
    expect(r.code, r.stderr).toBe(0);
    const [top, header, , row] = r.stdout.split('\n');
    // One grid key: the table fits 120 columns, the false-stop headers on two lines.
    expect(top).toMatch(/^\s+false stops\s+false stops$/);
    expect(header).toMatch(/precision\s+recall\s+wasted steps\s+\(synthetic\)\s+detector\s+\(recorded\)\s+detector$/);
    expect(row).toMatch(/^3\s+50\/50 \(92–100%\)\s+50\/50 \(92–100%\)\s+2\.0 \(max 2\)\s+0\/0 -\s+0\s+-\s+-$/);
    const legend = r.stdout.replace(/\s+/g, ' ');
    expect(legend).toContain('false stops (synthetic), by ground truth: runs a brake stopped before the step their task is done at with no brakes / runs whose task is done with no brakes');
    expect(legend).toContain('false stops (recorded), by outcome: runs a brake stopped / runs that complete with no brakes');
    const json = JSON.parse((await cli('calibrate', retriers(), '--grid', 'max-same-error=3', '--format', 'json')).stdout);
    expect(json.configurations[0].synthetic).toMatchObject({ caughtStuck: 50, tasksDoneWithoutBrakes: 0, falseStops: 0, falseStopRate: null });
  });

  it('both columns print stopped/of rate: synthetic by ground truth, recorded by outcome', async () => {
    const r = await cli('calibrate', 'scenarios/production-mix.yaml', 'test/fixtures/mini-swe-agent', '--runs', '100', '--grid', 'max-steps=8', '--format', 'json');
    expect(r.code, r.stderr).toBe(0);
    const { synthetic, recorded } = JSON.parse(r.stdout).configurations[0];
    expect(synthetic.falseStops).toBeGreaterThan(0);
    expect(recorded.completedWithoutBrakes).toBeGreaterThan(0);
    const table = await cli('calibrate', 'scenarios/production-mix.yaml', 'test/fixtures/mini-swe-agent', '--runs', '100', '--grid', 'max-steps=8');
    const row = table.stdout.split('\n')[2]!;
    const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
    const detector = (byStop: { stopReason: string; runs: number }[]) => byStop.filter((e) => e.stopReason === 'repeat' || e.stopReason === 'error_limit').reduce((sum, e) => sum + e.runs, 0);
    // Each column followed by how many of its false stops a loop detector made.
    const cells = (of: { falseStops: number; falseStopsByStop: { stopReason: string; runs: number }[] }, outOf: number, rate: number) => `${of.falseStops}/${outOf} ${pct(rate)}\\s+${detector(of.falseStopsByStop)}`;
    expect(row).toMatch(new RegExp(`\\s${cells(synthetic, synthetic.tasksDoneWithoutBrakes, synthetic.falseStopRate)}\\s+${cells(recorded, recorded.completedWithoutBrakes, recorded.falseStopRate)}$`));
    expect(synthetic.falseStopsByStop.reduce((sum: number, e: { runs: number }) => sum + e.runs, 0)).toBe(synthetic.falseStops);
  });
});

describe('calibrate: how sure, and which brake', () => {
  it('precision and recall as counts with their 95% Wilson interval; false stops split by the brake that made them (the review: 27, 30, 30 of 33, 31, 30 were the step cap)', async () => {
    const r = await cli('calibrate', 'scenarios/production-mix.yaml', '--grid', 'max-repeat=2,3,5');
    expect(r.code, r.stderr).toBe(0);
    // The false stops' header on two lines; each count followed by the loop detector's share (the rest: another brake).
    const rows = r.stdout.split('\n').slice(3, 6);
    expect(rows[0]).toMatch(/^2\s+14\/20 \(48–86%\)\s+14\/16 \(63–97%\)\s+.*33\/151 21\.9%\s+6\s/);
    expect(rows[1]).toMatch(/^3\s+12\/13 \(66–99%\)\s+12\/16 \(50–90%\)\s+.*31\/151 20\.5%\s+1\s/);
    expect(rows[2]).toMatch(/^5\s+6\/6 \(60–100%\)\s+6\/16 \(18–62%\)\s+.*30\/151 19\.9%\s+0\s/);
    const json = JSON.parse((await cli('calibrate', 'scenarios/production-mix.yaml', '--grid', 'max-repeat=2', '--format', 'json')).stdout);
    const synthetic = json.configurations[0].synthetic;
    expect(synthetic.recallInterval[0]).toBeCloseTo(0.640, 3);
    expect(synthetic.falseStopsByStop).toEqual([{ stopReason: 'max_steps', runs: 27 }, { stopReason: 'repeat', runs: 6 }]);
    const csv = (await cli('calibrate', 'scenarios/production-mix.yaml', '--grid', 'max-repeat=2', '--format', 'csv')).stdout.split('\n');
    const header = csv[0]!.split(',');
    // Fields split on commas outside quotes (the settings and flags are quoted).
    const fields = [...csv[1]!.matchAll(/("(?:[^"]|"")*"|[^,]*)(?:,|$)/g)].map((m) => m[1]);
    expect(fields[header.indexOf('synthetic.falseStopsByDetectors')]).toBe('6');
    expect(fields[header.indexOf('synthetic.recallLow')]).toMatch(/^0\.639/);
  });
});
