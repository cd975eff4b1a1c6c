/**
 * whatif's per-run text table (whatifReport.ts renderWhatIfTable, `--per-run`): each run under each setting
 * beside its baseline: stop, steps and cost; the cache each run took and, where runs carry ground truth,
 * whether each did its task under the setting (JSON and CSV `taskDone`), when the rows carry them; the
 * strategy figures beside or under them (whatifFigures.ts perRunTables).
 */
import { usdNumberTexts } from './money.js';
import type { Cell, Column } from './table.js';
import { shortenPaths } from './text.js';
import { sourcesLineOf } from './view.js';
import { perRunTables } from './whatifFigures.js';
import { reportFigureKeys } from './whatifCsv.js';
import type { WhatIfReport } from './whatifReport.js';

const RUN_COLUMNS: Column[] = [
  { header: 'run', shrink: true },
  { header: 'setting', shrink: true, minWidth: 16 },
  { header: 'baseline' },
  { header: 'base\nsteps', align: 'right' },
  { header: 'base cost', align: 'right' },
  { header: 'what-if' },
  { header: 'steps', align: 'right' },
  { header: 'cost', align: 'right' },
  { header: 'completion\nstopped' },
];

/** The cache each run took (`recorded`, `on`, `off`: JSON and CSV `cache`), after its setting; a session tree's rows carry none. */
const CACHE_COLUMN: Column = { header: 'cache' };

/** Whether the run did its task under the setting (JSON and CSV `taskDone`: `yes`, `no`; `-` for a run without ground truth), after its cost. */
const TASK_DONE_COLUMN: Column = { header: 'task\ndone' };

/** Which optional columns the per-run rows carry: the cache each took, whether each did its task (present where runs carry ground truth). */
interface RunColumnsShown {
  withCache: boolean;
  withTaskDone: boolean;
}

/** The per-run columns: the cache after the setting, and task done before `completion stopped`, when the rows carry them. */
function runColumns(shown: RunColumnsShown): Column[] {
  const [run, setting, ...rest] = RUN_COLUMNS;
  const stopped = rest.pop()!;
  return [run!, setting!, ...(shown.withCache ? [CACHE_COLUMN] : []), ...rest, ...(shown.withTaskDone ? [TASK_DONE_COLUMN] : []), stopped];
}

const taskDoneText = (taskDone: boolean | undefined): string => (taskDone === undefined ? '-' : taskDone ? 'yes' : 'no');

/** The per-run table's rows (`short`: each run's source as shown), each amount formatted once (usdNumberTexts). */
function perRunRows(runs: WhatIfReport['runs'], shown: RunColumnsShown & { short: readonly string[]; labels: Map<string, string> }): Cell[][] {
  const money = usdNumberTexts();
  return runs.map((row, i) => {
    const cells: Cell[] = [shown.short[i]!, shown.labels.get(row.setting)!];
    if (shown.withCache) cells.push(row.cache ?? '-');
    cells.push(row.baselineStopReason, row.baselineSteps, money(row.baselineCostUsd), row.stopReason, row.steps, money(row.costUsd));
    if (shown.withTaskDone) cells.push(taskDoneText(row.taskDone));
    cells.push(row.baselineCompletionStopped ? 'STOPPED' : '');
    return cells;
  });
}

/** The per-run rows under the line naming their sources (`labels`: each setting as the summary shows it), at most `width` wide. */
export function perRunText(report: WhatIfReport, shown: { labels: Map<string, string>; width: number }): string {
  const { prefix, suffix, short, runs } = shortenPaths(report.runs.map((row) => row.source));
  const columns = { withCache: report.runs.some((row) => row.cache !== undefined), withTaskDone: report.runs.some((row) => row.taskDone !== undefined) };
  const rows = perRunRows(report.runs, { ...columns, short, labels: shown.labels });
  const tables = perRunTables({ columns: runColumns(columns), rows, keys: reportFigureKeys(report), figures: report.runs, width: shown.width });
  return `${sourcesLineOf(report.baseline.runs, { prefix, suffix, short, runs })}${tables}`;
}
