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

/** Every figure's running sum over the runs added so far (0 where none yet): what sumStrategyFigures adds up, kept open. */
export type StrategyTally = { [K in StrategyFigureKey]: K extends PicoFigureKey ? bigint : number };

export function newStrategyTally(): StrategyTally {
  const tally = {} as Record<StrategyFigureKey, number | bigint>;
  for (const key of STRATEGY_FIGURE_KEYS) tally[key] = isPicoFigure(key) ? 0n : 0;
  return tally as StrategyTally;
}

/** Adds one run's figures, or sums already made (a share's), to `tally`. */
export function addToStrategyTally(tally: StrategyTally, figures: Partial<StrategyFigures> | StrategySums): void {
  const sums = tally as Record<StrategyFigureKey, number | bigint>;
  for (const key of STRATEGY_FIGURE_KEYS) {
    const value = figures[key];
    if (value !== undefined) sums[key] = isPicoFigure(key) ? (sums[key] as bigint) + BigInt(value) : (sums[key] as number) + Number(value);
  }
}

/** The tally's figures that are shown (shownWith), each absent where not. */
export function shownStrategySums(tally: StrategyTally): StrategySums {
  const shown: Partial<Record<StrategyFigureKey, number | bigint>> = {};
  for (const key of STRATEGY_FIGURE_KEYS) if (tally[shownWith(key)] > 0) shown[key] = tally[key];
  return shown as StrategySums;
}

export function sumStrategyFigures(runs: Iterable<Partial<StrategyFigures>>): StrategySums {
  const tally = newStrategyTally();
  for (const run of runs) addToStrategyTally(tally, run);
  return shownStrategySums(tally);
}
