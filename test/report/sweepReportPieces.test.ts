/**
 * A sweep report written in pieces (sweepReportPieces, sweepCsvPieces) is the same text renderSweep gives
 * whole, and the CSV is written from each row's own fields (no object made per row: at 122,880
 * configurations those objects were ~400 MB of a sweep's peak). The rows are those a real sweep reports
 * (stop reasons, strategy figures, a recommendation and its halved step cap).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { STOP_REASONS } from '../../src/brakes/stopReasons.js';
import { PRICE_SOURCE_COLUMNS, priceSourceColumns } from '../../src/pricing/source.js';
import { formatCsv } from '../../src/report/csv.js';
import { replayCommandLine } from '../../src/report/settings.js';
import { sweepCsvPieces, STRATEGY_FIGURES } from '../../src/report/sweepCsv.js';
import { renderSweep, renderSweepCsv, sweepReportPieces, type SweepReport, type SweepRow } from '../../src/report/sweepReport.js';
import { ROWS_PER_PIECE } from '../../src/report/table.js';
import { cli } from '../cli/run.js';

const SWEEP = ['sweep', 'test/fixtures/mini-swe-agent', 'scenarios/production-mix.yaml', '--runs', '30', '--max-repeat', '2', '--grid', 'max-steps=20,60', '--grid', 'context=full,summary:trigger=20000,keep=3,tokens=600', '--grid', 'repeat-action=stop,skip', '--target-completion', '0.5', '--workers', '1', '--format', 'json'];

/** The sweep CSV as it was written before rows were read in place: each row flattened into an object first (the reference). */
function flattenedCsv(report: SweepReport): string {
  const reasons = STOP_REASONS.filter((reason) => report.configurations.some((row) => row.stopReasons[reason] !== undefined));
  const pareto = new Set(report.pareto ?? []);
  const rows = report.configurations.map((row) => {
    const flat: Record<string, unknown> = { ...row, flags: replayCommandLine(row.flags) };
    for (const [key, value] of Object.entries(row.costPerRunUsd)) flat[`costPerRunUsd.${key}`] = value;
    for (const [key, value] of Object.entries(row.tokens)) flat[`tokens.${key}`] = value;
    for (const reason of reasons) flat[`stopReasons.${reason}`] = row.stopReasons[reason] ?? 0;
    if (row.halfStepCap) for (const [key, value] of Object.entries(row.halfStepCap)) flat[`halfStepCap.${key}`] = value;
    if (row.tasksDone) for (const [key, value] of Object.entries(row.tasksDone)) flat[`tasksDone.${key}`] = value;
    flat.pareto = pareto.has(row.settings);
    flat.recommended = report.recommendation?.settings === row.settings;
    return flat;
  });
  const strategyColumns = STRATEGY_FIGURES.filter((key) => report.configurations.some((row) => row[key] !== undefined));
  for (const flat of rows) for (const key of strategyColumns) flat[key] ??= 0;
  // Where runs carry ground truth, their tasks done (what the recommendation counts).
  const tasksDone = report.configurations.some((row) => row.tasksDone !== undefined);
  const columns = [
    'settings', 'flags', 'brakes', 'context', 'toolResultCap', 'cache', 'model', 'runs', 'completed', 'completionRate', 'costUsd',
    'costPerRunUsd.mean', 'costPerRunUsd.p50', 'costPerRunUsd.p95', 'costPerRunUsd.max', 'costPerCompletedUsd',
    'wastedUsd', 'wastedShare', 'falseStops', 'falseStopRate', 'caughtEarly', 'savedUsd',
    ...reasons.map((reason) => `stopReasons.${reason}`), 'tokens.input', 'tokens.cached', 'tokens.output', 'overshootUsd', 'baselineCostUsd', ...strategyColumns,
    ...(tasksDone ? ['tasksDone.done', 'tasksDone.doneRate', 'tasksDone.costPerDoneUsd', 'tasksDone.groundTruthRuns', 'tasksDone.completedNotDone', 'tasksDone.doneNotCompleted'] : []),
    ...(report.targetCompletion === undefined ? [] : ['halfStepCap.maxSteps', 'halfStepCap.completed', 'halfStepCap.completionRate', 'halfStepCap.costUsd']),
    ...(tasksDone && report.targetCompletion !== undefined ? ['halfStepCap.done', 'halfStepCap.doneRate'] : []),
    'pareto', 'recommended',
  ];
  const shared = { latency: report.settings.latency, ...priceSourceColumns(report.prices) };
  return formatCsv(rows, [...columns, 'latency', ...PRICE_SOURCE_COLUMNS], shared);
}

