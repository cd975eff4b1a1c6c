/**
 * The population runner: a population of runs (recorded traces and/or synthetic scenario runs) under one
 * configuration, each run paired with its baseline — the pairs `populationMetrics` (src/metrics/
 * population.ts) turns into figures. `project` and `check` call this, and `sweep` and `calibrate` for
 * the configurations they cannot sweep (held equal to it by their tests), so a figure means the same in
 * each.
 *
 * Baseline (as population.ts defines it): the same run with NO_BRAKES under the same context strategy,
 * cache mode, model and latency. A recorded trace is replayed as recorded; a synthetic run is the same
 * agent (same seed, same run index) under its policy with no brakes up to the scenario's hard cap or its
 * provider's refusal of a prompt + the max_tokens sent past the window (the configuration's
 * `--max-output-tokens`: what its requests carry, not a brake). Baselines do not depend on the brakes, so
 * they are computed once per (inputs object, strategy, model, latency, and for synthetic runs max_tokens:
 * syntheticBaselineKey) and reused across configurations.
 *
 * Pure core: no node:*, no clock, no Math.random; inputs are already loaded (traces parsed, scenarios
 * validated). Recorded runs go through `replayTrace` (the compiled kernel), synthetic runs through the one
 * loop (`runSynthetic`), so every figure is what `replay` of that setting alone gives.
 */
import { maxOutputTokensSent, NO_BRAKES, type BrakeConfig } from '../brakes/config.js';
import { COMMAND_LINE_CONTEXT, contextSpecOf, type ContextStrategy, type StrategyPlace } from '../context/strategy.js';
import type { LatencyModel } from '../loop/latency.js';
import type { StrategyFigures } from '../loop/types.js';
import type { BaselineTruth, RunFigures, RunPair } from '../metrics/population.js';
import type { ModelPricing, PriceTable } from '../pricing/types.js';
import { replayTrace, type ReplayOptions, type RunResult } from '../replay/replay.js';
import { tracePricing } from '../replay/tracePricing.js';
import type { Scenario } from '../scenario/load.js';
import { playSynthetic, prepareScenario, runSynthetic, unbrakedSending, type PreparedScenario } from '../scenario/run.js';
import type { GroundTruth } from '../synthetic/agent.js';
import type { SubagentLimits } from '../tree/engine.js';
import type { Trace } from '../trace/types.js';
import { hasBrakes } from '../report/settings.js';
import { argumentPlace, COMMAND_LINE_MODEL, requirePopulationInputs, type NamedPlace } from '../options/given.js';
import { freezePopulationInputs, inArgumentWords, requirePopulationConfig } from './populationArguments.js';

/** One configuration: the brakes, and what shapes every call (context, cache, model, latency). */
export interface PopulationConfig {
  brakes: BrakeConfig;
  /** `cache` unset: each trace's default (recorded when it carries usage, else off); synthetic runs: off. */
  strategy: ContextStrategy;
  /**
   * Where `strategy` was written, to name it in a complaint. Default: populationRuns' and baselinesOf's
   * own argument (`<populationRuns arguments>` field `config.strategy`); the CLI's commands, `--context`.
   */
  strategyPlace?: StrategyPlace;
  /** Price every run as if made on this model (default: each run's own). */
  model?: string;
  /** Where `model` was given, to name an unknown one: by default as `strategyPlace` (`config.model`; the CLI's, `--model`). */
  modelPlace?: NamedPlace;
  /** Where `brakes.maxOutputTokens` was given, named when a scenario's prompt + that max_tokens cannot fit: by default as `strategyPlace` (`config.brakes.maxOutputTokens`; the CLI's, `--max-output-tokens`). */
  maxOutputTokensPlace?: NamedPlace;
  /** Time for calls and tools a trace records none for (and every synthetic call). */
  latency?: LatencyModel;
  /** `sweep --tree`: limits of each sub-agent on its own (other populations have no sub-agents). */
  subagent?: SubagentLimits;
  /**
   * By the index of a scenario in the population's `scenarios`: the brakes and context its runs take where
   * they are not this configuration's (sweep, calibrate: the file's own settings, the flags and the grid
   * values on top: scenarioBase.ts); absent (or an entry absent): the configuration's own.
   */
  perScenario?: readonly (ScenarioConfig | undefined)[];
}

/** What a scenario's runs take of their own under a configuration (PopulationConfig.perScenario). */
export interface ScenarioConfig {
  brakes: BrakeConfig;
  strategy: ContextStrategy;
  strategyPlace?: StrategyPlace;
}

