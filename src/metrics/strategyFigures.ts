/**
 * What a context strategy did, added up over runs: summary calls and their cost (exact, BigInt), cache
 * hits lost, skipped actions — each absent where 0. The one sum behind replay's summary, what-if totals
 * and sweep rows, over the one list of keys, STRATEGY_FIGURE_KEYS (src/loop/types.ts).
 */
import { STRATEGY_FIGURE_KEYS, type StrategyFigures } from '../loop/types.js';

export type StrategyFigureKey = (typeof STRATEGY_FIGURE_KEYS)[number];

/** The figures in picodollars: summed exactly (BigInt), shown as USD. */
export type PicoFigureKey = Extract<StrategyFigureKey, `${string}Pico`>;

export function isPicoFigure(key: StrategyFigureKey): key is PicoFigureKey {
  return key.endsWith('Pico');
}

export type StrategySums = { [K in StrategyFigureKey]?: K extends PicoFigureKey ? bigint : number };

/**
 * The figure whose being there shows `key`: the summary calls' cost is shown wherever there were summary
 * calls (even at $0); every other figure where it is not 0.
 */
export function shownWith(key: StrategyFigureKey): StrategyFigureKey {
  return key === 'summaryCostPico' ? 'summaryCalls' : key;
}

export function sumStrategyFigures(runs: Iterable<Partial<StrategyFigures>>): StrategySums {
  const sums = {} as Record<StrategyFigureKey, number | bigint>;
  for (const key of STRATEGY_FIGURE_KEYS) sums[key] = isPicoFigure(key) ? 0n : 0;
  for (const run of runs) {
    for (const key of STRATEGY_FIGURE_KEYS) {
      const value = run[key];
      if (value !== undefined) sums[key] = isPicoFigure(key) ? (sums[key] as bigint) + BigInt(value) : (sums[key] as number) + value;
    }
  }
  const shown: Partial<Record<StrategyFigureKey, number | bigint>> = {};
  for (const key of STRATEGY_FIGURE_KEYS) if (sums[shownWith(key)]! > 0) shown[key] = sums[key];
  return shown as StrategySums;
}
