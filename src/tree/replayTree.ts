/**
 * Session trees under one budget: the library entry points (sweep, whatif and the CLI call these).
 *
 *   const result = replayTree(runsOfOneSession, { brakes, subagentLimits: { maxSteps: 40 }, strategy, prices });
 *   result.totals.costPico, result.agents[i].costPico, result.stopped[0]?.agentId
 *
 * Pricing is resolved per run as `replayTrace` resolves it (its model, or `model`; dated prices as of its
 * recordedAt), and the cache mode is the strategy's, else the run's default.
 */
import { filledBrakeConfig, type BrakeConfig, type BrakeSettings } from '../brakes/config.js';
import type { ContextStrategy, StrategyPlace } from '../context/strategy.js';
import { UserError } from '../errors.js';
import type { LatencyModel } from '../loop/latency.js';
import { validateReplayerBrakes, validateTreeOptions, validateTreeReplayerOptions } from '../options/entryPoints.js';
import { optionPlace, requireTraces } from '../options/given.js';
import type { PriceTable } from '../pricing/types.js';
import { checkSummaryTrigger, defaultCacheMode, summaryPricingOf } from '../replay/replay.js';
import { tracePricing } from '../replay/tracePricing.js';
import { meteredCacheOf, recordedContextPlace, recordedStrategyOf, recordingUnder } from '../replay/recordedStrategy.js';
import type { Trace } from '../trace/types.js';
import { playSessionTree, type SubagentLimits } from './engine.js';
import { sessionTrees, type SessionTree } from './group.js';
import type { TreeResult } from './result.js';
import { requireWholeTree, validateOwnRunBrakes } from './treeArguments.js';

export interface TreeReplayOptions {
  /** The tree's brakes: bind the totals of all its agents (and each call, for the per-call brakes); unset modes as the CLI's. */
  brakes: BrakeSettings;
  /** Limits of each sub-agent on its own (`--subagent-max-steps`, `--subagent-max-cost`), as runAgentLoop's `subagentLimits`. */
  subagentLimits?: SubagentLimits;
  /** @deprecated the old name of `subagentLimits` (runAgentLoop's name, the one kept); accepted for one release. */
  subagent?: SubagentLimits;
  strategy: ContextStrategy;
  /** Where `strategy` was written, to name it in a complaint (default: this entry point's `strategy` option; the CLI passes `--context`). */
  strategyPlace?: StrategyPlace;
  prices: PriceTable;
  /** Re-price every run as this model. */
  model?: string;
  latency?: LatencyModel;
}

/** `resolve` once per run (a tree is replayed under many settings by whatif and sweep). */
function perRun<T>(resolve: (run: Trace) => T): (run: Trace) => T {
  const cache = new WeakMap<Trace, { value: T }>();
  return (run) => {
    let entry = cache.get(run);
    if (entry === undefined) cache.set(run, (entry = { value: resolve(run) }));
    return entry.value;
  };
}

/** What a caller that knows each run's own brakes adds (`replay --tree --preset recorded`: TreeEngineOptions.runBrakesOf). */
export interface OwnRunBrakes {
  runBrakesOf?(run: Trace): BrakeConfig;
}

/**
 * A replayer of one grouped tree under any brakes (pricing resolved once). Its options are checked now,
 * by replayTree's rules (one UserError naming every field, before anything runs), once for every replay
 * it makes; the brakes of each replay by the same rules, at each replay. `own.runBrakesOf`: each run's
 * per-call brakes its own (a sub-agent's as recorded), not the tree's.
 */
export function treeReplayer(tree: SessionTree, options: Omit<TreeReplayOptions, 'brakes'>, own: OwnRunBrakes = {}): (brakes: BrakeSettings) => TreeResult {
  requireWholeTree('treeReplayer', tree);
  validateTreeReplayerOptions(options);
  validateOwnRunBrakes(own);
  const replay = replayerOf(tree, { ...options }, 'treeReplayer', own);
  return (settings) => {
    validateReplayerBrakes(settings);
    return replay(settings);
  };
}

/**
 * treeReplayer, its options already checked (replayTree's, replayTrees' once for every tree) and the brakes its
 * caller's; a model or strategy no table prices is named as `entry`'s option (the CLI resolved its runs' first, naming its flags).
 */
