/**
 * check's JSON `prices` is the one block every command that prices runs gives (report/pricedModels.ts
 * pricesRecord: the table's fields, `source`, `models` with the runs each priced, `days`, `note`): equal to
 * replay's for the same runs, recorded (priced as of the day each was recorded) and synthetic. Before, check
 * gave the table alone (no `source`, `models`, `days`, `note`). Its text's prices line says the days note as
 * replay's does; a baseline it writes stores the table as before (its `prices` holds no models or days).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, oneEntryScenario, tempDir } from './run.js';

type Prices = Record<string, unknown>;

/** o3 runs recorded before and after its June 2025 price cut, and one with no recording date, with a scenario file naming them. */
function datedRuns(dir: string): { runs: string[]; scenario: string } {
  const lines = readFileSync('scenarios/reference-sum-of-squares.jsonl', 'utf8').trim().split('\n');
  const header = JSON.parse(lines[0]!) as Record<string, unknown>;
  const run = (name: string, recordedAt?: string) => {
    writeFileSync(join(dir, name), [JSON.stringify({ ...header, model: 'o3', ...(recordedAt ? { recordedAt } : {}) }), ...lines.slice(1)].join('\n') + '\n');
    return join(dir, name);
  };
  const runs = [run('before-cut.jsonl', '2025-06-01T12:00:00Z'), run('after-cut.jsonl', '2025-07-01T12:00:00Z'), run('undated.jsonl')];
  const scenario = join(dir, 'recorded.yaml');
  writeFileSync(scenario, ['scenario: loopcost.scenario/1', 'traces: [before-cut.jsonl, after-cut.jsonl, undated.jsonl]', 'expect: { runs: { steps: { max: 1000 } } }', ''].join('\n'));
  return { runs, scenario };
}

describe("check's JSON prices: replay's block for the same runs", () => {
  it('recorded and synthetic runs: the same table, source, models with their runs, days and note as replay', async () => {
    const dir = tempDir();
    const { runs, scenario } = datedRuns(dir);
    const synthetic = oneEntryScenario(dir, 'small.yaml', { runs: '3', seed: '1' });
    const replay = await cli('replay', ...runs, synthetic, '--format', 'json');
    expect(replay.code, replay.stderr).toBe(0);
    const expected = (JSON.parse(replay.stdout) as { prices: Prices }).prices;
    const baseline = join(dir, 'baseline.json');
    const check = await cli('check', scenario, synthetic, '--format', 'json', '--update-baseline', baseline);
    expect(check.code, check.stderr).toBe(0);
    const prices = (JSON.parse(check.stdout) as { prices: Prices }).prices;
    expect(Object.keys(prices)).toEqual(Object.keys(expected));
    expect(prices).toEqual(expected);
    // What it holds: the three o3 resolutions (before and after the cut, the undated run's) and the scenario's model.
    expect((prices.models as { model: string; runs: number }[]).map((m) => [m.model, m.runs])).toEqual([['gpt-4o-mini', 3], ['o3', 1], ['o3', 1], ['o3', 1]]);
    expect(prices.days).toMatchObject({ recordedRuns: 2, firstDay: '2025-06-01', lastDay: '2025-07-01', undatedRuns: 4 });
    // The baseline stores the table's identity alone, as before.
    const stored = (JSON.parse(readFileSync(baseline, 'utf8')) as { prices: Prices }).prices;
    expect(Object.keys(stored)).not.toContain('models');
    expect(Object.keys(stored)).not.toContain('days');
  });

  it('--model prices every run as that model, as replay --model; the text prices line ends with the days note', async () => {
    const dir = tempDir();
    const { runs, scenario } = datedRuns(dir);
    const replay = await cli('replay', ...runs, '--model', 'gpt-4o-mini', '--format', 'json');
    expect(replay.code, replay.stderr).toBe(0);
    const expected = (JSON.parse(replay.stdout) as { prices: Prices }).prices;
    const check = await cli('check', scenario, '--model', 'gpt-4o-mini', '--format', 'json');
    expect(check.code, check.stderr).toBe(0);
    expect((JSON.parse(check.stdout) as { prices: Prices }).prices).toEqual(expected);
    const text = await cli('check', scenario);
    expect(text.code, text.stderr).toBe(0);
    // The prices line, its continuation lines joined.
    const flat = text.stdout.slice(text.stdout.indexOf('\nprices: ')).replace(/\s+/g, ' ');
    expect(flat).toContain(`; ${expected.note as string}`);
  });
});
