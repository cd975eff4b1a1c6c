/**
 * A sweep over session trees (`sweep --tree`): each tree (an agent and its sub-agents) is ONE run of the
 * population, replayed as one loop under each configuration (`treeReplayer`, src/tree/replayTree.ts: the
 * brakes bind the tree's totals, `subagent` limits each sub-agent); its baseline is the same tree with
 * NO_BRAKES and no per-agent limits under the same context, model and latency. Every cell is what
 * `replay --tree` of that setting alone gives. Pure: no node:*, no clock.
 */
import { NO_BRAKES } from '../brakes/config.js';
import { populationTally, tallyMetrics, type RunFigures, type RunPair } from '../metrics/population.js';
import type { PriceTable } from '../pricing/types.js';
import type { UnrecordedInTree } from '../report/warnings.js';
import type { SessionTree } from '../tree/group.js';
import { treeReplayer } from '../tree/replayTree.js';
import type { TreeResult } from '../tree/result.js';
import { baselineKey, type PopulationConfig } from './run.js';
import { underConfiguration } from './blameRun.js';
import type { SweepMetrics } from './sweep.js';
import { COMMAND_LINE_CONTEXT } from '../context/strategy.js';
import { overshootPico } from '../kernel/brakes.js';
import { sessionStopOf, stoppedASubagent } from '../tree/sessionStop.js';

/**
 * A tree's result as one run of the population (overshoot: spend past the tree's budget); its stop the
 * session's (tree/sessionStop.ts: the main agent's, or a stopped sub-agent's that completes in its recording,
 * against `unbraked`, the tree with no brakes and no per-agent limits — asked for only then).
 */
export function treeRunFigures(result: TreeResult, maxCostPico: number | undefined, unbraked: () => TreeResult): RunFigures {
  const t = result.totals;
  const stop = sessionStopOf(result, unbraked);
  return {
    stopReason: stop.stopReason,
    steps: t.steps,
    costPico: t.costPico,
    inputTokens: t.inputTokens,
    cachedInputTokens: t.cachedInputTokens,
    outputTokens: t.outputTokens,
    overshootPico: maxCostPico === undefined ? 0 : overshootPico(t.costPico, maxCostPico),
    ...(stop.byPredictiveBound ? { byPredictiveBound: true } : {}),
  };
}

/** A tree's baseline as one run of the population: the tree with no brakes and no per-agent limits (its replayer's under NO_BRAKES: unbrakedTree), its own baseline. */
export function treeBaselineFigures(unbraked: TreeResult): RunFigures {
  return treeRunFigures(unbraked, undefined, () => unbraked);
}

/** The tree with no brakes and no per-agent limits: its replayer (made without per-agent limits) under NO_BRAKES (replay --tree's false stops too). */
export function unbrakedTree(replay: (brakes: PopulationConfig['brakes']) => TreeResult): TreeResult {
  return replay(NO_BRAKES);
}

/** Session trees to sweep; replayers (pricing resolved once) and baselines are memoised per setting. */
export class TreePopulation {
  private readonly replayers = new Map<string, ((brakes: PopulationConfig['brakes']) => TreeResult)[]>();
  private readonly baselines = new Map<string, { tree: TreeResult; figures: RunFigures }[]>();
  constructor(
    readonly trees: readonly SessionTree[],
    private readonly prices: PriceTable,
  ) {}

  /** The trees whose tool calls started agents with no recording among the inputs (SessionTree.unrecorded), for the one warning per tree replay --tree gives. */
  unrecorded(): UnrecordedInTree[] {
    return this.trees.flatMap((tree) => (tree.unrecorded === undefined ? [] : [{ sessionId: tree.sessionId, agents: tree.unrecorded }]));
  }

  private replayersOf(config: PopulationConfig, withSubagent: boolean): ((brakes: PopulationConfig['brakes']) => TreeResult)[] {
    const subagent = withSubagent ? config.subagent : undefined;
    const key = JSON.stringify([baselineKey(config), subagent ?? null]);
    let replayers = this.replayers.get(key);
    if (replayers === undefined) {
      const options = {
        strategy: config.strategy,
        strategyPlace: config.strategyPlace ?? COMMAND_LINE_CONTEXT,
        prices: this.prices,
        ...(config.model === undefined ? {} : { model: config.model }),
        ...(config.latency === undefined ? {} : { latency: config.latency }),
        ...(subagent === undefined ? {} : { subagentLimits: subagent }),
      };
      this.replayers.set(key, (replayers = this.trees.map((tree) => treeReplayer(tree, options))));
    }
    return replayers;
  }

  /** Each tree with no brakes and no per-agent limits under the configuration's context, model and latency, and its figures. */
  private baselinesOf(config: PopulationConfig): { tree: TreeResult; figures: RunFigures }[] {
    const key = baselineKey(config);
    let baselines = this.baselines.get(key);
    if (baselines === undefined) {
      const unbraked = (replay: (brakes: PopulationConfig['brakes']) => TreeResult) => underConfiguration({ ...config, brakes: NO_BRAKES }, () => unbrakedTree(replay));
      this.baselines.set(key, (baselines = this.replayersOf(config, false).map((replay) => unbraked(replay)).map((tree) => ({ tree, figures: treeBaselineFigures(tree) }))));
    }
    return baselines;
  }

  /**
   * Each tree under the configuration, paired with its baseline, in tree order. A run past exact
   * picodollars is named by the run that passed it (its file, run and agent: the tree engine places it)
   * and the configuration (blameRun.ts).
   */
  pairs(config: PopulationConfig): RunPair[] {
    return this.replayed(config).pairs;
  }

  /** The pairs, and how many trees had a sub-agent stopped by a brake (tree/sessionStop.ts stoppedASubagent). */
  replayed(config: PopulationConfig): { pairs: RunPair[]; subagentsStopped: number } {
    const baselines = this.baselinesOf(config);
    let subagentsStopped = 0;
    const pairs = this.replayersOf(config, true).map((replay, i) => {
      const { tree, figures } = baselines[i]!;
      const result = underConfiguration(config, () => replay(config.brakes));
      if (stoppedASubagent(result)) subagentsStopped += 1;
      return { run: treeRunFigures(result, config.brakes.maxCostPico, () => tree), baseline: figures };
    });
    return { pairs, subagentsStopped };
  }
}

/** Each configuration's population figures over the trees (one tree, one run), with the trees in which a brake stopped a sub-agent. */
export function treeSweepMetrics(population: TreePopulation, configs: readonly PopulationConfig[]): SweepMetrics[] {
  return configs.map((config) => {
    const { pairs, subagentsStopped } = population.replayed(config);
    return { ...tallyMetrics(populationTally(pairs)), subagentsStopped };
  });
}
