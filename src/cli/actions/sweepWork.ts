/**
 * What `sweep` does with its flags, shared by the command and its worker threads so that both build the
 * same grid, population and rows: flags → a prepared sweep (inputs read, grid checked, prices loaded);
 * a slice of configurations → report rows. Deterministic: the same flags give the same rows, whoever
 * computes them.
 */
import { placePricingIssues } from '../../pricing/issuePlace.js';
import { refuseModesWithoutBrakes } from '../../population/gridModes.js';
import { latencyFromSpec, RECORDED_PRESET, type BrakeFlags, type ContextFlags } from '../../flags/settingsFlags.js';
import { priceOptionsFromFlags, type PriceFlags, type ReadFlags } from '../parseFlags.js';
import { UserError } from '../../errors.js';
import { shareFlagValue } from '../../io/numberText.js';
import { loadPriceTable } from '../../pricing/index.js';
import type { PriceTable } from '../../pricing/types.js';
import { contextTokenSums, type ContextTokenCurves, type ContextTokenSums } from '../../population/contextTokens.js';
import type { PriceGapCheck } from '../../pricing/recordedCost.js';
import { checkGridSize, configurationOf, gridConfigurations, gridModels, parseGrid, SUBAGENT_GRID_KEYS, type FixedSettings, type GridAxis, type GridConfiguration } from '../../population/grid.js';
import { checkGridStrategies } from '../../population/gridStrategies.js';
import { withBrakes, type ScenarioPopulation } from '../../population/run.js';
import { scenarioBaseOf, withScenarioBases } from '../../population/scenarioBase.js';
import type { BrakeConfig } from '../../brakes/config.js';
import type { BadInput } from '../../import/inputSet.js';
import type { BroughtIn, UnreadInput } from '../../io/collectInputs.js';
import { SweepPopulation, sweepMetrics, type SweepMetrics } from '../../population/sweep.js';
import { countedRow } from '../../population/recommend.js';
import { TreePopulation, treeSweepMetrics } from '../../population/treeSweep.js';
import { allTrees, sessionTrees, type SessionTree } from '../../tree/group.js';
import { checkTreeInputs, recordedPresetRefused, subagentLimitsFromFlags, type TreeFlags } from './treeFlags.js';
import { rowsOf } from './sweepTook.js';
import type { PricedRunKind } from './pricedRunKinds.js';
import { COMMAND_LINE_CONTEXT, type CacheMode } from '../../context/strategy.js';
import { COMMAND_LINE_MODEL } from '../../options/given.js';
import { defaultCacheMode } from '../../replay/replay.js';
import type { HalfStepCap, SweepRow } from '../../report/sweepReport.js';
import type { Trace } from '../../trace/types.js';
import type { UnrecordedInTree } from '../../report/warnings.js';
import { scenarioPricings, type ScenarioInput } from '../../scenario/replayScenarios.js';
import type { CliIO } from '../io.js';
import type { ByteRange, CountedStart } from '../../io/byteRange.js';
import { readInputs, type GivenFlag } from './inputs.js';
import { allRuns, shareRuns, tracesOf, type AllRuns } from './sweepRead.js';
import type { RunHeaderFacts } from './sweepHeaderFacts.js';
import { syntheticRunFlags } from './sweepReproduce.js';

export type SweepFlags = BrakeFlags &
  ContextFlags &
  PriceFlags &
  ReadFlags &
  TreeFlags & {
    grid?: string[];
    force?: boolean;
    targetCompletion?: string;
    workers?: string;
    shard?: string;
    format?: string;
    model?: string;
    out?: string;
    reportDir?: string;
    latencyModel?: string;
    runs?: string;
    seed?: string;
    /** `project`: its --seed also seeds the simulated days (flagChecks.ts warnScenarioFlags). */
    seedSeedsProjection?: boolean;
    wide?: boolean;
    perRun?: boolean;
  };

