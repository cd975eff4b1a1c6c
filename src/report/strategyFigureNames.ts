/**
 * The strategy figures as reports name them: STRATEGY_FIGURE_KEYS (src/loop/types.ts), the one list, in its
 * order, picodollars as USD (`summaryCostPico` as `summaryCostUsd`). Every report's strategy-figure fields
 * and columns (replay runs and summary, tree rows, sweep and what-if) come from here, so a figure added
 * there reaches each of them.
 */
import { STRATEGY_FIGURE_KEYS } from '../loop/types.js';
import { isPicoFigure, shownWith, type StrategyFigureKey } from '../metrics/strategyFigures.js';
import { picoToUsd } from '../money.js';
import type { StrategyTotals } from '../population/sweep.js';

export type ReportName<K extends string> = K extends `${infer Stem}Pico` ? `${Stem}Usd` : K;

/** A strategy figure's name in reports (JSON, CSV): `summaryCostPico` as `summaryCostUsd`. */
export type FigureKey = ReportName<StrategyFigureKey>;

export function figureName<K extends StrategyFigureKey>(key: K): ReportName<K> {
  return key.replace(/Pico$/, 'Usd') as ReportName<K>;
}

/** A figure in US dollars under its report name (figureName turned its picodollars into them). */
export function isUsdFigure(key: FigureKey): boolean {
  return key.endsWith('Usd');
}

/** STRATEGY_FIGURE_KEYS as reports name them, in their order (a key StrategyTotals lacks does not compile). */
export const FIGURE_KEYS: readonly (FigureKey & keyof StrategyTotals)[] = STRATEGY_FIGURE_KEYS.map(figureName);

/** A report record's strategy figures, each present only where shown. */
export type StrategyFigureRecord = Partial<Record<FigureKey, number>>;

/**
 * The figures `figures` has, under their report names in FIGURE_KEYS order, picodollars as USD; the
 * summary calls' cost with the summary calls (metrics/strategyFigures.ts shownWith: $0 where not given).
 */
export function strategyFigureRecord(figures: { readonly [K in StrategyFigureKey]?: number | bigint }): StrategyFigureRecord {
  const record: StrategyFigureRecord = {};
  for (const key of STRATEGY_FIGURE_KEYS) {
    if (figures[shownWith(key)] === undefined) continue;
    const value = figures[key] ?? 0;
    record[figureName(key)] = isPicoFigure(key) ? picoToUsd(value) : Number(value);
  }
  return record;
}
