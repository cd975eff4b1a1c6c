/**
 * replay's and curve's charts draw each point on the labelled row nearest its value, as the sweep chart
 * does (sweepChartRows.test.ts). They gave asciichart the values, which rounds the least value and each
 * value on its own: in a population chart of cumulative cost, p95 $0.0582 $0.0728 $0.0776 $0.0909 over
 * median $0.0154 $0.0207 $0.0254 $0.0298, it drew the median's $0.0207 on the $0.0154 row though a
 * $0.0248 row was there, and p95's $0.0582 and $0.0776 a row low too. Several series now
 * share one set of rows worked out first (report/chartRows.ts sharedChartRows).
 */
import asciichart from 'asciichart';
import { describe, expect, it } from 'vitest';
import { plotOnRows, sharedChartRows } from '../../src/report/chartRows.js';
import { chartBody } from '../../src/report/replayChart.js';
import type { RunResult } from '../../src/replay/replay.js';
import { cli } from '../cli/run.js';
import { onNearest, readPlot } from './readPlot.js';

const P95 = [0.0582, 0.0728, 0.0776, 0.0909];
const MEDIAN = [0.0154, 0.0207, 0.0254, 0.0298];
const six = (v: number) => v.toFixed(6).padStart(10);

/** Whether every element of every series is drawn on (one of) the labels nearest it, labels read as numbers within `slack`. */
function allOnNearest(plot: string, series: readonly (readonly number[])[], options: { per: number; slack: number }): boolean {
  const { labels, lineOf } = readPlot(plot);
  const values = labels.map((label) => Number(label.replace(/[$,]/g, '')));
  return series.every((s, k) => s.every((v, i) => onNearest(v, values[lineOf[k]![i * options.per]!]!, values, 2 * options.slack)));
}

describe('several series on one set of rows, each point on its nearest', () => {
  it('sharedChartRows: labels from the least value of any series to the greatest, each value on its nearest', () => {
    const { labels, rowOf } = sharedChartRows([P95, MEDIAN], { height: 8 });
    expect(labels).toHaveLength(9);
    expect(labels[0]).toBe(0.0154);
    expect(labels[8]).toBe(0.0909);
    [P95, MEDIAN].forEach((s, k) => s.forEach((v, i) => expect(onNearest(v, labels[rowOf[k]![i]!]!, labels)).toBe(true)));
    // `span`: the rows reach 0 too (replay's flat line of one call).
    expect(sharedChartRows([[5, 5]], { height: 4, span: [0] })).toEqual({ labels: [0, 1.25, 2.5, 3.75, 5], rowOf: [[4, 4]] });
  });

  it('raw asciichart draws three of these points a row off; plotOnRows draws every one on its nearest row', () => {
    const raw = asciichart.plot([P95, MEDIAN], { height: 8, format: six });
    expect(allOnNearest(raw, [P95, MEDIAN], { per: 1, slack: 0 })).toBe(false);
    const { labels, lineOf } = readPlot(plotOnRows([P95, MEDIAN], { height: 8, format: six }));
    expect(lineOf.map((lines) => lines.map((line) => labels[line]))).toEqual([
      ['0.062588', '0.072025', '0.081462', '0.090900'],
      ['0.015400', '0.024837', '0.024837', '0.034275'],
    ]);
  });

  it("replay's population chart: p95 and median cumulative cost each on their nearest row, in the report's money format", () => {
    // Two runs: nearest rank gives the cheaper one as median, the dearer as p95.
    const pico = (usd: number[]) => usd.map((v) => Math.round(v * 1e12));
    const run = (source: string, usd: number[]) => {
      const rows = pico(usd).map((cost, i) => ({ call: i + 1, step: i + 1, inputTokens: 1000 * (i + 1), cachedInputTokens: 0, cumulativeCostPico: cost }));
      return { source, model: 'gpt-4o-mini', stopReason: 'completed', rows } as unknown as RunResult;
    };
    const text = chartBody([run('pop.yaml#1', MEDIAN), run('pop.yaml#2', P95)]);
    const lines = text.split('\n');
    const at = lines.findIndex((line) => line.startsWith('cumulative cost (USD) by call'));
    const plot = lines.slice(at + 1, at + 10).join('\n');
    expect(plot).toMatch(/^ +\$0\.0909 ┤/);
    // Each call stretched over 8 columns; labels shown to 3 significant digits.
    expect(allOnNearest(plot, [P95, MEDIAN], { per: 8, slack: 0.00005 })).toBe(true);
  });
});

describe('curve --format chart', () => {
  const args = ['curve', '--model', 'gpt-4o', '--system-tokens', '500', '--output-tokens', '150', '--tool-tokens', '2050', '--steps', '300'];

  it('each step sampled is on the cost chart row nearest its cumulative cost', async () => {
    const chart = (await cli(...args, '--format', 'chart')).stdout.split('\n');
    const rows = JSON.parse((await cli(...args, '--format', 'json')).stdout).rows as { cumulativeCostUsd: number }[];
    // 300 steps in 106 points: every 3rd step (as the chart's heading says).
    expect(chart[0]).toContain('(300 steps, one step in 3)');
    const sampled = rows.filter((_, i) => i % 3 === 2).map((row) => row.cumulativeCostUsd);
    const at = chart.indexOf('cumulative cost (USD)');
    expect(allOnNearest(chart.slice(at + 1, at + 12).join('\n'), [sampled], { per: 1, slack: 0.00005 })).toBe(true);
  });

  it('each step is on the input tokens row nearest its prompt', async () => {
    const small = ['curve', '--model', 'gpt-4o', '--system-tokens', '500', '--output-tokens', '150', '--tool-tokens', '1000', '--steps', '12'];
    const chart = (await cli(...small, '--format', 'chart')).stdout.split('\n');
    const rows = JSON.parse((await cli(...small, '--format', 'json')).stdout).rows as { inputTokens: number }[];
    expect(chart[0]).toBe('input tokens per step (12 steps)');
    expect(allOnNearest(chart.slice(1, 14).join('\n'), [rows.map((row) => row.inputTokens)], { per: 1, slack: 0.5 })).toBe(true);
  });

  it('a curve of one step: its flat lines labelled with their values, not the cost rounded to a whole $0', async () => {
    const chart = (await cli(...args.slice(0, -1), '1', '--format', 'chart')).stdout;
    expect(chart).toMatch(/^ +500 ┼ $/m);
    expect(chart).toMatch(/^ +\$0\.00275 ┼ $/m);
  });
});