/** The report with its configurations repeated to `count` rows (a report large enough to come in several pieces). */
function repeated(report: SweepReport, count: number): SweepReport {
  return { ...report, configurations: Array.from({ length: count }, (_, i) => report.configurations[i % report.configurations.length]!) };
}

const VIEW = { width: 120, wide: false };
let report: SweepReport;

beforeAll(async () => {
  const run = await cli(...SWEEP);
  expect(run.code, run.stderr).toBe(0);
  report = JSON.parse(run.stdout) as SweepReport;
});

describe('a sweep report in pieces', () => {
  it('has what the CSV columns cover: stop reasons, strategy figures, a recommendation with a halved step cap', () => {
    expect(report.configurations).toHaveLength(8);
    expect(report.configurations.some((row) => row.summaryCalls !== undefined)).toBe(true);
    expect(report.configurations.some((row) => row.skippedActions !== undefined)).toBe(true);
    expect(report.configurations.some((row) => row.halfStepCap !== undefined)).toBe(true);
    expect(report.recommendation).toBeTruthy();
  });

  it('CSV is byte for byte the CSV of each row flattened into an object', () => {
    expect(renderSweepCsv(report)).toBe(flattenedCsv(report));
    const large = repeated(report, 5000);
    expect(renderSweepCsv(large)).toBe(flattenedCsv(large));
  });

  it('CSV reads each row only for the fields it writes: no copy of a row is made', () => {
    const enumerated: string[] = [];
    const watched = report.configurations.map((row: SweepRow) =>
      new Proxy(row, {
        ownKeys(target) {
          enumerated.push(target.settings);
          return Reflect.ownKeys(target);
        },
      }),
    );
    const text = renderSweepCsv({ ...report, configurations: watched });
    expect(enumerated).toEqual([]);
    expect(text).toBe(flattenedCsv(report));
  });

  it('joined, the pieces are renderSweep for every format; a large JSON or CSV comes a row or a MiB at a time', () => {
    const large = repeated(report, 5000);
    for (const format of ['json', 'csv', 'table', 'chart']) expect([...sweepReportPieces(large, format, VIEW)].join('')).toBe(renderSweep(large, format, VIEW));
    const csv = [...sweepCsvPieces(large)];
    expect(csv.length).toBeGreaterThan(1);
    for (const piece of csv) expect(piece.length).toBeLessThan((1 << 20) + 10_000);
    for (const piece of csv) expect(piece.endsWith('\n')).toBe(true);
    expect([...sweepReportPieces(large, 'json', VIEW)].length).toBeGreaterThan(5000);
  });

  it('a large table comes a few thousand rows at a time, in both layouts (stop counts beside the figures, or in a table of their own)', () => {
    const large = repeated(report, 5000);
    for (const view of [VIEW, { width: 60, wide: false }]) {
      const pieces = [...sweepReportPieces(large, 'table', view)];
      expect(pieces.join('')).toBe(renderSweep(large, 'table', view));
      expect(pieces.length).toBeGreaterThan(3);
      for (const piece of pieces) expect(piece.split('\n').length).toBeLessThan(ROWS_PER_PIECE + 10);
    }
    expect(renderSweep(large, 'table', { width: 60, wide: false })).toMatch(/stops other than completion and strategy figures, per configuration:/);
  });
});