export interface PreparedSweep extends SweepSetup {
  population: SweepPopulation;
  /** `--tree`: the session trees (each one run of the population; `population` then holds no traces). */
  trees?: TreePopulation;
  /** Every run read (also with --tree): what worker threads are sent instead of reading the inputs again. */
  traces: Trace[];
  /** A share's bad files, set aside (the command reports them for every share together). */
  skipped: BadInput[];
  /** Each cache the runs read take without one given (defaultCacheMode), once: what the settings say they took (sweepTook). */
  recordedCaches: CacheMode[];
  /** Every trace file read on this thread: its bad files refused or listed once the runs are tallied (sweepDrop.ts). */
  read?: AllRuns;
}

const BRAKE_FLAG_KEYS: (keyof BrakeFlags)[] = ['preset', 'maxSteps', 'maxCost', 'budgetMode', 'timeout', 'maxRepeat', 'repeatMode', 'repeatAction', 'maxSameError', 'sameErrorMode', 'maxTokens', 'maxBacktracks', 'contextWindow', 'maxOutputTokens'];

/**
 * `--target-completion R`: a rate above 0, at most 1 (`0.9`), or a percentage (`90%`), read by the share rule
 * every share flag reads (io/numberText.ts shareFlagValue: `9e-1`, `90 %` too). 0 is refused: it asks no rate
 * (any configuration that completes a run reaches it); a rate up to 1/runs asks one completed run.
 */
export function targetCompletionOf(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  return shareFlagValue(value, {
    flag: '--target-completion',
    accepts: (share) => share > 0 && share <= 1,
    notA: 'is not a completion rate',
    hint: 'write a rate above 0, at most 1 (0.9) or a percentage (90%)',
    zeroNot: 'asks for no completion rate: every configuration that completes a run reaches 0',
    smallHint: 'write the share of runs to complete, 0.9 or 90%; the smallest useful one is 1/runs, one run in all: 0.01 for 100 runs',
  });
}

/** A flag given with the grid axis of the same name would do nothing (every configuration takes the axis's value): refused. */
function refuseFlagsTheGridVaries(axes: readonly GridAxis[], given: GivenFlag): void {
  for (const { key } of axes) {
    if (!given(key.replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase()))) continue;
    throw new UserError({ file: '<command line>', field: `--${key}`, code: 'flag_without_effect', message: `does nothing: --grid ${key} gives every configuration its own ${key}`, hint: `drop --${key}, or add its value to --grid ${key}` });
  }
}

/** The grid and the fixed settings, checked before any input is read. */
export function sweepGrid(opts: SweepFlags, given: GivenFlag): { axes: GridAxis[]; fixed: FixedSettings; count: number } {
  if (opts.preset === RECORDED_PRESET) throw recordedPresetRefused(opts.tree === true, "every tree here is held to the same brakes (each of a sweep's configurations; a projection's one)");
  const axes = parseGrid(opts.grid ?? []);
  refuseFlagsTheGridVaries(axes, given);
  const count = checkGridSize(axes, opts.force === true);
  const perAgent = axes.find((axis) => (SUBAGENT_GRID_KEYS as readonly string[]).includes(axis.key));
  if (perAgent !== undefined && opts.tree !== true) throw new UserError({ file: '<command line>', field: `--grid ${perAgent.key}`, code: 'flag_without_effect', message: 'has no effect without --tree', hint: "add --tree; run 'loopcost sweep --help'" });
  const subagent = subagentLimitsFromFlags(opts, 'sweep');
  const brakeFlags: BrakeFlags = {};
  for (const key of BRAKE_FLAG_KEYS) if (opts[key] !== undefined) brakeFlags[key] = opts[key];
  // --context only when given (its default, full, must not override a scenario file's own: scenarioBase.ts).
  const contextFlags: ContextFlags = { ...(opts.context === undefined || !given('context') ? {} : { context: opts.context }), ...(opts.toolResultCap === undefined ? {} : { toolResultCap: opts.toolResultCap }), ...(opts.cache === undefined ? {} : { cache: opts.cache }) };
  const fixed: FixedSettings = {
    brakeFlags,
    contextFlags,
    ...(opts.model === undefined ? {} : { model: opts.model }),
    ...(opts.latencyModel === undefined ? {} : { latency: latencyFromSpec(opts.latencyModel) }),
    ...(subagent === undefined ? {} : { subagent }),
  };
  // Every fixed flag is read (and refused) now, as the first configuration would read it.
  gridConfigurations([], fixed);
  return { axes, fixed, count };
}

