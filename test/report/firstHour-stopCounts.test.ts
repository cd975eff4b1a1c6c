/**
 * Stop counts in the sweep, merge and what-if summaries are never cut: with 2, 5 or 10 distinct stop
 * reasons, at 120 columns (the default) and narrower, every count is shown whole on its row's line, and
 * the table stays within the width wherever its figures can.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { STOP_REASONS } from '../../src/brakes/stopReasons.js';
import { renderSweepTable, type SweepReport } from '../../src/report/sweepReport.js';
import { layOutStops, otherStopsText } from '../../src/report/stopColumns.js';
import { widestLine } from '../../src/report/table.js';
import { renderWhatIfTable, type WhatIfReport } from '../../src/report/whatifReport.js';
import { cli, tempDir } from '../cli/run.js';
import { pricesRecord } from '../../src/report/pricedModels.js';

const MINI = '../shared/traces/mini-swe-agent';
const OTHER_REASONS = STOP_REASONS.filter((reason) => reason !== 'completed');
const view = (width: number, wide = false) => ({ width, wide });

/** `n` as a token of its own: not part of a longer number, not next to a cut (`…`). */
const whole = (n: number) => new RegExp(`(?<![\\d.…]|\\d,)${n}(?![\\d.…]|,\\d)`);

/** Every count appears whole on a line of its row (a line starting with the row's label). */
function expectCountsWhole(text: string, rows: { label: RegExp; counts: Record<string, number> }[]): void {
  const lines = text.split('\n');
  for (const { label, counts } of rows) {
    const own = lines.filter((line) => label.test(line));
    expect(own.length, `a line for ${label}`).toBeGreaterThan(0);
    for (const [reason, n] of Object.entries(counts)) {
      if (reason === 'completed') continue;
      expect(own.some((line) => whole(n).test(line)), `${reason} ${n} on a line of ${label}:\n${text}`).toBe(true);
    }
  }
  expect(text).not.toMatch(/\d…|…\d/);
}

/** Counts unique across the report (so finding one proves it is that one), `reasons` of them per row. */
function countsFor(row: number, reasons: number): Record<string, number> {
  return Object.fromEntries([['completed', 3], ...OTHER_REASONS.slice(0, reasons).map((reason, r) => [reason, 1000 + row * 37 + r])]);
}

describe('layOutStops', () => {
  const counts = [{ completed: 3, max_steps: 27, trace_end: 8 }, { repeat: 21, trace_end: 8 }];

  it('one whole `other stops` column when it fits', () => {
    const layout = layOutStops(counts, 60);
    expect(layout.fits).toBe(true);
    expect(layout.columns.map((c) => c.header)).toEqual(['other stops']);
    expect(layout.columns[0]!.shrink).toBeFalsy();
    expect(layout.cells(counts[0]!)).toEqual(['max_steps 27, trace_end 8']);
    expect(otherStopsText({ completed: 5 })).toBe('-');
  });

  it('else a column per reason, headers cut to a prefix named in the note, counts whole', () => {
    const layout = layOutStops(counts, 21);
    expect(layout.fits).toBe(true);
    expect(layout.width).toBeLessThanOrEqual(21);
    expect(layout.columns.map((c) => c.header)).toEqual(['max_…', 'repe…', 'trac…']);
    expect(layout.columns.every((c) => c.align === 'right' && !c.shrink)).toBe(true);
    expect(layout.cells(counts[1]!)).toEqual([0, 21, 8]);
    expect(layout.note).toBe('max_… = max_steps, repe… = repeat, trac… = trace_end: runs that ended with that stop (the rest completed).');
  });

  it('when nothing fits: the narrowest layout, said not to fit, headers still distinct', () => {
    const all = [Object.fromEntries(OTHER_REASONS.map((reason) => [reason, 123456]))];
    const layout = layOutStops(all, 20);
    expect(layout.fits).toBe(false);
    expect(new Set(layout.columns.map((c) => c.header)).size).toBe(OTHER_REASONS.length);
    expect(layout.width).toBe(OTHER_REASONS.length * (2 + 6));
  });
});

