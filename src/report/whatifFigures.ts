/**
 * The strategy figures (summary calls and cost, cache hits lost, skipped actions) of a what-if report's
 * per-run rows. One list of keys, STRATEGY_FIGURE_KEYS, as reports name them (strategyFigureNames.ts); each
 * row's figures made by the function that makes the summary rows' totals (strategyTotals), so they add
 * up to them. A report carries the keys its baseline or any setting has, on every per-run row (0 where
 * the run had none), so the columns do not change from setting to setting; a report with none, none.
 */
import type { StrategyFigures } from '../loop/types.js';
import { strategyTotals, type StrategyTotals } from '../population/sweep.js';
import { usdNumberTexts } from './money.js';
import { narrowestWidth } from './stopColumns.js';
import { FIGURE_KEYS, isUsdFigure, type FigureKey } from './strategyFigureNames.js';
import { COLUMN_GAP as GAP, formatTable, type Cell, type Column } from './table.js';

export type { FigureKey };

/** The same figure of the run under its baseline brakes, beside `baselineCostUsd`. */
export type BaselineFigureKey = `baseline${Capitalize<FigureKey>}`;

export type RunFigures = Partial<Record<FigureKey | BaselineFigureKey, number>>;

const baselineKey = (key: FigureKey): BaselineFigureKey => `baseline${key[0]!.toUpperCase()}${key.slice(1)}` as BaselineFigureKey;

/** The keys (in FIGURE_KEYS order) that any of these summary rows has: what every per-run row carries. */
export function figureKeysOf(rows: readonly StrategyTotals[]): FigureKey[] {
  return FIGURE_KEYS.filter((key) => rows.some((row) => row[key] !== undefined));
}

/** The strategy figures of a summary row, those it has, in FIGURE_KEYS order. */
export function strategyRecord(totals: StrategyTotals): StrategyTotals {
  const record: StrategyTotals = {};
  for (const key of FIGURE_KEYS) if (totals[key] !== undefined) record[key] = totals[key];
  return record;
}

const NONE: RunFigures = Object.freeze({});

/** One run's figures under a setting, for `keys` (0 where it had none). */
export function runFigures(keys: readonly FigureKey[], figures: Partial<StrategyFigures>): RunFigures {
  return figuresNamed(figures, keys.map((key) => [key, key]));
}

/** The same under its baseline brakes, as `baselineSummaryCalls`, …. */
export function baselineRunFigures(keys: readonly FigureKey[], figures: Partial<StrategyFigures>): RunFigures {
  return figuresNamed(figures, keys.map((key) => [key, baselineKey(key)]));
}

/** Each figure (of the run's strategyTotals) under its name in the row. */
function figuresNamed(figures: Partial<StrategyFigures>, names: readonly (readonly [FigureKey, FigureKey | BaselineFigureKey])[]): RunFigures {
  if (names.length === 0) return NONE;
  const totals = strategyTotals([figures]);
  const record: RunFigures = {};
  for (const [key, name] of names) record[name] = totals[key] ?? 0;
  return record;
}

/** CSV columns: the baseline's figures (after `baselineCostUsd`) and the setting's (after `savedUsd`). */
export function figureCsvColumns(keys: readonly FigureKey[]): { baseline: string[]; setting: string[] } {
  return { baseline: keys.map(baselineKey), setting: [...keys] };
}

const HEADERS: Record<FigureKey, string> = {
  summaryCalls: 'summaries',
  summaryCostUsd: 'summary cost',
  strategyCacheLostTokens: 'cache lost',
  skippedActions: 'skipped',
};

/** The per-run table's columns for the setting's figures (the baseline's are in JSON and CSV, their totals in the summary). */
function figureColumns(keys: readonly FigureKey[]): Column[] {
  return keys.map((key) => ({ header: HEADERS[key], align: 'right' }));
}

/** A row's figure cells, money formatted once per distinct amount (most rows repeat $0). */
function figureCells(keys: readonly FigureKey[]): (row: RunFigures) => Cell[] {
  const usd = usdNumberTexts();
  return (row) => keys.map((key) => (isUsdFigure(key) ? usd(row[key] ?? 0) : (row[key] ?? 0)));
}

/**
 * The per-run rows with their strategy figures: beside the other columns when they fit in `width` with
 * nothing cut that the rows alone would not cut, else in a table of their own under the rows, a row per
 * run and setting again (figures are never cut). `keys` empty: the rows alone, as before.
 */
export function perRunTables(args: {
  columns: readonly Column[];
  rows: readonly Cell[][];
  keys: readonly FigureKey[];
  figures: readonly RunFigures[];
  width: number;
}): string {
  const { columns, rows, keys, width } = args;
  const alone = formatTable(columns, rows, { maxWidth: width });
  if (keys.length === 0) return alone;
  const extra = figureColumns(keys);
  const cells = args.figures.map(figureCells(keys));
  if (ruleWidth(alone) + GAP + narrowestWidth(extra, cells) <= width) {
    return formatTable([...columns, ...extra], rows.map((row, i) => [...row, ...cells[i]!]), { maxWidth: width });
  }
  const own = rows.map((row, i) => [row[0]!, row[1]!, ...cells[i]!]);
  return `${alone}\nstrategy figures per run and setting:\n${formatTable([columns[0]!, columns[1]!, ...extra], own, { maxWidth: width })}`;
}

/** A table's width as laid out: its rule line's (one column per `─`), under its header lines. */
function ruleWidth(table: string): number {
  const start = table.indexOf('\n─') + 1;
  return table.indexOf('\n', start) - start;
}