/** Every model the sweep prices as, resolved in the table before any work (a refused one names its flag). */
function checkModels(prices: PriceTable, axes: readonly GridAxis[], fixed: FixedSettings): void {
  const named: [string, string][] = [...gridModels(axes).map((m): [string, string] => ['--grid model', m]), ...(fixed.model === undefined ? [] : [['--model', fixed.model] as [string, string]])];
  for (const [field, model] of named) {
    try {
      prices.resolve(model);
    } catch (error) {
      if (!(error instanceof UserError)) throw error;
      // A price file's bad entry stays under the price file (it names who asked for the model); the rest under the flag.
      throw new UserError(placePricingIssues(error.issues, { file: '<command line>', field }).map((issue) => (issue.file === '<command line>' ? { ...issue, code: 'bad_grid' } : issue)));
    }
  }
}

/** The models configurations re-price as (undefined: each run's own). */
function modelsPricedAs(axes: readonly GridAxis[], fixed: FixedSettings): (string | undefined)[] {
  const models = gridModels(axes);
  return models.length > 0 ? models : [fixed.model];
}

/** A sweep's settings, grid and prices, checked, and its inputs listed (trace files not read yet); `runFlags`: the `--runs 300 --seed 3` given with scenario files, what every row's flags start with (sweepReproduce.ts). */
export interface SweepSetup {
  axes: GridAxis[];
  configurations: GridConfiguration[];
  fixed: FixedSettings;
  prices: PriceTable;
  scenarios: ScenarioInput[];
  traceFiles: string[];
  /** With --skip-bad: the pipes and devices a directory or glob brought in, never opened (listed as bad). */
  unread: UnreadInput[];
  /** The files a directory or glob brought in (one of no model call is left out: TraceInputs). */
  broughtIn: BroughtIn;
  targetCompletion?: number;
  runFlags: string;
}

/** What a sweep's header says of the runs it read: how many, each swept strategy's prompt tokens per step (`context` a grid axis), and how the table prices them as recorded. */
export interface SweepRead {
  recordedRuns: number;
  contextTokens?: ContextTokenCurves;
  priceGaps: PriceGapCheck;
  /** The recorded runs' models a configuration's `--context-window model` finds no window for (sweepWarnings.ts recordedWindowless). */
  windowless: string[];
  /** Each cache the recorded runs take without one given (defaultCacheMode), once. */
  recordedCaches: CacheMode[];
  /** The recorded runs counted by what prices them as their own model (pricedRunKinds.ts: the prices block's, the cache warnings'). */
  pricedRuns?: readonly PricedRunKind[];
  /** `--tree`: the trees that started agents with no recording among the inputs (TreePopulation.unrecorded). */
  unrecorded?: readonly UnrecordedInTree[];
  /** What the recorded runs' headers say (import notes, stated strategies: sweepHeaderFacts.ts), counted in the order of the files. */
  headerFacts: RunHeaderFacts;
}

/** Each cache `traces` take without one given (defaultCacheMode: their recorded cache, else off), once. */
export function cachesTaken(traces: readonly Trace[]): CacheMode[] {
  return [...new Set(traces.map(defaultCacheMode))];
}

