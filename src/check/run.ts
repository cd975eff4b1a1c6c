/**
 * One scenario checked: its runs (the recorded traces it names, then its synthetic population) under its
 * settings, each paired with its no-brakes baseline by the population runner (src/population/run.ts),
 * the population figures (src/metrics/population.ts) and every expectation held against them.
 */
import { completesWithoutBrakes, isFalseStop, populationTally, tallyMetrics, type PopulationMetrics } from '../metrics/population.js';
import { stopCodeOf } from '../kernel/stopCodes.js';
import { configurationRuns, type PopulationConfig, type PopulationRun } from '../population/run.js';
import { defaultCacheMode } from '../replay/replay.js';
import { strategyTotals, type StrategyTotals } from '../population/sweep.js';
import type { PriceTable } from '../pricing/types.js';
import { reportSettings, type ReportSettings } from '../report/settings.js';
import type { Scenario } from '../scenario/load.js';
import type { Trace } from '../trace/types.js';
import { evaluateExpectations, type CheckedRun, type ExpectationResult } from './evaluate.js';
import type { CheckInput } from './inputs.js';
import { ResolvedPrices } from './modelPrices.js';
import { argumentPlace, optionPlace, type NamedPlace } from '../options/given.js';
import { requireCheckArguments } from '../options/entryArguments.js';
import { subagentLimitsSpec } from '../report/settings.js';
import type { UnrecordedInTree } from '../report/warnings.js';
import { treeRuns, type CheckTree } from './treeRuns.js';
import { keepRuns } from './noise.js';
import { agentsOf, keepAgents } from './pairedAgents.js';
import type { WorstCase } from '../population/worstCase.js';
import { scenarioWorstCase } from './worstCase.js';
import { withFileModel } from './fileModel.js';
import { appendAll } from '../appendAll.js';
import { keepExpectationLines } from './expectationLines.js';
import { expectedTasksDone } from './tasksDone.js';

export interface ScenarioCheck {
  /** The scenario file. */
  source: string;
  /** Its `name`, else the file. */
  name: string;
  settings: ReportSettings;
  recordedRuns: number;
  syntheticRuns: number;
  /** The seed of the synthetic runs (present when there are any). */
  seed?: number;
  /** The models the runs were priced at (each run's own, or `--model`), sorted. */
  models: string[];
  /** The context window of each of `models` the price table knows (check/contextLimitLoosened.ts: `context-window=model` judged as a number). */
  contextWindows?: Record<string, number>;
  metrics: PopulationMetrics;
  /** The runs that complete without brakes (with ground truth: whose task is done without brakes), as the tally counted them: the false-stop rate's denominator (rareRates.ts). */
  baselineCompleted?: number;
  /** Summary calls and cost, cache hits lost to the strategy, skipped actions: present when one is not 0. */
  strategy?: StrategyTotals;
  results: ExpectationResult[];
  /** `check --tree`: its recorded runs judged as session trees (`recordedRuns` counts the trees), with these per-agent limits. */
  tree?: CheckedTrees;
  /** The most one run (under --tree, one tree) can cost under its brakes, as `project` says it (worstCase.ts); a baseline holds it. */
  worstCase?: WorstCase;
}

/** What a check under --tree says of a scenario's trees; `unrecorded`: agents they started with no recording (warned of). */
export interface CheckedTrees {
  sessionTrees: number;
  subagentLimits: string;
  unrecorded: UnrecordedInTree[];
}

/** A run as its expectations read it: whether it counts toward false stops and is one, by the rule the population figures count them by (groundTruth.ts). */
function checkedRun(run: PopulationRun): CheckedRun {
  const behaviour = run.truth === undefined ? undefined : (run.truth.name ?? run.truth.behaviour);
  const baseline = { stop: stopCodeOf(run.baseline.stopReason), truth: run.baseline.truth };
  const judged = { baselineCompleted: completesWithoutBrakes(baseline), falseStop: isFalseStop(stopCodeOf(run.run.stopReason), run.run.steps, baseline) };
  return { source: run.source, ...(behaviour === undefined ? {} : { behaviour }), stopReason: run.run.stopReason, steps: run.run.steps, costPico: run.run.costPico, ...judged };
}

