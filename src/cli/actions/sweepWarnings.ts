/**
 * What could make a sweep's or a calibration's figures mislead, one warning each: the price table does
 * not price the recorded runs as they were billed (runs a configuration prices as their own model; a model
 * grid that prices none so says there is no such check), recorded runs swept under a context strategy they
 * were not recorded with or a configuration's repeat-action skip (open loop, as replay says them), the cache on with a model the table gives no cached-input price
 * (scenarioWarnings.ts, as replay says it), and `--context-window model` on runs whose model the table
 * gives no window (population/modelWindow.ts) — each over the configurations and each scenario file's own
 * under them (scenarioBase.ts) — and under `--tree` the started sub-agents with no recording among the inputs (once per tree, as replay --tree);
 * a scenario file's summary trigger at or below its fixed prompt under a configuration's strategy (scenarioTriggers.ts), and the
 * recorded runs' importers' notes (importNotesWarning.ts), as replay says them; without `--tree`, recorded runs that are parts of
 * session trees, each brake binding each part (sessionParts.ts), as replay says it.
 */
import { isIdentity } from '../../context/strategy.js';
import { contextText } from '../../report/settings.js';
import { PopulationWindows } from '../../population/modelWindow.js';
import type { PriceGapCheck } from '../../pricing/recordedCost.js';
import { noPriceCheckWarnings, PRICE_GAP_TOLERANCE, priceGapWarnings, type ReportWarning, type UnrecordedInTree } from '../../report/warnings.js';
import { gridWarningList } from '../../report/warningLists.js';
import { ProviderFallbackTally } from '../../report/providerFallbackWarning.js';
import { tracePricing } from '../../replay/tracePricing.js';
import { scenarioConfig } from '../../population/run.js';
import type { Trace } from '../../trace/types.js';
import { strategyFromFlags } from '../../flags/settingsFlags.js';
import { splitPriceGaps } from './sweepPricing.js';
import type { SweepSetup } from './sweepWork.js';
import { cacheOnRuns, fittedProfileWarnings, pricedRunsWarnings, unreadTracesWarnings } from './scenarioWarnings.js';
import type { RunHeaderFacts } from './sweepHeaderFacts.js';
import { gridTriggerWarnings } from './scenarioTriggers.js';
import { fittedContextWarnings } from '../../report/fittedContextWarning.js';
import type { PricedRunKind } from './pricedRunKinds.js';
import { sweepRepricedWritesWarnings } from './sweepRepricedWrites.js';

/** Over every configuration (a shard's header says what the whole grid's does): the runs' models where one takes the model's window. */
export function gridWindows(setup: Pick<SweepSetup, 'configurations' | 'prices'>): PopulationWindows {
  return PopulationWindows.of(setup.configurations.map((c) => c.config), setup.prices);
}

/**
 * The cache warning (scenarioWarnings.ts): the configurations over the recorded runs (`traces`, when this
 * thread holds them) and the scenario files' runs that take them, and each file's runs under their own (scenarioBase.ts).
 */
function cacheWarnings(setup: Pick<SweepSetup, 'configurations' | 'prices' | 'scenarios'>, traces: readonly Trace[] | undefined): ReportWarning[] {
  const configs = setup.configurations.map((c) => c.config);
  const taking = setup.scenarios.filter((_, s) => configs.some((config) => config.perScenario?.[s] === undefined));
  return pricedRunsWarnings([
    ...cacheOnRuns(configs, { prices: setup.prices, scenarios: taking.map((input) => input.scenario), ...(traces === undefined ? {} : { traces }) }),
    ...setup.scenarios.flatMap(({ scenario }, s) => cacheOnRuns(configs.flatMap((config) => (config.perScenario?.[s] === undefined ? [] : [scenarioConfig(config, s)])), { prices: setup.prices, scenarios: [scenario] })),
  ]);
}


/** The models of `traces` (each run's own, or a configuration's) that a configuration's `--context-window model` finds no window for. */
export function recordedWindowless(setup: Pick<SweepSetup, 'configurations' | 'prices'>, traces: readonly Trace[]): string[] {
  return gridWindows(setup).addInputs({ traces }).models();
}

