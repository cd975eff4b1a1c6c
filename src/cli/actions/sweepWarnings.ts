/**
 * What could make a sweep's or a calibration's figures mislead, one warning each: the price table does
 * not price the recorded runs as they were billed (runs a configuration prices as their own model; a model
 * grid that prices none so says there is no such check), recorded runs swept under a context strategy they
 * were not recorded with (open loop), the cache on with a model the table gives no cached-input price
 * (scenarioWarnings.ts, as replay says it), and `--context-window model` on runs whose model the table
 * gives no window (population/modelWindow.ts).
 */
import { isIdentity } from '../../context/strategy.js';
import { PopulationWindows } from '../../population/modelWindow.js';
import type { PriceGapCheck } from '../../pricing/recordedCost.js';
import { noPriceCheckWarnings, openLoopWarnings, PRICE_GAP_TOLERANCE, priceGapWarnings, type ReportWarning } from '../../report/warnings.js';
import type { Trace } from '../../trace/types.js';
import { strategyFromFlags } from '../parseFlags.js';
import { splitPriceGaps } from './sweepPricing.js';
import type { SweepSetup } from './sweepWork.js';
import { cacheOnWarnings, unreadTracesWarnings } from './scenarioWarnings.js';

/** Over every configuration (a shard's header says what the whole grid's does): the runs' models where one takes the model's window. */
export function gridWindows(setup: Pick<SweepSetup, 'configurations' | 'prices'>): PopulationWindows {
  return PopulationWindows.of(setup.configurations.map((c) => c.config), setup.prices);
}

/** The models of `traces` (each run's own, or a configuration's) that a configuration's `--context-window model` finds no window for. */
export function recordedWindowless(setup: Pick<SweepSetup, 'configurations' | 'prices'>, traces: readonly Trace[]): string[] {
  return gridWindows(setup).addInputs({ traces }).models();
}

/**
 * `windowless`: recordedWindowless of the recorded runs read (on every thread); the scenario files' runs are
 * added here. `traces`: the recorded runs, when this thread holds them all (calibrate), for the cache warning;
 * the scenario files' runs take the configurations' cache (not their files'), so they are warned of under it.
 */
export function gridWarnings(args: { setup: Pick<SweepSetup, 'axes' | 'fixed' | 'configurations' | 'prices' | 'scenarios'>; recordedRuns: number; priceGaps: PriceGapCheck; windowless: readonly string[]; inputs: readonly string[]; traces?: readonly Trace[] }): ReportWarning[] {
  const { setup, recordedRuns } = args;
  const strategy = strategyFromFlags(setup.fixed.contextFlags);
  const swept = setup.axes.some((axis) => axis.key === 'context' || axis.key === 'tool-result-cap');
  const windows = gridWindows(setup).add(args.windowless);
  for (const { scenario } of setup.scenarios) windows.addScenario(scenario);
  // Gaps of runs a configuration prices as their own model; a model grid that prices none so says why there is no check.
  const { checked, unchecked } = splitPriceGaps(setup, args.priceGaps);
  const modelGrid = setup.axes.some((axis) => axis.key === 'model');
  return [
    ...priceGapWarnings(checked.gaps(PRICE_GAP_TOLERANCE), args.inputs),
    ...(modelGrid && checked.sums().length === 0 ? noPriceCheckWarnings(unchecked) : []),
    ...(swept || !isIdentity(strategy) ? openLoopWarnings(recordedRuns, swept ? 'as swept' : strategy.kind) : []),
    ...cacheOnWarnings(
      setup.configurations.map((c) => c.config),
      { prices: setup.prices, scenarios: setup.scenarios.map((s) => s.scenario), ...(args.traces === undefined ? {} : { traces: args.traces }) },
    ),
    ...windows.warnings(),
    ...unreadTracesWarnings(setup.scenarios.map((s) => s.scenario)),
  ];
}
