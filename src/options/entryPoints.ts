/**
 * The options of the library's replay entry points (replayTrace, runScenario, replayTree, treeReplayer; runAgentTree's: liveTree.ts),
 * checked by the rules runAgentLoop's are (rules.ts) before any work: one UserError naming every field.
 * Each list of keys is held complete by the compiler, so an option the entry point gains is known here.
 */
import { MAX_SCENARIO_RUNS } from '../io/limits.js';
import type { ReplayInput } from '../replay/replay.js';
import type { RunScenarioOptions } from '../scenario/run.js';
import type { TreeReplayOptions } from '../tree/replayTree.js';
import {
  booleanIssue,
  brakeIssues,
  choiceIssue,
  OptionIssues,
  countFromZeroIssue,
  latencyIssues,
  modelNameIssue,
  priceTableIssue,
  pricingIssue,
  strategyIssues,
  treeSubagentLimitIssues,
  type Issue,
  type ListsEvery,
  validateOptions,
} from './rules.js';

const REPLAY_KEYS = ['brakes', 'strategy', 'strategyPlace', 'prices', 'model', 'keepSteps', 'pricing', 'latency', 'engine', 'scratch'] as const;
const SCENARIO_KEYS = ['prices', 'runs', 'seed', 'brakes', 'strategy', 'strategyPlace', 'latency', 'model', 'keepSteps', 'firstRun'] as const;
/** treeReplayer's: a tree's settings but its brakes (given to each replay). */
const REPLAYER_KEYS = ['subagentLimits', 'subagent', 'strategy', 'strategyPlace', 'prices', 'model', 'latency'] as const;
const TREE_KEYS = ['brakes', ...REPLAYER_KEYS] as const;
const LISTED: [
  ListsEvery<ReplayInput, typeof REPLAY_KEYS>,
  ListsEvery<RunScenarioOptions, typeof SCENARIO_KEYS>,
  ListsEvery<TreeReplayOptions, typeof TREE_KEYS>,
  ListsEvery<Omit<TreeReplayOptions, 'brakes'>, typeof REPLAYER_KEYS>,
] = [true, true, true, true];
void LISTED;

/** replayTrace: brakes, a strategy, a price table (or the model's prices), and the optional settings. */
export function validateReplayOptions(options: unknown): void {
  validateOptions('replayTrace', options, REPLAY_KEYS, (issue, o) => {
    // Required, as its type says: left out, the run was replayed with no brakes, silently.
    if (o.brakes === undefined) issue('brakes', 'missing_field', 'is missing', 'brake settings, e.g. { maxSteps: 12 } or REFERENCE_PRESET; {} for no brakes');
    brakeIssues(issue, o.brakes);
    strategyIssues(issue, o.strategy, 'strategy', true);
    pricingIssue(issue, 'pricing', o.pricing, false);
    // The table prices the run unless its prices are given; a summary model=X is priced from it either way.
    const needsTable = o.pricing === undefined || (o.strategy as ReplayInput['strategy'] | undefined)?.summary?.model !== undefined;
    if (o.prices !== undefined || needsTable) priceTableIssue(issue, 'prices', o.prices);
    modelNameIssue(issue, 'model', o.model);
    latencyIssues(issue, o.latency);
    booleanIssue(issue, 'keepSteps', o.keepSteps);
    choiceIssue(issue, 'engine', o.engine, ['compiled', 'readable'], 'leave it out for compiled');
  });
}

/** runScenario (and every other start of a scenario's runs): runs (a slice of them: first run and count), seed, and the settings. */
export function validateScenarioOptions(options: unknown): void {
  validateOptions('runScenario', options, SCENARIO_KEYS, (issue, o) => {
    priceTableIssue(issue, 'prices', o.prices);
    // 0 runs: an empty slice (a sweep's worker given none of a scenario's runs); a file and --runs take 1 or more.
    countFromZeroIssue(issue, 'runs', o.runs, "leave it out for the file's runs, else 100");
    if (typeof o.runs === 'number' && Number.isSafeInteger(o.runs) && o.runs > MAX_SCENARIO_RUNS) {
      issue('runs', 'too_large', `${o.runs} is more than ${MAX_SCENARIO_RUNS.toLocaleString('en-US')}, the most runs a scenario is run for (as a file's runs:)`, `give at most ${MAX_SCENARIO_RUNS}`);
    }
    countFromZeroIssue(issue, 'seed', o.seed, "leave it out for the file's seed, else 1");
    countFromZeroIssue(issue, 'firstRun', o.firstRun, 'the first run’s index, from 0');
    brakeIssues(issue, o.brakes);
    strategyIssues(issue, o.strategy, 'strategy');
    modelNameIssue(issue, 'model', o.model);
    latencyIssues(issue, o.latency);
    booleanIssue(issue, 'keepSteps', o.keepSteps);
  });
}

/** replayTree, replayTrees: the tree's brakes, each sub-agent's limits, a strategy and a price table. */
export function validateTreeOptions(options: unknown, entry = 'replayTree'): void {
  validateOptions(entry, options, TREE_KEYS, (issue, o) => {
    brakeIssues(issue, o.brakes);
    treeSettingIssues(issue, o);
  });
}

/** treeReplayer: replayTree's options but the brakes (each replay is given its own: validateReplayerBrakes). */
export function validateTreeReplayerOptions(options: unknown): void {
  validateOptions('treeReplayer', options, REPLAYER_KEYS, treeSettingIssues);
}

/** The brakes a tree replayer replays under, by replayTree's rule; checked at every replay (about 0.5 µs: nothing beside a replay). */
export function validateReplayerBrakes(brakes: unknown): void {
  const issues = new OptionIssues('<treeReplayer brakes>');
  brakeIssues(issues.add, brakes);
  issues.throwIfAny();
}

/** A tree's settings but its brakes: each sub-agent's limits, the strategy, the price table, the model and latency. */
function treeSettingIssues(issue: Issue, o: Record<string, unknown>): void {
  treeSubagentLimitIssues(issue, o);
  strategyIssues(issue, o.strategy, 'strategy', true);
  priceTableIssue(issue, 'prices', o.prices);
  modelNameIssue(issue, 'model', o.model);
  latencyIssues(issue, o.latency);
}