/** The configuration scenario `k` of a population runs under: the configuration, its `perScenario[k]` on top. */
export function scenarioConfig(config: PopulationConfig, k: number): PopulationConfig {
  const { perScenario, ...rest } = config;
  const own = perScenario?.[k];
  return own === undefined ? (perScenario === undefined ? config : rest) : { ...rest, ...own };
}

/** The configuration with `change` made to its brakes and to each scenario's own (a step cap halved, the brakes lifted). */
export function withBrakes(config: PopulationConfig, change: (brakes: BrakeConfig) => BrakeConfig): PopulationConfig {
  const perScenario = config.perScenario?.map((own) => (own === undefined ? undefined : { ...own, brakes: change(own.brakes) }));
  return { ...config, brakes: change(config.brakes), ...(perScenario === undefined ? {} : { perScenario }) };
}

/** A scenario's synthetic population: runs firstRun .. firstRun+runs−1 of `seed` (the same agents under every configuration). */
export interface ScenarioPopulation {
  scenario: Scenario;
  runs: number;
  seed: number;
  firstRun?: number;
}

/** What a population is made of: recorded traces first, then each scenario's runs, in order. */
export interface PopulationInputs {
  traces?: readonly Trace[];
  scenarios?: readonly ScenarioPopulation[];
}

/** The baseline's figures, and for a synthetic run (or a generated trace: its header's) its ground truth without brakes. */
export interface BaselineFigures extends Pick<RunFigures, 'stopReason' | 'steps' | 'costPico'> {
  truth?: BaselineTruth;
}

/** A run's figures, with the strategy figures (summaries, cache hits lost, skipped actions) where not 0. */
export interface PopulationRunFigures extends RunFigures, Partial<StrategyFigures> {}

/** A run under the configuration and without brakes, with what names it. */
export interface PopulationRun extends RunPair {
  run: PopulationRunFigures;
  /** `file` for a recorded run (`file#k` when the file holds several), `scenario#k` for a synthetic one (as replay names them). */
  source: string;
  /** Synthetic runs: the ground truth of the run under this configuration (src/synthetic/agent.ts). */
  truth?: GroundTruth;
  baseline: BaselineFigures;
}

/** The figures populationMetrics reads, from a replayed or synthetic run, and its strategy figures where not 0. */
export function runFigures(r: Pick<RunResult, Exclude<keyof RunFigures, 'byPredictiveBound'> | 'stopByPredictiveBound'> & Partial<StrategyFigures>): PopulationRunFigures {
  return {
    ...(r.summaryCalls ? { summaryCalls: r.summaryCalls, summaryCostPico: r.summaryCostPico ?? 0 } : {}),
    ...(r.strategyCacheLostTokens ? { strategyCacheLostTokens: r.strategyCacheLostTokens } : {}),
    ...(r.skippedActions ? { skippedActions: r.skippedActions } : {}),
    stopReason: r.stopReason,
    steps: r.steps,
    costPico: r.costPico,
    inputTokens: r.inputTokens,
    cachedInputTokens: r.cachedInputTokens,
    outputTokens: r.outputTokens,
    overshootPico: r.overshootPico,
    ...(r.stopByPredictiveBound === true ? { byPredictiveBound: true } : {}),
  };
}

/** Each run's result with its steps (`rows`) and its model's pricing, as it is made (the rows then let go). */
export type RunObserver = (result: RunResult, pricing: ModelPricing) => void;

/**
 * Every run of the inputs under `config`, paired with its baseline, in input order. `observe`: each run
 * replayed (or run) with its steps kept, and handed over with its pricing (what `project` reads of every
 * run's prompts in the same pass).
 */
export function populationRuns(inputs: PopulationInputs, config: PopulationConfig, prices: PriceTable, observe?: RunObserver): PopulationRun[] {
  requirePopulationInputs('populationRuns', inputs);
  requirePopulationConfig('populationRuns', config);
  freezePopulationInputs(inputs);
  return inArgumentWords('populationRuns', () => configurationRuns(inputs, namedAsArgument('populationRuns', config), prices, observe));
}

