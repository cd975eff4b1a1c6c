/** The sweep report as CSV: one line per configuration, its settings and price table on every line. */
import { STOP_REASONS } from '../brakes/stopReasons.js';
import { PRICE_SOURCE_COLUMNS, priceSourceColumns } from '../pricing/source.js';
import { formatCsv } from './csv.js';
import { replayCommandLine } from './settings.js';
import { FIGURE_KEYS } from './strategyFigureNames.js';
import type { SweepReport } from './sweepReport.js';

/** The strategy figures a row has where not 0 (JSON names; CSV columns and a table column only when some row has one): FIGURE_KEYS. */
export const STRATEGY_FIGURES = FIGURE_KEYS;

/** CSV: one line per configuration, nested figures dotted (`costPerRunUsd.p95`, `stopReasons.max_steps`). */
export function renderSweepCsv(report: SweepReport): string {
  const reasons = STOP_REASONS.filter((reason) => report.configurations.some((row) => row.stopReasons[reason] !== undefined));
  const pareto = new Set(report.pareto ?? []);
  const rows = report.configurations.map((row) => {
    // The flags after the command that takes them: pasted whole after `loopcost`, never a cell starting with `-` (replayCommandLine).
    const flat: Record<string, unknown> = { ...row, flags: replayCommandLine(row.flags) };
    for (const [key, value] of Object.entries(row.costPerRunUsd)) flat[`costPerRunUsd.${key}`] = value;
    for (const [key, value] of Object.entries(row.tokens)) flat[`tokens.${key}`] = value;
    for (const reason of reasons) flat[`stopReasons.${reason}`] = row.stopReasons[reason] ?? 0;
    if (row.halfStepCap) for (const [key, value] of Object.entries(row.halfStepCap)) flat[`halfStepCap.${key}`] = value;
    flat.pareto = pareto.has(row.settings);
    flat.recommended = report.recommendation?.settings === row.settings;
    return flat;
  });
  const strategyColumns = STRATEGY_FIGURES.filter((key) => report.configurations.some((row) => row[key] !== undefined));
  for (const flat of rows) for (const key of strategyColumns) flat[key] ??= 0;
  const columns = [
    'settings', 'flags', 'brakes', 'context', 'toolResultCap', 'cache', 'model', 'runs', 'completed', 'completionRate', 'costUsd',
    'costPerRunUsd.mean', 'costPerRunUsd.p50', 'costPerRunUsd.p95', 'costPerRunUsd.max', 'costPerCompletedUsd',
    'wastedUsd', 'wastedShare', 'falseStops', 'falseStopRate', 'caughtEarly', 'savedUsd',
    ...reasons.map((reason) => `stopReasons.${reason}`), 'tokens.input', 'tokens.cached', 'tokens.output', 'overshootUsd', ...strategyColumns,
    ...(report.targetCompletion === undefined ? [] : ['halfStepCap.maxSteps', 'halfStepCap.completed', 'halfStepCap.completionRate', 'halfStepCap.costUsd']),
    'pareto', 'recommended',
  ];
  const shared = { latency: report.settings.latency, ...priceSourceColumns(report.prices) };
  return formatCsv(rows, [...columns, 'latency', ...PRICE_SOURCE_COLUMNS], shared);
}
