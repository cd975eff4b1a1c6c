/** The sweep report as CSV: one line per configuration, its settings and price table on every line. */
import { frontierSettings } from './sweepShow.js';
import { STOP_REASONS } from '../brakes/stopReasons.js';
import { PRICE_SOURCE_COLUMNS, priceSourceColumns } from '../pricing/source.js';
import { csvPieces, joinPieces, type CsvSource } from './csv.js';
import { replayCommandLine } from './settings.js';
import { FIGURE_KEYS } from './strategyFigureNames.js';
import type { HalfStepCap, SweepReport, SweepRow } from './sweepReport.js';
import type { TasksDone } from '../population/sweep.js';

/** A row's tasks done, as columns (`tasksDone.done`, …) when some row has them (runs with ground truth: what the recommendation counts). */
const TASKS_DONE_KEYS: readonly (keyof TasksDone)[] = ['done', 'doneRate', 'costPerDoneUsd', 'groundTruthRuns', 'completedNotDone', 'doneNotCompleted'];

/** The strategy figures a row has where not 0 (JSON names; CSV columns and a table column only when some row has one): FIGURE_KEYS. */
export const STRATEGY_FIGURES = FIGURE_KEYS;

type CellOf = (row: SweepRow) => unknown;

/** CSV: one line per configuration, nested figures dotted (`costPerRunUsd.p95`, `stopReasons.max_steps`). */
export function renderSweepCsv(report: SweepReport): string {
  return joinPieces(sweepCsvPieces(report));
}

/** renderSweepCsv in pieces of about a MiB (csvPieces): each line written from its row, no object made per row. */
export function sweepCsvPieces(report: SweepReport): Iterable<string> {
  return csvPieces(sweepCsvSource(report));
}

function sweepCsvSource(report: SweepReport): CsvSource<SweepRow> {
  // Every stop reason, in the kernel's order: a header that never changes with the data.
  const reasons = STOP_REASONS;
  const strategyColumns = STRATEGY_FIGURES.filter((key) => report.configurations.some((row) => row[key] !== undefined));
  const pareto = frontierSettings(report);
  const halfStepCapKeys: readonly (keyof HalfStepCap)[] = ['maxSteps', 'completed', 'completionRate', 'costUsd'];
  const values: Record<string, CellOf> = {
    // The flags after the command that takes them: pasted whole after `loopcost`, never a cell starting with `-` (replayCommandLine).
    flags: (row) => replayCommandLine(row.flags),
    pareto: (row) => pareto.has(row.settings),
    recommended: (row) => report.recommendation?.settings === row.settings,
  };
  for (const key of ['mean', 'p50', 'p95', 'max'] as const) values[`costPerRunUsd.${key}`] = (row) => row.costPerRunUsd[key];
  for (const key of ['input', 'cached', 'output'] as const) values[`tokens.${key}`] = (row) => row.tokens[key];
  for (const reason of reasons) values[`stopReasons.${reason}`] = (row) => row.stopReasons[reason] ?? 0;
  for (const key of strategyColumns) values[key] = (row) => row[key] ?? 0;
  for (const key of halfStepCapKeys) values[`halfStepCap.${key}`] = (row) => row.halfStepCap?.[key];
  // Where runs carry ground truth, what the recommendation counts (recommend.ts countedRow): it can be redone from these columns.
  const tasksDone = report.configurations.some((row) => row.tasksDone !== undefined);
  for (const key of TASKS_DONE_KEYS) values[`tasksDone.${key}`] = (row) => row.tasksDone?.[key];
  const halfDone = tasksDone && report.targetCompletion !== undefined ? ['halfStepCap.done', 'halfStepCap.doneRate'] : [];
  for (const key of ['done', 'doneRate'] as const) values[`halfStepCap.${key}`] = (row) => row.halfStepCap?.[key];
  const columns = [
    'settings', 'flags', 'brakes', 'context', 'toolResultCap', 'cache', 'model', 'runs', 'completed', 'completionRate', 'costUsd',
    'costPerRunUsd.mean', 'costPerRunUsd.p50', 'costPerRunUsd.p95', 'costPerRunUsd.max', 'costPerCompletedUsd',
    'wastedUsd', 'wastedShare', 'falseStops', 'falseStopRate', 'caughtEarly', 'savedUsd',
    ...reasons.map((reason) => `stopReasons.${reason}`), 'tokens.input', 'tokens.cached', 'tokens.output', 'overshootUsd', 'baselineCostUsd', ...strategyColumns,
    ...(tasksDone ? TASKS_DONE_KEYS.map((key) => `tasksDone.${key}`) : []),
    ...(report.targetCompletion === undefined ? [] : halfStepCapKeys.map((key) => `halfStepCap.${key}`)), ...halfDone,
    'pareto', 'recommended',
  ];
  const shared = { latency: report.settings.latency, ...priceSourceColumns(report.prices) };
  return { rows: report.configurations, columns: [...columns, 'latency', ...PRICE_SOURCE_COLUMNS], shared, values };
}