/** A configuration given to a library entry point: a strategy or model not placed is named as its `config` argument's field. */
function namedAsArgument(entry: string, config: PopulationConfig): PopulationConfig {
  if (config === null || typeof config !== 'object') return config;
  return { ...config, strategyPlace: config.strategyPlace ?? argumentPlace(entry, 'config.strategy'), modelPlace: config.modelPlace ?? argumentPlace(entry, 'config.model'), maxOutputTokensPlace: config.maxOutputTokensPlace ?? argumentPlace(entry, 'config.brakes.maxOutputTokens') };
}

/**
 * populationRuns as the CLI's commands run it (project, check, sweep, calibrate): a strategy or model not
 * placed is named as their flag (`--context`, `--model`).
 */
export function configurationRuns(inputs: PopulationInputs, config: PopulationConfig, prices: PriceTable, observe?: RunObserver): PopulationRun[] {
  const baselines = configurationBaselines(inputs, config, prices);
  const runs: PopulationRun[] = [];
  const pricings = tracePricings(inputs, config, prices);
  const keepSteps = observe !== undefined;
  (inputs.traces ?? []).forEach((trace, i) => {
    const result = replayTrace(trace, { ...replayOptions(config, prices), pricing: pricings[i]!, brakes: config.brakes, keepSteps });
    observe?.(result, pricings[i]!);
    runs.push({ source: result.source, run: runFigures(result), baseline: baselines[runs.length]! });
  });
  for (const [s, population] of (inputs.scenarios ?? []).entries()) {
    const own = scenarioConfig(config, s);
    const prepared = preparedOf(population, own, prices);
    for (let k = 0; k < population.runs; k++) {
      const { result, truth } = runSynthetic({ ...prepared, brakes: own.brakes, keepSteps }, (population.firstRun ?? 0) + k);
      observe?.(result, prepared.pricing);
      runs.push({ source: result.source, truth, run: runFigures(result), baseline: baselines[runs.length]! });
    }
  }
  return runs;
}

function replayOptions(config: PopulationConfig, prices: PriceTable) {
  return {
    strategy: config.strategy,
    strategyPlace: config.strategyPlace ?? COMMAND_LINE_CONTEXT,
    prices,
    ...(config.model === undefined ? {} : { model: config.model }),
    ...(config.latency === undefined ? {} : { latency: config.latency }),
  };
}

/** Each trace's model pricing (resolved once per inputs and model: the price table is read per model, not per configuration). */
const pricingMemo = new WeakMap<PopulationInputs, WeakMap<PriceTable, Map<string, ModelPricing[]>>>();

function tracePricings(inputs: PopulationInputs, config: PopulationConfig, prices: PriceTable): ModelPricing[] {
  const byTable = memoOf(pricingMemo, inputs, prices);
  const key = config.model ?? '';
  let pricings = byTable.get(key);
  if (pricings === undefined) byTable.set(key, (pricings = (inputs.traces ?? []).map((trace) => tracePricing(trace, { ...replayOptions(config, prices), modelPlace: config.modelPlace ?? COMMAND_LINE_MODEL }))));
  return pricings;
}

/** A scenario population prepared under a configuration (its brakes, context, latency and model). */
export function preparedOf(population: ScenarioPopulation, config: PopulationConfig, prices: PriceTable): PreparedScenario {
  return prepareScenario(population.scenario, {
    prices,
    runs: population.runs,
    seed: population.seed,
    brakes: config.brakes,
    strategy: config.strategy,
    ...(config.strategyPlace === undefined ? {} : { strategyPlace: config.strategyPlace }),
    ...(config.latency === undefined ? {} : { latency: config.latency }),
    ...(config.model === undefined ? {} : { model: config.model }),
    ...(config.modelPlace === undefined ? {} : { modelPlace: config.modelPlace }),
    ...(config.maxOutputTokensPlace === undefined ? {} : { maxOutputTokensPlace: config.maxOutputTokensPlace }),
  });
}

const baselineMemo = new WeakMap<PopulationInputs, WeakMap<PriceTable, Map<string, BaselineFigures[]>>>();

function memoOf<V>(memo: WeakMap<PopulationInputs, WeakMap<PriceTable, Map<string, V>>>, inputs: PopulationInputs, prices: PriceTable): Map<string, V> {
  let byTable = memo.get(inputs);
  if (byTable === undefined) memo.set(inputs, (byTable = new WeakMap()));
  let byKey = byTable.get(prices);
  if (byKey === undefined) byTable.set(prices, (byKey = new Map()));
  return byKey;
}

