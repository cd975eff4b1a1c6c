/**
 * A sweep's summary strategies checked before any work, each complaint named where the strategy was
 * written — `--grid context` when the grid has that axis, else `--context` — not where a run's session
 * would name it (always `--context`, knowing no place).
 */
import { COMMAND_LINE_CONTEXT, contextSpecOf, type StrategyPlace } from '../context/strategy.js';
import { UserError, type InputIssue } from '../errors.js';
import type { ModelPricing } from '../pricing/types.js';
import type { PriceTable } from '../pricing/types.js';
import { checkSummaryTrigger, summaryPricingOf } from '../replay/replay.js';
import type { GridAxis, GridConfiguration } from './grid.js';

const GRID_CONTEXT: StrategyPlace = { file: '<command line>', field: '--grid context' };

/** Where the configurations' strategy was written. */
export function gridStrategyPlace(axes: readonly GridAxis[]): StrategyPlace {
  return axes.some((axis) => axis.key === 'context') ? GRID_CONTEXT : COMMAND_LINE_CONTEXT;
}

/**
 * A complaint a run's session made about its strategy (always named `--context`: it knows no place), named
 * `--grid context` when the grid has that axis (every configuration's strategy is then the grid's: one
 * whose trigger a recorded run's model makes unusable is found only once that run is read).
 */
export function strategyErrorInGrid(error: unknown, axes: readonly GridAxis[]): unknown {
  if (!(error instanceof UserError) || gridStrategyPlace(axes) !== GRID_CONTEXT) return error;
  const fromSession = (issue: InputIssue) => issue.file === COMMAND_LINE_CONTEXT.file && issue.field === COMMAND_LINE_CONTEXT.field;
  return error.issues.some(fromSession) ? new UserError(error.issues.map((issue) => (fromSession(issue) ? { ...issue, ...GRID_CONTEXT } : issue))) : error;
}

/**
 * Each summary strategy's model resolved in the table, and its trigger checked against the context window
 * of every scenario's runs under each configuration (`pricingsOf(config.model)`: the scenarios' pricings
 * when priced as that model). A recorded run's model is known only once it is read: its session checks
 * the trigger then.
 */
export function checkGridStrategies(args: {
  configurations: readonly GridConfiguration[];
  axes: readonly GridAxis[];
  prices: PriceTable;
  pricingsOf: (model: string | undefined) => readonly ModelPricing[];
}): void {
  const place = gridStrategyPlace(args.axes);
  const checked = new Set<string>();
  for (const { config } of args.configurations) {
    if (config.strategy.summary === undefined) continue;
    const pricings = args.pricingsOf(config.model);
    const key = `${contextSpecOf(config.strategy)}\u0000${config.brakes.contextWindow ?? ''}\u0000${config.model ?? ''}`;
    if (checked.has(key)) continue;
    checked.add(key);
    const summaryPricing = summaryPricingOf(config.strategy, args.prices, undefined, place);
    for (const pricing of pricings) checkSummaryTrigger({ strategy: config.strategy, brakes: config.brakes, pricing, ...(summaryPricing === undefined ? {} : { summaryPricing }) }, place);
  }
}