/** The recorded runs some configuration prices as their own model at another provider's price than their own provider's (report/providerFallbackWarning.ts). */
function ownPricingFallbacks(setup: Pick<SweepSetup, 'configurations' | 'prices'>, pricedRuns: readonly PricedRunKind[] = []): ReportWarning[] {
  const fallbacks = new ProviderFallbackTally();
  if (setup.configurations.some((c) => c.config.model === undefined)) for (const kind of pricedRuns) fallbacks.add(tracePricing(kind.run, { prices: setup.prices }), kind.runs);
  return fallbacks.warnings();
}

/**
 * `windowless`: recordedWindowless of the recorded runs read (on every thread); the scenario files' runs are
 * added here. `traces`: the recorded runs, when this thread holds them all (calibrate), for the cache warning;
 * the scenario files' runs take the configurations' cache (not their files'), so they are warned of under it.
 * `pricedRuns` (sweep): the recorded runs counted by kind, every thread's: one run of each kind for the cache
 * warning, and the runs re-priced with their cache as recorded reading no write (sweepRepricedWrites.ts), said
 * after it as project says them (calibrate, which bills no cost, says nothing of them).
 */
export function gridWarnings(args: { command: 'sweep' | 'calibrate'; setup: Pick<SweepSetup, 'axes' | 'fixed' | 'configurations' | 'prices' | 'scenarios'>; recordedRuns: number; priceGaps: PriceGapCheck; windowless: readonly string[]; inputs: readonly string[]; traces?: readonly Trace[]; pricedRuns?: readonly PricedRunKind[]; unrecorded?: readonly UnrecordedInTree[]; headerFacts: RunHeaderFacts }): ReportWarning[] {
  const { setup, recordedRuns } = args;
  const strategy = strategyFromFlags(setup.fixed.contextFlags);
  const swept = setup.axes.some((axis) => axis.key === 'context' || axis.key === 'tool-result-cap');
  const windows = gridWindows(setup).add(args.windowless);
  // Each scenario file's runs under the configurations as they take them (their file's own brakes under the grid's: scenarioBase.ts).
  setup.scenarios.forEach(({ scenario }, s) => {
    const own = PopulationWindows.of(setup.configurations.map((c) => scenarioConfig(c.config, s)), setup.prices);
    own.addScenario(scenario);
    windows.add(own.models());
  });
  // Gaps of runs a configuration prices as their own model; a model grid that prices none so says why there is no check.
  const { checked, unchecked } = splitPriceGaps(setup, args.priceGaps);
  const modelGrid = setup.axes.some((axis) => axis.key === 'model');
  const scenarios = setup.scenarios.map((s) => s.scenario);
  return gridWarningList({
    command: args.command,
    configs: setup.configurations.map((c) => c.config),
    recordedRuns,
    priceGaps: [...priceGapWarnings(checked.gaps(PRICE_GAP_TOLERANCE), args.inputs), ...(modelGrid && checked.sums().length === 0 ? noPriceCheckWarnings(unchecked) : []), ...ownPricingFallbacks(setup, args.pricedRuns)],
    ...(swept || !isIdentity(strategy) ? { openLoop: swept ? 'as swept' : contextText(strategy) } : {}),
    cache: [...cacheWarnings(setup, args.traces ?? args.pricedRuns?.map((kind) => kind.run)), ...(args.pricedRuns === undefined ? [] : sweepRepricedWritesWarnings(setup, args.pricedRuns))],
    windows: windows.warnings(),
    scenarioFiles: [
      ...unreadTracesWarnings(scenarios),
      ...fittedProfileWarnings(scenarios, setup.prices),
      ...gridTriggerWarnings(setup),
      // A fitted profile under a configuration's strategy other than full: its agents do not react to it (fittedContextWarning.ts).
      ...fittedContextWarnings(setup.configurations.flatMap(({ config }) => setup.scenarios.map(({ scenario }, s) => ({ scenario, strategy: scenarioConfig(config, s).strategy })))),
    ],
    scenarioRuns: setup.scenarios.length > 0,
    // `--tree`: once per tree whose tool calls started agents with no recording among the inputs, as replay --tree says it; without it, the runs that are parts of session trees.
    ...(args.unrecorded === undefined ? {} : { unrecorded: args.unrecorded }),
    // The recorded runs' header facts (importers' notes, stated strategies, calls past the cache's lifetime, session trees), counted in the order of the files whichever thread read them (sweepShares.ts).
    facts: args.headerFacts,
  });
}