/** How checkScenario and checkRuns price the runs, and where that was given. */
export interface CheckRunOptions {
  /** Every run re-priced as this model (default: each run's own, the population's file's). */
  model?: string;
  /** Where `model` was given, to name an unknown one: by default the entry point's own option (`<checkRuns options>` field `model`); the CLI passes `--model`. */
  modelPlace?: NamedPlace;
}

/** The options as given (a bare string is `model`, the former form, kept), `model` placed at the entry point's own option unless a place came with it. */
function placedOptions(entry: string, options: CheckRunOptions | string | undefined): CheckRunOptions {
  const given = typeof options === 'string' ? { model: options } : (options ?? {});
  return { ...given, modelPlace: given.modelPlace ?? optionPlace(entry, 'model') };
}

/**
 * The scenario's runs under its settings (`options.model`: every run re-priced as it), paired with their
 * baselines. A strategy is named where `input.strategyPlace` says (the file's `context`, or `--context`),
 * else as the `input` field that holds it; an unknown model where `options.modelPlace` says, else as this
 * function's own option.
 */
export function checkRuns(input: CheckInput, traces: readonly Trace[], prices: PriceTable, options?: CheckRunOptions | string): PopulationRun[] {
  requireCheckArguments('checkRuns', { input, traces, prices, options });
  return runsOf({ input, traces, prices, options: placedOptions('checkRuns', options), entry: 'checkRuns' });
}

/** What checkRuns and checkScenario check: `entry` names a strategy placed nowhere (none: the CLI's `--context`). */
interface Checked {
  input: CheckInput;
  traces: readonly Trace[];
  prices: PriceTable;
  options: CheckRunOptions;
  entry?: string;
  /** `check --tree`: the recorded runs as session trees (treeRuns.ts); what they were is noted in `trees`. */
  tree?: CheckTree;
  trees?: CheckedTrees;
}

function runsOf({ input, traces, prices, options, entry, tree, trees }: Checked): PopulationRun[] {
  const { scenario, settings } = input;
  // A traces-only scenario's `model:` re-prices its recorded runs as --model does (fileModel.ts).
  const { model, modelPlace } = withFileModel(options, scenario);
  const placed = (field: string) => {
    const place = input.strategyPlace ?? (entry === undefined ? undefined : argumentPlace(entry, `input.${field}`));
    return place === undefined ? {} : { strategyPlace: place };
  };
  // The max_tokens comes with the brakes of `input.settings` (none placed: the CLI's `--max-output-tokens`).
  const sent = entry === undefined ? {} : { maxOutputTokensPlace: argumentPlace(entry, 'input.settings.brakes.maxOutputTokens') };
  const common = { brakes: settings.brakes, ...sent, ...(settings.latency === undefined ? {} : { latency: settings.latency }), ...(model === undefined ? {} : { model }), ...(modelPlace === undefined ? {} : { modelPlace }) };
  const recorded = { ...common, strategy: input.traceStrategy, ...placed('traceStrategy') };
  const runs = traces.length === 0 ? [] : tree === undefined ? configurationRuns({ traces }, recorded, prices) : treesOf(traces, recorded, { prices, tree, trees: trees! });
  if (scenario.population !== undefined) {
    const population = { scenario: scenario as Scenario, runs: settings.runs, seed: settings.seed };
    appendAll(runs, configurationRuns({ scenarios: [population] }, { ...common, strategy: settings.strategy, ...placed('settings.strategy') }, prices));
  }
  return runs;
}

/** The recorded runs as session trees (treeRuns.ts), what they were noted in `trees`. */
function treesOf(traces: readonly Trace[], config: PopulationConfig, args: { prices: PriceTable; tree: CheckTree; trees: CheckedTrees }): PopulationRun[] {
  const { runs, unrecorded } = treeRuns(traces, config, args);
  Object.assign(args.trees, { sessionTrees: runs.length, subagentLimits: subagentLimitsSpec(args.tree.subagent), unrecorded });
  return runs;
}