/** Everything but reading the trace files: flags, grid, prices, scenario files (the same on the command's thread and each worker). */
export function setUpSweep(inputs: readonly string[], opts: SweepFlags, given: GivenFlag, io: CliIO): SweepSetup {
  const { axes, fixed } = sweepGrid(opts, given);
  const { traceFiles, scenarios, unread, broughtIn } = readInputs(inputs, opts, given, io);
  const prices = loadPriceTable(priceOptionsFromFlags(opts));
  checkModels(prices, axes, fixed);
  const pricings = new Map(modelsPricedAs(axes, fixed).map((model) => [model, scenarioPricings(scenarios, prices, model)]));
  // Each scenario file's own settings the base of its runs' configurations.
  const bases = scenarios.map(({ scenario, strategyPlace }) => ({ base: scenarioBaseOf(scenario, fixed, axes), strategyPlace }));
  const configurations = withScenarioBases(gridConfigurations(axes, fixed), fixed, bases);
  refuseModesWithoutBrakes(axes, fixed, configurations);
  checkGridStrategies({ configurations, axes, prices, pricingsOf: (model) => pricings.get(model ?? fixed.model)! });
  if (opts.tree === true) checkTreeInputs(scenarios.length, []);
  const target = targetCompletionOf(opts.targetCompletion);
  return { axes, configurations, fixed, prices, scenarios, traceFiles, unread, broughtIn, ...(target === undefined ? {} : { targetCompletion: target }), runFlags: syntheticRunFlags(opts, scenarios.length) };
}

/**
 * A unit of the population taken off the queue (sweepUnits.ts): a trace file (as TraceInputs lists it),
 * or a range of each scenario's runs. `range`: only the runs of that byte range of its one file (sweepSplit.ts).
 */
export interface SweepShare {
  files: string[];
  scenarioRuns: { firstRun: number; runs: number }[];
  range?: ByteRange;
}

/**
 * Reads the inputs and prepares the sweep: every trace file, or the runs the command already read
 * (`from.traces`, sent to a worker), or a share of the population (`from.share`: its files read with
 * bad ones set aside in `skipped`, which the command reports for every share together; a byte range of
 * a file counted on from `from.counted`, what its thread counted of the file before). `from.setup`: the
 * command's setUpSweep, already done. Every trace file read here leaves its bad files to be refused or
 * listed after the tally (`read`: sweepDrop.ts tallyDropping, which `from.read` hands back on a re-tally).
 */
export async function prepareSweep(inputs: readonly string[], opts: SweepFlags, given: GivenFlag, io: CliIO, from?: { traces: Trace[]; setup?: SweepSetup; read?: AllRuns } | { share: SweepShare; setup?: SweepSetup; counted?: CountedStart } | { setup: SweepSetup }): Promise<PreparedSweep> {
  const setup = from !== undefined && 'setup' in from && from.setup !== undefined ? from.setup : setUpSweep(inputs, opts, given, io);
  const share = from !== undefined && 'share' in from ? from.share : undefined;
  let traces: Trace[];
  let skipped: BadInput[] = [];
  let read = from !== undefined && 'read' in from ? from.read : undefined;
  if (from !== undefined && 'traces' in from) traces = from.traces;
  else if (share === undefined) traces = tracesOf((read = await allRuns(setup, opts)));
  else ({ traces, skipped } = await shareRuns({ share, setup, opts }, from !== undefined && 'counted' in from ? from.counted : undefined));
  const trees = opts.tree === true ? new TreePopulation(treesOf(traces), setup.prices) : undefined;
  const populations: ScenarioPopulation[] = setup.scenarios.map(({ scenario, settings }, k) => ({ scenario, runs: settings.runs, seed: settings.seed, ...(share === undefined ? {} : share.scenarioRuns[k]!) }));
  return {
    ...setup,
    population: new SweepPopulation(trees === undefined ? traces : [], populations),
    ...(trees === undefined ? {} : { trees }),
    traces,
    skipped,
    recordedCaches: cachesTaken(traces),
    ...(read === undefined ? {} : { read }),
  };
}

