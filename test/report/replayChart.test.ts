/**
 * replay's chart report: one chart of each input's runs together (median and p95 by call, nearest rank,
 * with how many runs make each call), each run's own chart only for an input of few runs (all with
 * --per-run), so `npm start`'s replay-chart.txt is a few hundred lines, not one chart per run.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { populationFigures } from '../../src/report/chartPopulation.js';
import { formatUsd } from '../../src/report/money.js';
import { chartBody, FEW_RUNS } from '../../src/report/replayChart.js';
import { widestLine } from '../../src/report/table.js';
import type { RunResult } from '../../src/replay/replay.js';
import { cli, tempDir } from '../cli/run.js';

/** A run of `source` with these calls' input tokens and cumulative costs (pico). */
function run(source: string, inputTokens: number[], cumulativeCostPico: number[]): RunResult {
  const rows = inputTokens.map((tokens, i) => ({ call: i + 1, step: i + 1, inputTokens: tokens, cachedInputTokens: 0, cumulativeCostPico: cumulativeCostPico[i]! }));
  return { source, model: 'gpt-4o-mini', stopReason: rows.length === 3 ? 'completed' : 'max_steps', rows } as unknown as RunResult;
}

/** Three runs of 3, 2 and 1 calls (costs in millionths of a dollar). */
const M = 1_000_000;
const THREE = [
  run('pop.yaml#1', [100, 200, 300], [10 * M, 30 * M, 60 * M]),
  run('pop.yaml#2', [150, 250], [20 * M, 45 * M]),
  run('pop.yaml#3', [120], [12 * M]),
];

describe('a population chart’s figures', () => {
  it('median and p95 by call, nearest rank, against a hand-computed population of 3 runs', () => {
    const figures = populationFigures(THREE);
    // runs making call 1, 2, 3
    expect(figures.reaching).toEqual([3, 2, 1]);
    // call 1: 100, 120, 150 → median (rank ⌈1.5⌉ = 2) 120, p95 (rank ⌈2.85⌉ = 3) 150; call 2: 200, 250 → 200, 250; call 3: 300
    expect(figures.inputTokens).toEqual({ p50: [120, 200, 300], p95: [150, 250, 300] });
    // every run by call k, a stopped one at its total: call 1 {10, 20, 12}; call 2 {30, 45, 12}; call 3 {60, 45, 12}
    expect(figures.cumulativeCostPico).toEqual({ p50: [12 * M, 30 * M, 45 * M], p95: [20 * M, 45 * M, 60 * M] });
  });

  it('the chart says how many runs make each call, under it, and the runs’ cost per run in the report’s money format', () => {
    const text = chartBody(THREE);
    expect(text).toMatch(/^pop\.yaml — 3 runs \(gpt-4o-mini\), cost per run median \$0\.0000450, p95 \$0\.0000600; stop: completed 1, max_steps 2$/m);
    expect(formatUsd(45 * M)).toBe('$0.0000450');
    const calls = text.split('\n').find((line) => line.trimStart().startsWith('call '))!;
    const runs = text.split('\n')[text.split('\n').indexOf(calls) + 1]!;
    expect(calls.trim().split(/ +/)).toEqual(['call', '1', '2', '3']);
    expect(runs.trim().split(/ +/)).toEqual(['runs', '3', '2', '1']);
    // each count under its call's number
    const at = (line: string) => [...line.matchAll(/\d+/g)].map((match) => match.index);
    expect(at(runs)).toEqual(at(calls));
  });
});

describe('which runs get their own chart', () => {
  const names = (text: string) => [...text.matchAll(/^(\S+) — /gm)].map((match) => match[1]);

  it(`an input of at most ${FEW_RUNS} runs: its population chart, then each run's; of one run: that run's alone`, () => {
    const text = chartBody([...THREE, run('one.jsonl', [500, 600], [M, 3 * M])]);
    expect(names(text)).toEqual(['pop.yaml', 'pop.yaml#1', 'pop.yaml#2', 'pop.yaml#3', 'one.jsonl']);
    expect(text).not.toMatch(/not shown/);
  });

  it(`an input of more: its population chart only, the runs left out said with how to see them (--per-run)`, () => {
    const four = [...THREE, run('pop.yaml#4', [90, 95], [5 * M, 9 * M])];
    const text = chartBody([...four, run('one.jsonl', [500], [M])]);
    expect(names(text)).toEqual(['pop.yaml', 'one.jsonl']);
    expect(text).toContain('(4 per-run charts of inputs with more than 3 runs not shown: add --per-run)');
    expect(text).toMatch(/^5 runs from 2 inputs/);
    const every = chartBody(four, { width: 120, wide: false, perRun: true });
    expect(names(every)).toEqual(['pop.yaml', 'pop.yaml#1', 'pop.yaml#2', 'pop.yaml#3', 'pop.yaml#4']);
    expect(every).not.toMatch(/not shown/);
  });
});

describe('a run of one call', () => {
  it('its flat cost line is labelled with its cost, not rounded to $0', () => {
    const text = chartBody([run('one.jsonl', [500], [102 * M])]);
    expect(text).toMatch(/^ +\$0\.000102 ┼─+ $/m);
    expect(text).not.toMatch(/^ +\$0 ┼/m);
  });
});

describe('replay scenarios --format chart', () => {
  const args = ['replay', 'scenarios', '--preset', 'reference'];

  it('a few hundred lines, not one chart per run (9,706 lines for 377 runs before), each within 120 columns', async () => {
    const r = await cli(...args, '--format', 'chart');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.split('\n').length).toBeLessThan(450);
    expect(widestLine(r.stdout)).toBeLessThanOrEqual(120);
    expect(r.stdout).toMatch(/^scenarios\/production-mix\.yaml — 200 runs \(gpt-4o-mini\), cost per run median \$\S+, p95 \$\S+; stop: /m);
    expect(r.stdout).toMatch(/^ +runs 200 /m);
  }, 60_000);

  it('--report-dir writes the same chart as --format chart on stdout; --per-run gives every run’s chart, said without a warning', async () => {
    const dir = tempDir();
    expect((await cli(...args, '--report-dir', dir)).code).toBe(0);
    const stdout = (await cli(...args, '--format', 'chart')).stdout;
    expect(readFileSync(join(dir, 'replay-chart.txt'), 'utf8')).toBe(stdout);
    const every = await cli(...args, '--format', 'chart', '--per-run');
    expect(every.stderr).not.toMatch(/--per-run/);
    expect(every.stdout.match(/^scenarios\/production-mix\.yaml#\d+ — /gm)).toHaveLength(200);
  }, 60_000);

  it("replay's help says what --per-run does to the chart, with FEW_RUNS", async () => {
    const help = (await cli('replay', '--help')).stdout.replace(/\s+/g, ' ');
    expect(help).toContain(`chart: every run's own chart after its input's chart (default: rows only when there are at most 20; a run's own chart only for an input of at most ${FEW_RUNS} runs)`);
  });
});
