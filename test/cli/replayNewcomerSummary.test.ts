/**
 * replay's summary as a newcomer reads it: the false stops check and sweep report (counted by the one rule,
 * metrics/groundTruth.ts, against each run's no-brake run), the overshoot said as what it is, the undated runs'
 * price day in plain words, one file named by its path, and the settings line naming the context recordings
 * replay under when every one replays under the strategy it states (the warning then not said again).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, cliJson, tempDir } from './run.js';

const MIX = ['scenarios/production-mix.yaml', '--preset', 'reference'];
const MINI = '../shared/traces/mini-swe-agent';

interface Summary {
  falseStops?: number;
  falseStopRate?: number | null;
  completeWithoutBrakes?: number;
  falseStopsJudged?: { byGroundTruth: number; byRecordedEnd: number };
  totalOvershootUsd: number;
  maxOvershootUsd: number;
}

describe('replay counts false stops as check and sweep do', () => {
  it("synthetic runs by ground truth: check's population.falseStopRate, and a line in the summary", async () => {
    const replay = (await cliJson('replay', ...MIX)).summary as Summary;
    const check = await cliJson('check', ...MIX);
    const measured = JSON.stringify(check).match(/"expectation":"population\.falseStopRate","measured":([0-9.e-]+)/);
    expect(measured).not.toBeNull();
    expect(replay.falseStopRate).toBe(Number(measured![1]));
    expect(replay.falseStopsJudged).toEqual({ byGroundTruth: 200, byRecordedEnd: 0 });
    expect(replay.falseStops! / replay.completeWithoutBrakes!).toBe(replay.falseStopRate);
    const text = (await cli('replay', ...MIX)).stdout;
    expect(text).toMatch(new RegExp(`^false stops +${replay.falseStops} \\(20\\.5% of the ${replay.completeWithoutBrakes} runs that complete with no brakes; by ground truth\\)$`, 'm'));
  });

  it("recorded runs by their recordings' end: sweep's falseStops and falseStopRate for the same brakes", async () => {
    const replay = (await cliJson('replay', MINI, '--max-steps', '30', '--max-repeat', '2')).summary as Summary;
    const sweep = (await cliJson('sweep', MINI, '--grid', 'max-steps=30', '--max-repeat', '2')).configurations[0];
    expect([replay.falseStops, replay.falseStopRate]).toEqual([sweep.falseStops, sweep.falseStopRate]);
    expect(replay.falseStops).toBeGreaterThan(0);
    expect(replay.falseStopsJudged).toEqual({ byGroundTruth: 0, byRecordedEnd: 38 });
    expect((await cli('replay', MINI, '--max-steps', '30', '--max-repeat', '2')).stdout).toMatch(/^false stops +\d+ \(\d+(\.\d+)?% of the \d+ runs that complete with no brakes; by their recordings' end\)$/m);
  });

  it('repeat-action skip (the brakes act without stopping): as sweep counts them', async () => {
    const replay = (await cliJson('replay', ...MIX, '--repeat-action', 'skip')).summary as Summary;
    const sweep = (await cliJson('sweep', ...MIX, '--repeat-action', 'skip', '--grid', 'max-steps=12')).configurations[0];
    expect([replay.falseStops, replay.falseStopRate]).toEqual([sweep.falseStops, sweep.falseStopRate]);
  });

  it('no brake at all: no false-stop line, no figures', async () => {
    const summary = (await cliJson('replay', MINI, '--preset', 'none')).summary as Summary;
    expect(summary.falseStops).toBeUndefined();
    expect((await cli('replay', MINI, '--preset', 'none')).stdout).not.toMatch(/false stops/);
  });
});

describe('the overshoot line says what it is', () => {
  it('spend past the budget, total and the largest run; no line without a budget brake, the JSON fields kept', async () => {
    const trace = 'scenarios/reference-sum-of-squares.jsonl';
    expect((await cli('replay', trace, '--max-cost', '0.5')).stdout).toMatch(/^overshoot past the budget +total \$0, largest run \$0$/m);
    expect((await cli('replay', trace, '--max-steps', '2')).stdout).not.toMatch(/overshoot/);
    const summary = (await cliJson('replay', trace, '--max-steps', '2')).summary as Summary;
    expect([summary.totalOvershootUsd, summary.maxOvershootUsd]).toEqual([0, 0]);
  });
});

describe('the prices line on runs without a recording date', () => {
  it('says they have none, then the day they were priced at', async () => {
    const text = (await cli('replay', ...MIX)).stdout.replace(/\s+/g, ' ');
    expect(text).toContain("; 200 runs have no recording date: priced as of 2026-09-23, the table's release day");
    const one = (await cli('replay', 'scenarios/reference-sum-of-squares.jsonl')).stdout.replace(/\s+/g, ' ');
    expect(one).toContain("; 1 run has no recording date: priced as of 2026-09-23, the table's release day");
  });
});

describe('the line over the per-run rows', () => {
  it('one file: its path, not a pattern; several: the pattern', async () => {
    expect((await cli('replay', 'scenarios/reference-sum-of-squares.jsonl')).stdout).toMatch(/^1 run: scenarios\/reference-sum-of-squares\.jsonl\n/m);
    expect((await cli('replay', 'scenarios/reference-sum-of-squares.jsonl', 'scenarios/reverify-forever.jsonl')).stdout).toMatch(/^2 runs: scenarios\/<run>\.jsonl\n/m);
  });

  it('whatif and compare name the one file as replay does', async () => {
    const one = 'scenarios/long-exploration.jsonl', two = 'scenarios/backtracking-explorer.jsonl';
    expect((await cli('whatif', one, '--try', 'max-steps=5', '--per-run')).stdout).toMatch(/^1 run: scenarios\/long-exploration\.jsonl\n/m);
    expect((await cli('compare', one, '--per-run')).stdout).toMatch(/^1 run: scenarios\/long-exploration\.jsonl\n/m);
    expect((await cli('compare', one, two, '--per-run')).stdout).toMatch(/^2 runs: scenarios\/<run>\.jsonl\n/m);
  });
});

/** A live loop's recording in `dir`, stating `spec` as the strategy it ran under when given. */
function recording(dir: string, name: string, spec: string | undefined): string {
  const file = join(dir, name);
  const header = { type: 'header', schema: 'loopcost.trace/1', model: 'gpt-4o-mini', systemTokens: 4, goalTokens: 7, origin: 'recorded', live: true, ...(spec === undefined ? {} : { context: { spec } }) };
  const lines = [header, { type: 'call', inputTokens: 22, outputTokens: 5, toolCalls: [{ name: 't', arguments: { i: 1 }, resultTokens: 40 }] }, { type: 'call', inputTokens: 70, outputTokens: 5, final: true }, { type: 'end', outcome: 'completed' }];
  writeFileSync(file, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  return file;
}

describe('the settings line names the context recordings replay under', () => {
  it('every run under the strategy its recording states: `context as recorded (…)`, no warning saying it again', async () => {
    const dir = tempDir();
    const files = [recording(dir, 'a.jsonl', 'window:8'), recording(dir, 'b.jsonl', 'mask:1'), recording(dir, 'c.jsonl', 'window:8')];
    const table = await cli('replay', ...files, '--preset', 'recorded');
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toMatch(/^settings: brakes preset=recorded · context as recorded \(mask:1 ×1, window:8 ×2\) · /m);
    expect(table.stdout).not.toMatch(/not under the context the settings line names/);
    const json = await cliJson('replay', ...files);
    expect(json.settings.context).toBe('as recorded (mask:1 ×1, window:8 ×2)');
    expect((json.warnings as { code: string }[]).map((w) => w.code)).not.toContain('recorded_strategy');
  });

  it('some do and some do not: context full, and the warning says which do', async () => {
    const dir = tempDir();
    const json = await cliJson('replay', recording(dir, 'a.jsonl', 'window:8'), recording(dir, 'plain.jsonl', undefined));
    expect(json.settings.context).toBe('full');
    expect((json.warnings as { code: string }[]).map((w) => w.code)).toContain('recorded_strategy');
  });

  it('beside a scenario file: the recordings’ context, and the synthetic runs’ after it', async () => {
    const dir = tempDir();
    const json = await cliJson('replay', recording(dir, 'a.jsonl', 'window:8'), 'scenarios/springfield-weather.yaml', '--runs', '2');
    expect(json.settings.context).toBe('as recorded (window:8 ×1) (synthetic: full)');
  });
});