/** With `context` a grid axis and recorded runs: the curves' sums over `traces` (contextTokens.ts). */
export function contextSumsOf(setup: SweepSetup, traces: readonly Trace[]): ContextTokenSums | undefined {
  const axis = setup.axes.find((a) => a.key === 'context');
  if (axis === undefined || traces.length === 0) return undefined;
  const strategies = axis.values.map((value) => ({ spec: value, strategy: configurationOf({ context: value }, setup.fixed).config.strategy }));
  // Named as the command line gives them (the sweep names a strategy's complaint `--grid context`: strategyErrorInGrid).
  const options = { modelPlace: COMMAND_LINE_MODEL, strategyPlace: COMMAND_LINE_CONTEXT, ...(setup.fixed.model === undefined ? {} : { model: setup.fixed.model }), ...(setup.fixed.latency === undefined ? {} : { latency: setup.fixed.latency }) };
  return contextTokenSums(traces, strategies, setup.prices, options);
}

/** The session trees of the runs; a run without `header.agent` is a tree of one agent (as replay --tree reads them). */
function treesOf(traces: readonly Trace[]): SessionTree[] {
  return allTrees(sessionTrees(traces));
}

/** Each configuration's figures: over session trees with --tree, else over the runs. */
function metricsOf(prepared: PreparedSweep, configs: readonly GridConfiguration['config'][]): SweepMetrics[] {
  return prepared.trees === undefined ? sweepMetrics(prepared.population, configs, prepared.prices) : treeSweepMetrics(prepared.trees, configs);
}

/** The report rows of configurations [from, to): figures, and with a target the halved step cap of each that reaches it. */
export function sweepRows(prepared: PreparedSweep, range: { from: number; to: number }): SweepRow[] {
  const slice = prepared.configurations.slice(range.from, range.to);
  const rows = rowsOf(slice, metricsOf(prepared, slice.map((c) => c.config)), { tree: prepared.trees !== undefined, took: prepared });
  const halved = halvedCaps(slice, rows, prepared.targetCompletion);
  addHalfStepCaps(rows, halved, metricsOf(prepared, halved.map((h) => h.config)));
  return rows;
}

/** The step cap a configuration's runs take: its own, else a scenario file's own (perScenario: scenarioBase.ts). */
function stepCapOf(config: GridConfiguration['config']): number | undefined {
  return config.brakes.maxSteps ?? config.perScenario?.find((own) => own?.brakes.maxSteps !== undefined)?.brakes.maxSteps;
}

/** Each step cap halved (brakes without one kept). */
const halveCap = (brakes: BrakeConfig): BrakeConfig => (brakes.maxSteps === undefined ? brakes : { ...brakes, maxSteps: Math.max(1, Math.floor(brakes.maxSteps / 2)) });

/** With a target: the rows (by index) that reach it (as the recommendation counts completion: recommend.ts countedRow) with a step cap (a flag's, a grid value's or a scenario file's), and each configuration with its caps halved. */
export function halvedCaps(slice: readonly GridConfiguration[], rows: readonly SweepRow[], target: number | undefined): { i: number; config: GridConfiguration['config'] }[] {
  if (target === undefined) return [];
  const reaches = (row: { completionRate: number; completed: number }) => row.completionRate >= target && row.completed > 0;
  return slice.flatMap((c, i) => (stepCapOf(c.config) !== undefined && reaches(countedRow(rows[i]!)) ? [{ i, config: withBrakes(c.config, halveCap) }] : []));
}

/** The halved configurations' figures into their rows. */
export function addHalfStepCaps(rows: SweepRow[], halved: readonly { i: number; config: GridConfiguration['config'] }[], metrics: readonly SweepMetrics[]): void {
  halved.forEach((h, k) => {
    const m = metrics[k]!;
    const half: HalfStepCap = { maxSteps: stepCapOf(h.config)!, completed: m.completed, completionRate: m.completionRate, costUsd: m.costUsd, ...(m.tasksDone === undefined ? {} : { done: m.tasksDone.done, doneRate: m.tasksDone.doneRate }) };
    rows[h.i]!.halfStepCap = half;
  });
}