/** One scenario checked: checkRuns' runs, their figures and every expectation held against them (`options` as checkRuns', named as this function's own). */
export function checkScenario(input: CheckInput, traces: readonly Trace[], prices: PriceTable, options?: CheckRunOptions | string): ScenarioCheck {
  requireCheckArguments('checkScenario', { input, traces, prices, options });
  return scenarioChecked({ input, traces, prices, options: placedOptions('checkScenario', options), entry: 'checkScenario' });
}

/**
 * checkScenario as `loopcost check` runs it: a model or strategy placed nowhere is named as its flag
 * (`--model`, `--context`); with `tree` (`--tree`), its recorded runs judged as session trees.
 */
export function checkScenarioAsCommand(input: CheckInput, traces: readonly Trace[], prices: PriceTable, model?: string, tree?: CheckTree): ScenarioCheck {
  return scenarioChecked({ input, traces, prices, options: model === undefined ? {} : { model }, ...(tree === undefined ? {} : { tree }) });
}

function scenarioChecked(checked: Checked): ScenarioCheck {
  const { input, traces } = checked;
  const { model } = withFileModel(checked.options, input.scenario);
  const priced = new ResolvedPrices(checked.prices);
  const trees: CheckedTrees = { sessionTrees: 0, subagentLimits: 'none', unrecorded: [] };
  const runs = runsOf({ ...checked, prices: priced, trees });
  const tally = populationTally(runs);
  const metrics = tallyMetrics(tally);
  const { scenario, settings } = input;
  const tasksDone = expectedTasksDone(scenario, runs, tally);
  const recordedRuns = runs.filter((run) => run.truth === undefined).length;
  const strategy = strategyTotals(runs.map((run) => run.run));
  const check: ScenarioCheck = {
    source: scenario.source,
    name: scenario.name ?? scenario.source,
    settings: reportSettings({
      brakes: settings.brakes,
      strategy: scenario.population === undefined ? input.traceStrategy : settings.strategy,
      ...(settings.latency === undefined ? {} : { latency: settings.latency }),
      ...(model === undefined ? {} : { model }),
      // What the runs took of the cache and latency no flag gave: the traces' own (defaultCacheMode), the population's its file's.
      took: { recordedCaches: traces.map(defaultCacheMode), scenarios: scenario.population === undefined ? [] : [settings] },
    }),
    recordedRuns,
    syntheticRuns: runs.length - recordedRuns,
    ...(runs.length > recordedRuns ? { seed: settings.seed } : {}),
    models: [...new Set(priced.rows().map((row) => row.model))].sort(),
    contextWindows: contextWindowsOf(priced),
    metrics,
    baselineCompleted: tally.baselineCompleted,
    ...(Object.keys(strategy).length > 0 ? { strategy } : {}),
    results: evaluateExpectations(scenario.expect ?? {}, runs.map(checkedRun), { ...metrics, tasksDone }),
    ...(checked.tree === undefined || traces.length === 0 ? {} : { tree: trees }),
    worstCase: scenarioWorstCase(input, traces, { prices: checked.prices, ...(model === undefined ? {} : { model }) }),
  };
  // The runs kept for the noise of its figures, drawn when a baseline is written or compared (noise.ts).
  keepRuns(check, runs, settings.seed, scenario.population === undefined ? undefined : (scenario as Scenario));
  // Each expectation's line in the file, for --junit's testcases (expectationLines.ts).
  keepExpectationLines(check, scenario);
  // What re-runs its synthetic agents on a later check's draws, stored in a baseline (pairedAgents.ts).
  keepAgents(check, agentsOf(scenario, settings, model, traces.length > 0 ? input.traceStrategy : undefined), { traces, strategy: input.traceStrategy });
  return check;
}

/** The context window of each model `priced` resolved, where the table knows one. */
function contextWindowsOf(priced: ResolvedPrices): Record<string, number> {
  const windows: Record<string, number> = {};
  for (const row of priced.rows()) {
    const tokens = priced.resolve(row.model, row.provider).contextWindow;
    if (tokens !== undefined) windows[row.model] = tokens;
  }
  return windows;
}
