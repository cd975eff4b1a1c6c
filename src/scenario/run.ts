/**
 * Runs a scenario's synthetic population through the one loop (closed-loop: each agent sees the prompt
 * the context strategy built), under the brakes, context and prices given. Run i's randomness depends
 * only on (seed, i), so the same run under two settings is the same agent.
 */
import { filledBrakeConfig, NO_BRAKES, type BrakeConfig, type BrakeSettings } from '../brakes/config.js';
import { COMMAND_LINE_CONTEXT, type CacheMode, type ContextStrategy, type StrategyPlace } from '../context/strategy.js';
import { flattenPrices } from '../kernel/prices.js';
import type { LatencyModel } from '../loop/latency.js';
import { runLoop } from '../loop/run.js';
import type { LoopOptions, RunOutcome, StepSource } from '../loop/types.js';
import { sourceFacts, type SourceFacts } from '../loop/sourceFacts.js';
import { validateScenarioOptions } from '../options/entryPoints.js';
import type { ModelPricing, PriceTable } from '../pricing/types.js';
import { checkSummaryTrigger, runResultOf, summaryPricingOf, type RunResult } from '../replay/replay.js';
import type { AgentEnv, GroundTruth, SyntheticAgent } from '../synthetic/agent.js';
import { createAgent } from '../synthetic/behaviours/index.js';
import { agentEndingWords } from '../synthetic/endingWords.js';
import { drawCount, drawReal } from '../synthetic/distributions.js';
import { drawStepsAndScale } from '../synthetic/jointDraw.js';
import { Rng, STREAM } from '../synthetic/random.js';
import type { CallRecord } from '../trace/types.js';
import type { Scenario } from './load.js';
import type { PopulationEntry } from './schema.js';
import { DEFAULT_HARD_CAP_STEPS, scenarioSettings } from './settings.js';
import { atDrawPlace } from './drawPlace.js';
import { checkFixedPromptFits, fitWordsOf, type FitPlaces } from './promptFit.js';
import { scenarioContextPlace, scenarioPricing } from './scenarioPlaces.js';
import { optionPlace, requireScenario } from '../options/given.js';
import { isObject } from '../options/rules.js';

export { resolveScenarioPricing, scenarioContextPlace, strategyPlaceOf, type ScenarioModelOptions } from './scenarioPlaces.js';

export interface RunScenarioOptions {
  prices: PriceTable;
  /** Default: the file's `runs`, else 100. */
  runs?: number;
  /** Default: the file's `seed`, else 1. */
  seed?: number;
  /** Default: the file's brakes. Any settings, as the CLI's flags (unset modes as theirs). */
  brakes?: BrakeSettings;
  /** Default: the file's context (cache off unless it says on). */
  strategy?: ContextStrategy;
  /** Where `strategy` was written, to name it in a complaint (default: runScenario's `strategy` option; the CLI passes `--context`). */
  strategyPlace?: StrategyPlace;
  /** Default: the file's latency model. */
  latency?: LatencyModel;
  /** Price every run as if made on this model. */
  model?: string;
  keepSteps?: boolean;
  /** The first run's index (a slice of a larger sample: runs first .. first+runs−1). */
  firstRun?: number;
}

/** One synthetic run: its result, and the responses the loop actually sent (for `generate`). */
export interface SyntheticRun {
  result: RunResult;
  truth: GroundTruth;
  entry: PopulationEntry;
  systemTokens: number;
  goalTokens: number;
  calls: CallRecord[];
  ending: SyntheticAgent['ending'];
  /** The cache mode its calls were metered with (SyntheticStart.cache). */
  cache: CacheMode;
}

/** Which population entry run `run` belongs to: a weighted draw from its own stream (indexed loops: it runs once a run, mostly cold). */
export function pickEntry(scenario: Scenario, seed: number, run: number): PopulationEntry {
  const population = scenario.population;
  let total = 0;
  for (let i = 0; i < population.length; i++) total += population[i]!.weight;
  let target = Rng.stream(seed, run, STREAM.pick).next() * total;
  for (let i = 0; i < population.length; i++) {
    const entry = population[i]!;
    if (target < entry.weight) return entry;
    target -= entry.weight;
  }
  // Rounding took it past the last: the last entry with a weight.
  for (let i = population.length - 1; i >= 0; i--) if (population[i]!.weight > 0) return population[i]!;
  return undefined!;
}

