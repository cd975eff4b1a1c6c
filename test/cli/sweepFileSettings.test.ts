/**
 * A sweep's (a calibration's) synthetic runs take their scenario file's own brakes and context (cache
 * too), the flags given on top and each configuration's grid values on top of those — as replay, check
 * and project run a file (src/population/scenarioBase.ts); recorded runs beside them take the flags and
 * grid values alone. A row's flags are those given (`replay INPUTS <flags>` gives its figures). The
 * settings line names the files' own settings, and under it each file's where the files differ.
 * And the baseline `saved` is measured against (no brakes, up to the hard cap) is given its own total.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempDir } from './run.js';

interface Row {
  settings: string;
  flags: string;
  brakes: string;
  context: string;
  cache: string;
  costUsd: number;
  completed: number;
  falseStops: number;
  stopReasons: Record<string, number>;
  baselineCostUsd: number;
}

async function jsonReport(...argv: string[]): Promise<{ warnings: { code: string; message: string }[]; notes: string[]; settings: Record<string, string>; configurations: Row[] }> {
  const r = await cli(...argv, '--format', 'json');
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
}

/** A support agent (the reviewer's): brakes with a budget, a timeout, a repeat and a same-error limit; the cache on. */
function supportScenario(dir: string, name: string, settings: { brakes?: string; context?: string } = {}): string {
  const path = join(dir, name);
  const lines = [
    'scenario: loopcost.scenario/1',
    'model: gpt-4o-mini',
    'provider: openai',
    'systemTokens: 1200',
    'goalTokens: { kind: lognormal, median: 250, p95: 900 }',
    'latency: { call: 1500, output-token: 8, tool: 400 }',
    `brakes: ${settings.brakes ?? '{ max-steps: 15, max-cost: 0.10, max-repeat: 3, repeat-mode: total, max-same-error: 3, timeout: 120 }'}`,
    `context: ${settings.context ?? '{ context: full, cache: on }'}`,
    'hardCapSteps: 150',
    'runs: 60',
    'seed: 3',
    'population:',
    '  - { behaviour: healthy, name: resolves, weight: 85, steps: { kind: lognormal, median: 5, p95: 11 }, repeatShare: 0.05, errorShare: 0.05, outputTokens: { kind: lognormal, median: 150, p95: 500 }, toolResultTokens: { kind: lognormal, median: 400, p95: 2500 } }',
    '  - { behaviour: perfectionist, name: kb loop, tool: kb_search, weight: 5, repeatQuery: 0.6, outputTokens: { kind: lognormal, median: 120, p95: 300 }, toolResultTokens: { kind: lognormal, median: 800, p95: 2000 } }',
    '  - { behaviour: retrier, name: crm down, tool: crm_lookup, weight: 5, error: "CRMTimeout", variants: [{ id: 1 }, { id: "1" }], givesUpAfter: 40, outputTokens: 80, toolResultTokens: 30 }',
  ];
  writeFileSync(path, lines.join('\n') + '\n');
  return path;
}

/** What a row's figures are, to compare two sweeps' rows. */
const figures = (rows: readonly Row[]) => rows.map(({ settings, costUsd, completed, falseStops, stopReasons }) => ({ settings, costUsd, completed, falseStops, stopReasons }));

/** Each row replayed with its flags over the same inputs: the replay's total is the row's cost. */
async function expectRowsReplay(inputs: readonly string[], rows: readonly Row[]): Promise<void> {
  for (const row of rows) {
    const replay = await cli('replay', ...inputs, ...row.flags.split(' ').filter(Boolean), '--format', 'json');
    expect(replay.code, replay.stderr).toBe(0);
    expect(JSON.parse(replay.stdout).summary.totalCostUsd, `${inputs.join(' ')} ${row.flags}`).toBe(row.costUsd);
  }
}