function replayerOf(given: SessionTree, options: Omit<TreeReplayOptions, 'brakes'>, entry: string, own: OwnRunBrakes = {}): (brakes: BrakeSettings) => TreeResult {
  const tree = treeUnder(given, options.strategy);
  const pricingOf = perRun((run) => tracePricing(run, { ...options, modelPlace: optionPlace(entry, 'model') }));
  const strategyPlace = options.strategyPlace ?? optionPlace(entry, 'strategy');
  // A run replayed as its loop ran it (a live recording that states its strategy, under full context or that same strategy): its summary calls priced as that strategy says.
  const ranUnder = perRun((run) => recordedStrategyOf(run, options.strategy));
  const summaryPricing = perRun((run) => {
    const ran = ranUnder(run);
    return ran === undefined ? summaryPricingOf(options.strategy, options.prices, run.header.recordedAt, strategyPlace) : summaryPricingOf(ran, options.prices, run.header.recordedAt, recordedContextPlace(run));
  });
  const cacheOf = (run: Trace) => meteredCacheOf(run, options.strategy.cache ?? defaultCacheMode(run)); // (a rebuilt run's: rebuiltHistory.ts)
  const subagentLimits = options.subagentLimits ?? options.subagent;
  const runBrakesOf = own.runBrakesOf === undefined ? undefined : perRun(own.runBrakesOf);
  return (settings) => {
    const brakes = filledBrakeConfig(settings);
    // A summary trigger no summary call could be answered at is refused before any run, as in a replay of one run.
    for (const run of tree.agents.flatMap((agent) => agent.runs)) {
      if (ranUnder(run) !== undefined) continue; // (its loop made its summary calls: none is refused before the run, as in a replay of it alone)
      const summary = summaryPricing(run);
      checkSummaryTrigger({ strategy: options.strategy, brakes, pricing: pricingOf(run), ...(summary === undefined ? {} : { summaryPricing: summary }) }, strategyPlace);
    }
    const result = playSessionTree(tree, {
      brakes,
      strategy: options.strategy,
      pricingOf,
      cacheOf,
      summaryPricingOf: summaryPricing,
      ...(subagentLimits === undefined ? {} : { subagent: subagentLimits }),
      ...(options.latency === undefined ? {} : { latency: options.latency }),
      ...(runBrakesOf === undefined ? {} : { runBrakesOf }),
    });
    // The agents the tree started that were not recorded: its totals leave them out (the report warns).
    return tree.unrecorded === undefined ? result : { ...result, unrecorded: tree.unrecorded.map((agent) => ({ ...agent })) };
  };
}

/**
 * `tree` as a replay under `strategy` reads it: a run whose recording states a strategy it does not replay as
 * its loop ran it (recordedStrategyOf) has its full history rebuilt, or is refused, as a lone one (recordingUnder).
 */
function treeUnder(tree: SessionTree, strategy: ContextStrategy): SessionTree {
  const read = (run: Trace) => (recordedStrategyOf(run, strategy) === undefined ? recordingUnder(run, strategy) : run);
  if (tree.agents.every((agent) => agent.runs.every((run) => read(run) === run))) return tree;
  return { ...tree, agents: tree.agents.map((agent) => ({ ...agent, runs: agent.runs.map(read) })) };
}

/** Replays the runs of ONE session tree (every run must carry `header.agent` with one `sessionId`). */
export function replayTree(traces: readonly Trace[], options: TreeReplayOptions): TreeResult {
  requireTraces('replayTree', traces);
  validateTreeOptions(options);
  const { trees, loose } = sessionTrees(traces);
  const problem = loose.length > 0 ? `${loose[0]!.source} has no header.agent` : trees.length !== 1 ? `the runs belong to ${trees.length} sessions` : undefined;
  if (problem !== undefined) {
    throw new UserError({ code: 'not_one_tree', message: `replayTree takes the runs of one session tree: ${problem}`, hint: 'group runs with sessionTrees() first' });
  }
  return replayerOf(trees[0]!, options, 'replayTree')(options.brakes);
}

/** Every tree of the runs, replayed; runs without `header.agent` are returned as they are. */
export function replayTrees(traces: Iterable<Trace>, options: TreeReplayOptions): { trees: TreeResult[]; loose: Trace[] } {
  requireTraces('replayTrees', traces);
  validateTreeOptions(options, 'replayTrees');
  const grouped = sessionTrees(traces);
  return { trees: grouped.trees.map((tree) => replayerOf(tree, options, 'replayTrees')(options.brakes)), loose: grouped.loose };
}