/** The key of what a recorded run's baseline depends on: everything in the configuration but the brakes. */
export function baselineKey(config: PopulationConfig): string {
  const s = config.strategy;
  const l = config.latency;
  return JSON.stringify([contextSpecOf(s), s.toolResultCap ?? null, s.cache ?? null, config.model ?? null, l ? [l.perCallMs, l.perInputTokenMs, l.perOutputTokenMs, l.perToolCallMs] : null]);
}

/**
 * The key of what a synthetic run's baseline (and its unbraked recording, syntheticRecording.ts) depends
 * on: baselineKey, and the max_tokens its calls send — its provider refuses prompt + max_tokens past the
 * window, so with no brake a run under `--max-output-tokens 100` may go on past where one under 4096 ends.
 * (A recording ignores what its requests ask for: a recorded run's baseline does not depend on it.)
 */
export function syntheticBaselineKey(config: PopulationConfig): string {
  return JSON.stringify([baselineKey(config), maxOutputTokensSent(config.brakes)]);
}

/**
 * Every run's baseline (no brakes) under the configuration's context, model and latency — a synthetic
 * run's sending the configuration's max_tokens — in input order. Memoised per inputs object.
 */
export function baselinesOf(inputs: PopulationInputs, config: PopulationConfig, prices: PriceTable): BaselineFigures[] {
  requirePopulationInputs('baselinesOf', inputs);
  requirePopulationConfig('baselinesOf', config);
  freezePopulationInputs(inputs);
  return inArgumentWords('baselinesOf', () => configurationBaselines(inputs, namedAsArgument('baselinesOf', config), prices));
}

/** baselinesOf as the CLI's commands run it (a place not given: their flag's). */
export function configurationBaselines(inputs: PopulationInputs, config: PopulationConfig, prices: PriceTable): BaselineFigures[] {
  const memo = memoOf(baselineMemo, inputs, prices);
  const scenarios = inputs.scenarios ?? [];
  const key = scenarios.length === 0 ? baselineKey(config) : config.perScenario === undefined ? syntheticBaselineKey(config) : JSON.stringify([baselineKey(config), ...scenarios.map((_, s) => syntheticBaselineKey(scenarioConfig(config, s)))]);
  const known = memo.get(key);
  if (known !== undefined) return known;
  const pricings = tracePricings(inputs, config, prices);
  const baselines: BaselineFigures[] = (inputs.traces ?? []).map((trace, i) => recordedBaseline(trace, { ...replayOptions(config, prices), pricing: pricings[i]! }));
  for (const [s, population] of scenarios.entries()) {
    const baselineOf = syntheticBaselineRunner(preparedOf(population, scenarioConfig(config, s), prices));
    for (let k = 0; k < population.runs; k++) baselines.push(baselineOf((population.firstRun ?? 0) + k));
  }
  memo.set(key, baselines);
  return baselines;
}

/** Whether `brakes` hold a brake, anything a baseline runs without: `maxOutputTokens` is none (what requests carry; unbrakedSending sends it). */
export function holdsBrake(brakes: BrakeConfig): boolean {
  return hasBrakes({ ...brakes, maxOutputTokens: undefined });
}

/**
 * A recorded run's baseline: replayed with NO_BRAKES under `options` (the context, model, pricing and latency
 * its braked replay takes), its ground truth its header's when `loopcost generate` wrote it (replay's too).
 */
export function recordedBaseline(trace: Trace, options: Omit<ReplayOptions, 'brakes'>): BaselineFigures {
  const r = replayTrace(trace, { ...options, brakes: NO_BRAKES, keepSteps: false });
  return { stopReason: r.stopReason, steps: r.steps, costPico: r.costPico, ...(trace.header.synthetic === undefined ? {} : { truth: trace.header.synthetic }) };
}

/**
 * A synthetic population's baselines, run by run (`run`: the run's index, firstRun counted in): the same agent
 * with no brakes, sending the max_tokens `prepared` sends (unbrakedSending: a provider refuses prompt + max_tokens
 * past the window), with its ground truth. `prepared`: the scenario as its braked runs were prepared.
 */
export function syntheticBaselineRunner(prepared: PreparedScenario): (run: number) => BaselineFigures {
  const unbraked = { ...prepared, brakes: unbrakedSending(prepared.brakes), keepSteps: false };
  return (run) => {
    // Played without its report's run (runSynthetic's): a baseline reads its stop, steps, cost and ground truth.
    const { outcome, truth } = playSynthetic(unbraked, run);
    return { stopReason: outcome.stop.reason, steps: outcome.steps, costPico: outcome.costPico, truth };
  };
}