describe("sweep and calibrate: a scenario file's own settings are the base of every configuration", () => {
  const dir = tempDir();
  const support = supportScenario(dir, 'support.yaml');

  it('cache: on in the file gives, without --cache, the figures --cache on gives, and those replay gives', async () => {
    const grid = ['--grid', 'max-steps=8,30'];
    const without = await jsonReport('sweep', support, ...grid);
    const withFlag = await jsonReport('sweep', support, ...grid, '--cache', 'on');
    const off = await jsonReport('sweep', support, ...grid, '--cache', 'off');
    expect(figures(without.configurations)).toEqual(figures(withFlag.configurations));
    // The cache matters here: off costs more.
    expect(off.configurations[1]!.costUsd).toBeGreaterThan(without.configurations[1]!.costUsd * 1.5);
    expect(without.settings.cache).toBe('on');
    expect(without.configurations.map((row) => row.cache)).toEqual(['on', 'on']);
    await expectRowsReplay([support], without.configurations);
    // Split over two threads, the same figures.
    expect(figures((await jsonReport('sweep', support, ...grid, '--workers', '2')).configurations)).toEqual(figures(without.configurations));
    // No warning that the file's settings went unused: they are used.
    expect(without.warnings.map((w) => w.code)).not.toContain('scenario_settings_unused');
  });

  it("every brake and context setting the file gives is kept unless a flag or axis gives it: rows replay, and a preset given replaces the file's brakes", async () => {
    const windowed = supportScenario(dir, 'windowed.yaml', { context: '{ context: "window:3", tool-result-cap: 300, cache: on }' });
    for (const grid of [['--grid', 'max-repeat=2,4'], ['--grid', 'preset=none,reference'], ['--grid', 'context=full,window:5', '--max-steps', '20']]) {
      const report = await jsonReport('sweep', windowed, ...grid);
      await expectRowsReplay([windowed], report.configurations);
    }
    const repeat = await jsonReport('sweep', windowed, '--grid', 'max-repeat=2,4');
    expect(repeat.configurations[0]).toMatchObject({ brakes: 'max-steps=15,max-cost=0.1,budget-mode=check,timeout=120,max-repeat=2,repeat-mode=total,max-same-error=3,same-error-mode=consecutive', context: 'window:3', cache: 'on' });
    const preset = await jsonReport('sweep', windowed, '--grid', 'preset=none,reference');
    expect(preset.configurations.map((row) => row.brakes)).toEqual(['none', expect.stringMatching(/^max-steps=12,max-cost=0\.5,/)]);
  });

  it("calibrate: the file's brakes and cache given as flags change nothing (the same-error limit catches the retrier)", async () => {
    const grid = ['--grid', 'max-repeat=2,3'];
    const a = await jsonReport('calibrate', support, ...grid);
    const b = await jsonReport('calibrate', support, ...grid, '--max-steps', '15', '--max-cost', '0.10', '--max-same-error', '3', '--timeout', '120', '--cache', 'on');
    const unflagged = (rows: readonly Row[]) => rows.map(({ flags: _, ...rest }) => rest);
    expect(unflagged(a.configurations)).toEqual(unflagged(b.configurations));
    expect(a.settings.cache).toBe('on');
    expect(a.notes.join(' ')).toContain("judged under their scenario files' own brakes, context and cache");
  });

  it('files that differ: each under its own; the settings line says so and a line per file names each one\'s; a trace file beside them takes the flags alone', async () => {
    const windowed = supportScenario(dir, 'window3.yaml', { brakes: '{ max-same-error: 2, same-error-mode: total }', context: '{ context: "window:3", cache: off }' });
    const report = await jsonReport('sweep', support, windowed, 'scenarios/recorded-pair.jsonl', '--grid', 'max-steps=8,30');
    await expectRowsReplay([support, windowed, 'scenarios/recorded-pair.jsonl'], report.configurations);
    // The grid's axis is named in every run's brakes, the trace file's and each scenario file's own (sweepSettingsAxes.test.ts).
    expect(report.settings.brakes).toBe("max-steps=grid (8, 30) (synthetic: each scenario file's own, listed below)");
    // Wrapped lines joined (a line wraps after a comma inside the brakes, or at a ' · ').
    const text = (await cli('sweep', support, windowed, '--grid', 'max-steps=8,30')).stdout.replace(/,\n {2,}/g, ',').replace(/\n {2,}/g, ' ');
    const lines = text.split('\n');
    const at = lines.findIndex((line) => line.startsWith('settings: '));
    expect(lines[at]).toContain("brakes each scenario file's own, listed below");
    expect(lines[at + 1]).toBe(`synthetic: ${support} (60 runs, seed 3) · brakes max-steps=grid (8, 30),max-cost=0.1,budget-mode=check,timeout=120,max-repeat=3,repeat-mode=total,max-same-error=3,same-error-mode=consecutive · context full · cache on`);
    expect(lines[at + 2]).toBe(`synthetic: ${windowed} (60 runs, seed 3) · brakes max-steps=grid (8, 30),max-same-error=2,same-error-mode=total · context window:3 · cache off`);
  });
});