// A Recorder states its source's facts (loop/sourceFacts.ts), assigned in its constructor (a class and an interface of one name merge).
interface Recorder extends SourceFacts {}
/** Records what a source returned (every response is sent when no brake refuses it). */
class Recorder implements StepSource {
  readonly calls: CallRecord[] = [];
  constructor(private readonly inner: StepSource) {
    Object.assign(this, sourceFacts(inner));
  }
  next(...args: Parameters<StepSource['next']>) {
    const response = this.inner.next(...args);
    if (response) this.calls.push(response);
    return response;
  }
  exhaustedReason() {
    return this.inner.exhaustedReason();
  }
  refusal() {
    return this.inner.refusal?.();
  }
  toolSkipped(index: number) {
    this.inner.toolSkipped?.(index);
  }
}

function truthLabel(truth: GroundTruth): string {
  const parts = [truth.taskDone ? `task done at step ${truth.doneAtStep}` : 'task not done'];
  if (truth.stuckFromStep !== undefined) parts.push(`stuck from step ${truth.stuckFromStep}`);
  return `synthetic ${truth.name ?? truth.behaviour}: ${parts.join(', ')}`;
}

/** A scenario resolved for running: settings, prices and the hard cap, shared by all its runs. */
export interface PreparedScenario {
  scenario: Scenario;
  seed: number;
  brakes: BrakeConfig;
  strategy: ContextStrategy;
  latency: LatencyModel | undefined;
  pricing: ModelPricing;
  /** `summary:…,model=X`: the summary calls' prices; undefined: the run's model's. */
  summaryPricing: ModelPricing | undefined;
  keepSteps: boolean;
  /** With keepSteps: rows only through this step (LoopOptions.keepStepsThrough). */
  keepStepsThrough?: number;
  hardCapSteps: number;
}

/** Run `run`'s agent and prompt head: what a synthetic run starts from (the loop here, or `serve` answering a real agent). */
export interface SyntheticStart {
  agent: SyntheticAgent;
  entry: PopulationEntry;
  systemTokens: number;
  goalTokens: number;
  /** The cache mode its calls are metered with (a partial hit share: the agent writes the cached tokens). */
  cache: CacheMode;
}

/** A healthy entry with a steps–size correlation draws both from the run's head stream, together. */
function jointStepsAndScale(entry: PopulationEntry, head: Rng): { steps: number; sizeScale: number } | undefined {
  if (entry.behaviour !== 'healthy' || entry.stepsSizeRankCorrelation === undefined || entry.sizeScale === undefined) return undefined;
  return drawStepsAndScale(head, { steps: entry.steps, sizeScale: entry.sizeScale, rankCorrelation: entry.stepsSizeRankCorrelation });
}

/** The agent of run `run` (0-based) of a prepared scenario, before its first call (a draw past the largest count names its field). */
export function syntheticStart(p: PreparedScenario, run: number): SyntheticStart {
  const entry = pickEntry(p.scenario, p.seed, run);
  return atDrawPlace(p.scenario, entry, run, p.seed, () => startOf(p, run, entry));
}

function startOf(p: PreparedScenario, run: number, entry: PopulationEntry): SyntheticStart {
  const { scenario, seed } = p;
  const head = Rng.stream(seed, run, STREAM.head);
  const systemTokens = drawCount(scenario.systemTokens, head) + (scenario.promptOverhead?.fixedTokens ?? 0);
  const goalTokens = scenario.goalTokens === undefined ? 0 : drawCount(scenario.goalTokens, head);
  const joint = jointStepsAndScale(entry, head);
  const sizeScale = joint?.sizeScale ?? (entry.sizeScale === undefined ? undefined : Math.max(0, drawReal(entry.sizeScale, head)));
  const hitShare = scenario.cacheHitShare ?? 1;
  const cacheOn = p.strategy.cache === 'on';
  // Optional fields set when present, not spread in: a start runs this once per run, cold.
  const env: AgentEnv = {
    seed,
    run,
    outputTokens: entry.outputTokens,
    toolResultTokens: entry.toolResultTokens,
    framingTokensPerStep: scenario.promptOverhead?.perStepTokens ?? 0,
    hardCapSteps: p.hardCapSteps,
  };
  if (entry.name !== undefined) env.name = entry.name;
  if (sizeScale !== undefined) env.sizeScale = sizeScale;
  if (p.pricing.contextWindow !== undefined) env.contextWindowTokens = p.pricing.contextWindow;
  if (cacheOn && hitShare < 1) env.cacheShare = { hitShare, prices: flattenPrices(p.pricing) };
  // A provider that serves only part of the prefix: the agent writes the cached tokens on each call.
  const cache: CacheMode = env.cacheShare ? 'recorded' : cacheOn ? 'on' : 'off';
  const params = joint ? { ...entry, steps: { kind: 'fixed' as const, value: joint.steps } } : entry;
  return { agent: createAgent(params, env), entry, systemTokens, goalTokens, cache };
}