describe('sweep and merge tables: every stop count whole', () => {
  let report: SweepReport;
  beforeAll(async () => {
    const r = await cli('sweep', MINI, '--grid', 'max-steps=10,20,30,40,50,60', '--format', 'json');
    expect(r.code).toBe(0);
    report = JSON.parse(r.stdout) as SweepReport;
  });

  /** The report with `reasons` distinct stop reasons in every row. */
  const withReasons = (reasons: number): SweepReport => ({ ...report, configurations: report.configurations.map((row, i) => ({ ...row, stopReasons: countsFor(i, reasons) })) });
  const rowsOf = (r: SweepReport) => r.configurations.map((row) => ({ label: new RegExp(`^[*→]*${row.settings.split('=')[1]}\\s`), counts: row.stopReasons as Record<string, number> }));

  for (const reasons of [2, 5, 10]) {
    it(`${reasons} stop reasons: whole at 120 columns (within them) and at 80`, () => {
      const r = withReasons(reasons);
      const text = renderSweepTable(r, view(120));
      expect(widestLine(text)).toBeLessThanOrEqual(120);
      expectCountsWhole(text, rowsOf(r));
      // 80 columns: narrower than the figures alone; the counts are still whole.
      expectCountsWhole(renderSweepTable(r, view(80)), rowsOf(r));
    });
  }

  it('10 reasons: the counts get a table of their own, reasons named in full', () => {
    const text = renderSweepTable(withReasons(10), view(120));
    expect(text).toMatch(/^stops other than completion, per configuration:$/m);
    expect(text).toMatch(/context_ove… = context_overflow/);
  });

  it('--wide: nothing cut, the whole `other stops` column', () => {
    const text = renderSweepTable(withReasons(10), view(120, true));
    expect(text.split('\n')[0]).toMatch(/other stops$/);
    expect(text).toContain(`max_steps ${countsFor(0, 10).max_steps}, budget`);
  });

  it('the reported case: max-steps × max-repeat on mini-swe-agent, in a sweep and merged from shards', async () => {
    const grid = ['--grid', 'max-steps=50,100,200', '--grid', 'max-repeat=2,3'];
    const json = JSON.parse((await cli('sweep', MINI, ...grid, '--format', 'json')).stdout) as SweepReport;
    const text = (await cli('sweep', MINI, ...grid)).stdout;
    expect(widestLine(text)).toBeLessThanOrEqual(120);
    const lines = text.split('\n');
    json.configurations.forEach((row, i) => {
      // Row i of the table ends with its counts of max_steps, repeat and trace_end, in that order.
      const expected = ['max_steps', 'repeat', 'trace_end'].map((reason) => String(row.stopReasons[reason as 'repeat'] ?? 0));
      expect(lines[2 + i]!.trim().split(/\s+/).slice(-3)).toEqual(expected);
    });
    const dir = tempDir();
    for (const k of [1, 2]) expect((await cli('sweep', MINI, ...grid, '--shard', `${k}/2`, '--out', `${dir}/s${k}.json`)).code).toBe(0);
    expect((await cli('merge', `${dir}/s1.json`, `${dir}/s2.json`)).stdout).toBe(text);
  });
});

describe('what-if summary: every stop count whole, the setting column no wider than it needs', () => {
  const report = (reasons: number, settings: string[]): WhatIfReport => ({
    tool: { name: 'loopcost', version: '0' },
    settings: { brakes: 'recorded', context: 'full', cache: 'as recorded (synthetic: off)', latency: 'as recorded' },
    prices: pricesRecord({ name: 'test', version: 'file', hash: '0' }, { models: [] }),
    baseline: { runs: 20000, completed: 3, costUsd: 1, stopReasons: countsFor(0, reasons) },
    totals: settings.map((setting, i) => ({ setting, onBaseline: true, runs: 20000, completed: 3, baselineCompletionsStopped: 1, falseStops: 1, caughtRuns: 2, costUsd: 0.5, savedUsd: 0.5, stopReasons: countsFor(i + 1, reasons) })),
    runs: [],
    warnings: [],
  });
  const rowsOf = (r: WhatIfReport) => [
    { label: /^baseline/, counts: r.baseline.stopReasons as Record<string, number> },
    ...r.totals.map((t, i) => ({ label: new RegExp(`^(${t.setting.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}|#${i + 1})\\s`), counts: t.stopReasons as Record<string, number> })),
  ];

  for (const reasons of [2, 5, 10]) {
    it(`${reasons} stop reasons, short and long settings: whole and within 120 columns`, () => {
      for (const settings of [['max-steps=20', 'max-repeat=2'], ['max-steps=50,max-cost=0.5,max-same-error=3,same-error-mode=total,max-repeat=3', 'max-tokens=100000']]) {
        const r = report(reasons, settings);
        const text = renderWhatIfTable(r, view(120));
        expect(widestLine(text)).toBeLessThanOrEqual(120);
        expectCountsWhole(text, rowsOf(r));
      }
    });
  }

  it('production-mix: the baseline is named short (its meaning in the note), the counts whole', async () => {
    const text = (await cli('whatif', 'scenarios/production-mix.yaml', '--try', 'max-steps=20', '--try', 'max-repeat=2')).stdout;
    const [header, rule, baseline] = text.split('\n');
    expect(rule!.split('  ')[0]!.length).toBeLessThanOrEqual(16);
    // Synthetic runs carry ground truth: tasks done, as sweep counts them (115 ended `completed`; 5 more did their task and ended trace_end).
    expect(header).toMatch(/^setting\s+tasks done/);
    // Its stop counts hold `completed` too (every run by its stop reason: 115 + 42 + 13 + 30 = 200), under headers the note names.
    expect(baseline).toMatch(/^baseline\s+120\/200 .*\s115\s+42\s+13\s+30$/);
    expect(text).toMatch(/^max-steps=20 .*\s136\s+11\s+15\s+38$/m);
    expect(text).toContain('complet… = completed, max_steps, repeat, trace_end: runs that ended with that stop reason');
    expect(text).toMatch(/baseline: each synthetic run under its scenario file's brakes;/);
    // A --try is set on top of the file's brakes (a what-if of one change): said, with how to try a whole set instead.
    expect(text.replace(/\s+/g, ' ')).toMatch(/each setting changes only the brakes it names, on top of those \(a setting that names a preset is a whole set of brakes in their place: preset=none,max-steps=50 is a step cap alone\)/);
    expect(text).not.toMatch(/\d…|…\d/);
  });
});
