/**
 * What replay and whatif warn of the runs they price (RunNotes), said the same way by the commands that
 * run scenario files otherwise: the cache on with a model the table gives no cached-input price, and for
 * synthetic runs a max_tokens that leaves no room for a prompt in the model's window. `generate` says
 * them of its scenario (scenarioWarnings, on stderr, with a fitted profile's: fittedProfileWarnings, which
 * `serve` says on stderr too); `project`, `check`, `sweep` and `calibrate` say the
 * cache's of the runs they price with the cache on (cacheOnWarnings; the window's they say already,
 * population/modelWindow.ts). And every command that runs a scenario file's population but `check` says a
 * file's `traces:` entries go unread (unreadTracesWarnings).
 */
import { FULL_HISTORY, type CacheMode } from '../../context/strategy.js';
import { sentMaxTokens } from '../../population/modelWindow.js';
import type { PopulationConfig } from '../../population/run.js';
import type { ModelPricing, PriceTable } from '../../pricing/types.js';
import type { ReportWarning } from '../../report/warnings.js';
import type { Scenario } from '../../scenario/load.js';
import { resolveScenarioPricing } from '../../scenario/run.js';
import { fitPricesWarning, fitWarningsOf } from '../../scenario/fitWarnings.js';
import { COMMAND_LINE_MODEL } from '../../options/given.js';
import { scenarioSettings, type ScenarioOverrides } from '../../scenario/settings.js';
import type { Trace } from '../../trace/types.js';
import type { CheckInput } from '../../check/inputs.js';
import { pricingFor, RunNotes } from './runNotes.js';
import { recordedRunsModel } from '../../check/fileModel.js';

/** Runs of `source` priced with `pricing` under `cache`; `sentMaxTokens`: the max_tokens a synthetic run's settings send (none: not noted). */
export interface PricedRuns {
  source: string;
  pricing: ModelPricing;
  cache: CacheMode | undefined;
  sentMaxTokens?: readonly number[];
}

/** What RunNotes warns of runs so priced, as replay notes a scenario file's runs (RunNotes.addSynthetic). */
export function pricedRunsWarnings(runs: Iterable<PricedRuns>): ReportWarning[] {
  // Nothing here is a recorded run replayed under another strategy: the strategy says nothing.
  const notes = new RunNotes({ strategy: FULL_HISTORY });
  for (const run of runs) notes.addSynthetic(run.source, run.pricing, run.cache, run.sentMaxTokens ?? []);
  return notes.warnings([]);
}

/**
 * Once per scenario file that names `traces:` beside its population: only `check` reads them (replay,
 * whatif, sweep, project, calibrate, generate run the population alone). A file with traces and no
 * population is refused by those commands already (load.ts parseScenario).
 */
export function unreadTracesWarnings(scenarios: readonly Pick<Scenario, 'source' | 'traces'>[], instead: string = TRACES_AS_INPUTS): ReportWarning[] {
  const files = new Set(scenarios.filter((scenario) => scenario.traces !== undefined).map((scenario) => scenario.source));
  return [...files].map((file) => ({
    code: 'scenario_traces_unread',
    message: `${file}: its traces: entries are read by loopcost check only; ${instead}`,
  }));
}

/**
 * The warnings `fit` wrote into each fitted profile among the scenarios, and a warning when `prices` is not
 * the table it was fitted under (scenario/fitWarnings.ts), once per file.
 */
export function fittedProfileWarnings(scenarios: readonly Pick<Scenario, 'source'>[], prices: Pick<PriceTable, 'source'>): ReportWarning[] {
  const said = new Set<string>();
  return scenarios.flatMap((scenario) => {
    if (said.has(scenario.source)) return [];
    said.add(scenario.source);
    const otherPrices = fitPricesWarning(scenario, scenario.source, prices.source);
    return [
      ...fitWarningsOf(scenario).map((warning) => ({ code: 'fitted_profile_warning', message: `${scenario.source}: fitted with a warning: ${warning}` })),
      ...(otherPrices === undefined ? [] : [otherPrices]),
    ];
  });
}