/**
 * No brake, and the max_tokens `brakes` has the loop send: a run with nothing to stop it makes the requests
 * the configuration makes, and its provider refuses the same prompt + max_tokens past the window (the
 * unbraked runs a sweep records, and the baselines, of a configuration with `--max-output-tokens`).
 */
export function unbrakedSending(brakes: BrakeConfig): BrakeConfig {
  return brakes.maxOutputTokens === undefined ? NO_BRAKES : { ...NO_BRAKES, maxOutputTokens: brakes.maxOutputTokens };
}


/** A synthetic run played through the loop: its start, its outcome, its agent's ground truth, and (`record`) what it sent. */
export interface PlayedRun {
  start: SyntheticStart;
  outcome: RunOutcome;
  truth: GroundTruth;
  /** What it sent, when recorded. */
  calls: CallRecord[] | undefined;
}

/** Run `run` (0-based) of a prepared scenario through the loop, without its report's run (what a baseline reads: population/run.ts syntheticBaselineRunner; runSynthetic makes the run). */
export function playSynthetic(p: PreparedScenario, run: number, record = false): PlayedRun {
  const start = syntheticStart(p, run);
  const recorder = record ? new Recorder(start.agent) : undefined;
  const source = recorder ?? start.agent;
  const options: LoopOptions = { brakes: p.brakes, strategy: p.strategy, cache: start.cache, pricing: p.pricing, systemTokens: start.systemTokens, goalTokens: start.goalTokens, keepSteps: p.keepSteps };
  if (p.keepStepsThrough !== undefined) options.keepStepsThrough = p.keepStepsThrough;
  if (p.summaryPricing !== undefined) options.summaryPricing = p.summaryPricing;
  if (p.latency !== undefined) options.latency = p.latency;
  const outcome: RunOutcome = atDrawPlace(p.scenario, start.entry, run, p.seed, () => runLoop(source, options));
  return { start, outcome, truth: start.agent.truth(outcome.steps), calls: recorder?.calls };
}

/** Run `run` (0-based) of a prepared scenario. */
export function runSynthetic(p: PreparedScenario, run: number, record = false): SyntheticRun {
  const { scenario } = p;
  const { start, outcome, truth, calls } = playSynthetic(p, run, record);
  const { agent, entry, systemTokens, goalTokens, cache } = start;
  const cacheOn = p.strategy.cache === 'on';
  const result = runResultOf(outcome, {
    source: `${scenario.source}#${run + 1}`,
    recordedModel: scenario.model,
    model: p.pricing.model,
    cache: cacheOn ? 'on' : 'off',
    recordedCalls: outcome.calls,
    recordedOutcome: truthLabel(truth),
  });
  result.task = entry.name ?? entry.behaviour;
  result.synthetic = truth;
  // The agent had nothing more to send: why, in the words serve's 409 past its end uses (synthetic/endingWords.ts).
  if (outcome.stop.reason === 'trace_end') result.stopDetail = agentEndingWords(agent.ending ?? 'hard_cap', p.hardCapSteps);
  return { result, truth, entry, systemTokens, goalTokens, calls: calls ?? [], ending: agent.ending, cache };
}

/** What prepareScenario takes beyond the library's options (see below). */
interface PrepareOnly extends FitPlaces {
  served?: true;
}