describe("sweep: the baseline's own total beside 'saved'", () => {
  const dir = tempDir();
  const stuck = join(dir, 'stuck.yaml');
  writeFileSync(
    stuck,
    ['scenario: loopcost.scenario/1', 'model: gpt-4o-mini', 'systemTokens: 10', 'runs: 20', 'hardCapSteps: 40', 'population:', '  - behaviour: retrier', '    weight: 1', '    error: "CRM timeout"', '    outputTokens: 10', '    toolResultTokens: 200', '  - behaviour: healthy', '    weight: 1', '    steps: 3', '    outputTokens: 10', '    toolResultTokens: 200'].join('\n') + '\n',
  );

  it('each row carries what its runs cost with no brakes, the same as replay with none; the note says it, with the hard cap', async () => {
    const report = await jsonReport('sweep', stuck, '--grid', 'max-steps=3,10');
    const none = await cli('replay', stuck, '--preset', 'none', '--cache', 'off', '--format', 'json');
    const noBrakes = JSON.parse(none.stdout).summary.totalCostUsd as number;
    expect(noBrakes).toBeGreaterThan(0);
    expect(report.configurations.map((row) => row.baselineCostUsd)).toEqual([noBrakes, noBrakes]);
    // The same when the runs are split over two threads (their tallies merged).
    expect((await jsonReport('sweep', stuck, '--grid', 'max-steps=3,10', '--workers', '2')).configurations.map((row) => row.baselineCostUsd)).toEqual([noBrakes, noBrakes]);
    // A CSV column too (CSV columns are the JSON names).
    const csv = (await cli('sweep', stuck, '--grid', 'max-steps=3,10', '--format', 'csv')).stdout.split('\n');
    const column = csv[0]!.split(',').indexOf('baselineCostUsd');
    expect(column).toBeGreaterThan(0);
    expect(Number(csv[1]!.split(',')[column])).toBe(noBrakes);
    const note = report.notes.find((n) => n.startsWith('Baseline of every figure:'))!;
    expect(note).toContain('up to the hard cap (40 steps)');
    expect(note).toMatch(/With no brakes these runs cost \$[\d.]+ in all: what "saved" is measured against\.$/);
  });

  it("each context's when the configurations run under different contexts (test/cli/sweepSavedBaseline.test.ts)", async () => {
    const report = await jsonReport('sweep', stuck, '--grid', 'context=full,window:2');
    const [full, window] = report.configurations.map((row) => row.baselineCostUsd);
    expect(full).not.toBe(window);
    expect(report.notes[0]).toMatch(/With no brakes these runs cost \$[\d.]+ under context=full and \$[\d.]+ under context=window:2, in all/);
  });
});
