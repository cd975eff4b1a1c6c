/**
 * The sweep chart draws each point on the labelled row nearest its value. asciichart, given the values,
 * rounds the least one and each value separately: in a panel of costs $0.1121, $0.1173, $0.1110, $0.1188 it
 * drew $0.1173 on the $0.1162 row though a $0.1175 row was there. The rows are worked out first now
 * (report/chartRows.ts), and asciichart draws row numbers.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { chartRows, plotOnRows } from '../../src/report/chartRows.js';
import { cli } from '../cli/run.js';
import { lcg } from '../helpers.js';
import { onNearest as nearest, readPlot } from './readPlot.js';

/** The support bot of a review (test/fixtures/ground-truth: its expectations and runsPerDay are not read here). */
const SUPPORT_FILE = fileURLToPath(new URL('../fixtures/ground-truth/support.yaml', import.meta.url));

describe('the sweep chart: every point on its nearest labelled row', () => {
  it('chartRows: height + 1 even labels from least to greatest, each value on its nearest', () => {
    const next = lcg(7);
    for (let trial = 0; trial < 200; trial += 1) {
      const values = Array.from({ length: 1 + next(8) }, () => next(100_000) / 7919);
      const { labels, rowOf } = chartRows(values, 6);
      expect(labels[0]).toBe(Math.min(...values));
      expect(labels.at(-1)).toBe(Math.max(...values));
      values.forEach((v, i) => expect(nearest(v, labels[rowOf[i]!]!, labels)).toBe(true));
    }
    expect(chartRows([0.25, 0.25], 6)).toEqual({ labels: [0.25], rowOf: [0, 0] });
  });

  it('plotOnRows draws each point on the row labelled with its nearest value', () => {
    const values = [0.112119562937, 0.117344768293, 0.111019306084, 0.118805660377];
    const { labels, lineOf } = readPlot(plotOnRows(values, { height: 6, format: (v) => v.toFixed(4).padStart(8) }));
    expect(lineOf[0]!.map((line) => labels[line])).toEqual(['0.1123', '0.1175', '0.1110', '0.1188']);
    // Values all equal: one row, labelled with the value (not the value rounded to a whole number).
    expect(readPlot(plotOnRows([0.25, 0.25], { height: 6, format: (v) => v.toFixed(4).padStart(8) })).labels).toEqual(['0.2500']);
  });

  it('loopcost sweep --format chart: in every panel each point is on its nearest labelled row', async () => {
    const file = SUPPORT_FILE;
    const flags = ['--grid', 'max-steps=5,8,12,20', '--grid', 'max-repeat=2,3'];
    const chart = (await cli('sweep', file, ...flags, '--format', 'chart')).stdout;
    // Runs with ground truth: the chart plots tasks done and the cost per task done (as the table and the pick count them).
    const rows = JSON.parse((await cli('sweep', file, ...flags, '--format', 'json')).stdout).configurations as { settings: string; tasksDone: { doneRate: number; costPerDoneUsd: number | null } }[];
    const plots = chart.split(/\n(?=tasks done \(%\) against|cost per task done \(USD)/).slice(1);
    expect(plots).toHaveLength(4);
    let checked = 0;
    for (const [p, text] of plots.entries()) {
      const repeat = p < 2 ? 2 : 3;
      const cost = text.startsWith('cost');
      const body = text.split('\n').slice(1, 8).join('\n');
      const { labels, lineOf } = readPlot(body);
      const labelValues = labels.map((l) => Number(l.replace('$', '')));
      const per = lineOf[0]!.length / 4;
      ['5', '8', '12', '20'].forEach((steps, i) => {
        const row = rows.find((r) => r.settings === `max-steps=${steps},max-repeat=${repeat}`)!;
        const value = cost ? row.tasksDone.costPerDoneUsd! : row.tasksDone.doneRate * 100;
        // Labels are shown rounded (4 decimals, or 1): nearest within half the last digit shown.
        const slack = cost ? 0.00005 : 0.05;
        const drawn = labelValues[lineOf[0]![i * per]!]!;
        expect(Math.abs(drawn - value)).toBeLessThanOrEqual(Math.min(...labelValues.map((l) => Math.abs(l - value))) + 2 * slack);
        checked += 1;
      });
    }
    expect(checked).toBe(16);
  });
});