/** The library's options apart from prepareScenario's own; what is no object is passed on as given, for validateScenarioOptions to name. */
function splitPrepareOptions(given: RunScenarioOptions & PrepareOnly): PrepareOnly & { options: RunScenarioOptions } {
  if (typeof given !== 'object' || given === null) return { options: given };
  const { served, modelPlace, maxOutputTokensPlace, ...options } = given;
  return { ...(served === undefined ? {} : { served }), modelPlace, maxOutputTokensPlace, options };
}

/**
 * `served` (`serve`, not a library option): a client's requests carry their own max_tokens, so only the
 * prompt alone must fit the window (promptFit.ts); else the max_tokens the brakes send is counted with it.
 * `modelPlace`, `maxOutputTokensPlace` (not library options): where `model` and the brakes' max_tokens were
 * given, named in a refusal (default `--model`, `--max-output-tokens`; runScenario's own options from the library).
 */
export function prepareScenario(scenario: Scenario, given: RunScenarioOptions & PrepareOnly): PreparedScenario & { runs: number; firstRun: number } {
  const { served, modelPlace, maxOutputTokensPlace, options } = splitPrepareOptions(given);
  validateScenarioOptions(options);
  const settings = scenarioSettings(scenario, {
    ...(options.runs === undefined ? {} : { runs: options.runs }),
    ...(options.seed === undefined ? {} : { seed: options.seed }),
  });
  const strategy = options.strategy ?? settings.strategy;
  const brakes = options.brakes === undefined ? settings.brakes : filledBrakeConfig(options.brakes);
  const pricing = scenarioPricing(scenario, options.prices, { model: options.model, modelPlace: modelPlace ?? undefined });
  checkFixedPromptFits(scenario, { pricing, asModel: options.model, ...(served ? {} : { sends: brakes }), words: fitWordsOf({ modelPlace, maxOutputTokensPlace }) });
  const place = options.strategy === undefined ? scenarioContextPlace(scenario) : (options.strategyPlace ?? COMMAND_LINE_CONTEXT);
  const summaryPricing = summaryPricingOf(strategy, options.prices, undefined, place);
  checkSummaryTrigger({ strategy, brakes, pricing, ...(summaryPricing === undefined ? {} : { summaryPricing }) }, place);
  return {
    scenario,
    seed: settings.seed,
    runs: settings.runs,
    firstRun: options.firstRun ?? 0,
    brakes,
    strategy: { ...strategy, cache: strategy.cache ?? 'off' },
    latency: options.latency ?? settings.latency,
    pricing,
    summaryPricing,
    keepSteps: options.keepSteps ?? false,
    hardCapSteps: scenario.hardCapSteps ?? DEFAULT_HARD_CAP_STEPS,
  };
}

/** N synthetic runs of the scenario, closed-loop, as report runs with their ground truth. */
export function runScenario(scenario: Scenario, options: RunScenarioOptions): RunResult[] {
  return [...preparedRuns(prepareNamed('runScenario', scenario, options), false)].map((run) => run.result);
}

/** The runs one at a time, with what each agent sent (`record`) and its prompt head. */
export function* scenarioRuns(scenario: Scenario, options: RunScenarioOptions, record: boolean): Generator<SyntheticRun> {
  yield* preparedRuns(prepareNamed('scenarioRuns', scenario, options), record);
}

/** A library entry point's scenario (refused when missing) and options, a complaint naming them as `entry`'s (the CLI's commands name their flags). */
function prepareNamed(entry: string, scenario: Scenario, options: RunScenarioOptions): ReturnType<typeof prepareScenario> {
  requireScenario(entry, scenario);
  return prepareScenario(scenario, isObject(options) ? { ...options, strategyPlace: options.strategyPlace ?? optionPlace(entry, 'strategy'), modelPlace: optionPlace(entry, 'model'), maxOutputTokensPlace: optionPlace(entry, 'brakes.maxOutputTokens') } : options);
}

function* preparedRuns(prepared: ReturnType<typeof prepareScenario>, record: boolean): Generator<SyntheticRun> {
  for (let i = 0; i < prepared.runs; i++) yield runSynthetic(prepared, prepared.firstRun + i, record);
}