/** What a command that reads traces too says to do with a scenario's unread `traces:`. */
const TRACES_AS_INPUTS = 'give those traces to this command as inputs to replay them';

/** The same, said by a command that reads no traces beside a scenario: `generate` (it writes the scenario's runs) and `serve` (one source a server). */
export const TRACES_ELSEWHERE = {
  generate: 'replay those traces with loopcost replay, or hold them to the expectations with loopcost check',
  serve: 'to answer from those traces, start a server of their own (loopcost serve TRACES)',
} as const;

/**
 * What replay warns of a scenario file's runs under its settings (the flags given on top), a fitted
 * profile's warnings with them: what `generate` says on stderr.
 */
export function scenarioWarnings(scenario: Scenario, args: { prices: PriceTable; overrides: ScenarioOverrides; path: string }): ReportWarning[] {
  const settings = scenarioSettings(scenario, args.overrides);
  const pricing = resolveScenarioPricing(scenario, args.prices);
  return [
    ...pricedRunsWarnings([{ source: args.path, pricing, cache: settings.strategy.cache, sentMaxTokens: sentMaxTokens([settings.brakes]) }]),
    ...unreadTracesWarnings([{ source: args.path, traces: scenario.traces }], TRACES_ELSEWHERE.generate),
    ...fittedProfileWarnings([scenario], args.prices),
  ];
}

/**
 * The runs of `scenarios` and `traces` under each configuration whose cache is on, priced as its model
 * (--model, `--grid model=`), else each run as its own (a scenario file's model, a trace's). A
 * configuration without `cache` runs recorded runs as recorded and synthetic runs uncached: none.
 */
export function cacheOnRuns(
  configs: readonly Pick<PopulationConfig, 'strategy' | 'model'>[],
  runs: { prices: PriceTable; scenarios: readonly Scenario[]; traces?: readonly Trace[] },
): PricedRuns[] {
  const models = new Set(configs.filter((config) => config.strategy.cache === 'on').map((config) => config.model));
  const priced: PricedRuns[] = [];
  for (const model of models) {
    const as = model === undefined ? {} : { model };
    for (const scenario of runs.scenarios) priced.push({ source: scenario.source, pricing: resolveScenarioPricing(scenario, runs.prices, { model, modelPlace: COMMAND_LINE_MODEL }), cache: 'on' });
    for (const trace of runs.traces ?? []) priced.push({ source: trace.source, pricing: pricingFor(trace, { prices: runs.prices, ...as }), cache: 'on' });
  }
  return priced;
}

/** The cache warning of cacheOnRuns (project, sweep, calibrate). */
export function cacheOnWarnings(configs: readonly Pick<PopulationConfig, 'strategy' | 'model'>[], runs: Parameters<typeof cacheOnRuns>[1]): ReportWarning[] {
  return pricedRunsWarnings(cacheOnRuns(configs, runs));
}

/**
 * check's cache warning: each scenario file's synthetic runs under its settings' cache, the traces it names
 * under theirs (`traceStrategy`: as recorded unless the file or a flag gives one), as checkRuns runs them.
 */
export function checkCacheWarnings(checks: readonly CheckInput[], traces: readonly (readonly Trace[])[], options: { prices: PriceTable; model?: string }): ReportWarning[] {
  const model = options.model === undefined ? {} : { model: options.model };
  return pricedRunsWarnings(
    checks.flatMap((input, i) => [
      ...cacheOnRuns([{ strategy: input.settings.strategy, ...model }], { prices: options.prices, scenarios: input.scenario.population === undefined ? [] : [input.scenario as Scenario] }),
      ...cacheOnRuns([{ strategy: input.traceStrategy, ...recordedAs(input, options.model) }], { prices: options.prices, scenarios: [], traces: traces[i] ?? [] }),
    ]),
  );
}

/** The model a scenario's recorded runs are priced as (--model, else a traces-only file's `model:`: check/fileModel.ts), as a config's `model`. */
function recordedAs(input: CheckInput, flagModel: string | undefined): { model?: string } {
  const model = recordedRunsModel(input.scenario, flagModel);
  return model === undefined ? {} : { model };
}
