/**
 * whatif's CSV: a row per run and setting, each run's strategy figures (the baseline's, the setting's) after
 * its cost figures; where runs carry ground truth, whether each did its task (`baselineTaskDone`, `taskDone`:
 * replay/whatifTasksDone.ts, empty for a recording beside them), after its stop reason.
 */
import { PRICE_SOURCE_COLUMNS, priceSourceColumns } from '../pricing/source.js';
import { formatCsv } from './csv.js';
import { csvSettings } from './scenarios.js';
import { SETTINGS_COLUMNS } from './settings.js';
import { figureCsvColumns, figureKeysOf, type FigureKey } from './whatifFigures.js';
import type { WhatIfReport } from './whatifReport.js';

/** The strategy figures the per-run rows carry (the baseline's or any setting's): whatifFigures.ts. */
export function reportFigureKeys(report: WhatIfReport): FigureKey[] {
  return figureKeysOf([report.baseline, ...report.totals]);
}

/** The per-run columns; `baselineTaskDone` and `taskDone` only where some run carries ground truth (the baseline's `tasksDone`). */
function whatIfCsvColumns(report: WhatIfReport): string[] {
  const figures = figureCsvColumns(reportFigureKeys(report));
  const judged = report.baseline.tasksDone !== undefined;
  return [
    'source', 'setting', 'baselineStopReason', ...(judged ? ['baselineTaskDone'] : []), 'baselineSteps', 'baselineCostUsd', ...figures.baseline,
    'stopReason', ...(judged ? ['taskDone'] : []), 'steps', 'costUsd', 'falseStop', 'baselineCompletionStopped', 'savedUsd', ...figures.setting, 'cache', 'pricedAsOf',
  ];
}
// The brakes are each row's setting (the baseline: each run's recorded limits), so not a settings column.
const WHATIF_SETTINGS_COLUMNS = SETTINGS_COLUMNS.filter((column) => column !== 'brakes');

export function renderWhatIfCsv(report: WhatIfReport): string {
  const csv = csvSettings(report.runs, report.settings, report.settings.scenarios, priceSourceColumns(report.prices.source));
  return formatCsv(csv.rows, [...whatIfCsvColumns(report), ...WHATIF_SETTINGS_COLUMNS, ...PRICE_SOURCE_COLUMNS], csv.shared);
}
