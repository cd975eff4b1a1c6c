/**
 * `project --tree`: each session tree (an agent and its sub-agents, `header.agent`; a loose run is a tree of
 * one agent) is ONE task of the projection: its cost is the tree's totals and its stop the tree's, replayed
 * by the code `sweep --tree` replays it with (population/treeSweep.ts TreePopulation: the brakes bind the
 * tree's totals, `--subagent-max-steps` / `--subagent-max-cost` each sub-agent; its baseline the tree with
 * no brakes and no per-agent limits). What the report says of the trees (notes, the settings line) is here.
 */
import type { PopulationConfig } from '../../population/run.js';
import type { TreePopulation } from '../../population/treeSweep.js';
import { subagentLimitsSpec } from '../../report/settings.js';
import { runBrakes } from '../../tree/budget.js';
import { counted } from '../../plural.js';

/**
 * The configuration each run (part) of a tree is read under for where its prompts pass a price tier or the
 * window: the per-call brakes alone (tree/budget.ts runBrakes, as the tree engine gives each part), since the
 * brakes on totals bind the tree, not a part.
 */
export function perPartConfig(config: PopulationConfig): PopulationConfig {
  return { ...config, brakes: runBrakes(config.brakes) };
}

/** What the report's `tree` block says: the trees drawn from and the per-agent limits (`none` without them). */
export interface ProjectTree {
  sessionTrees: number;
  subagentLimits: string;
}

export function projectTreeOf(trees: TreePopulation, config: PopulationConfig): ProjectTree {
  return { sessionTrees: trees.trees.length, subagentLimits: subagentLimitsSpec(config.subagent) };
}

/**
 * The settings line and the open-loop line of a projection over trees: what a run of its figures is (a
 * tree: one task), what its brakes bind, and that recorded trees replay open loop.
 */
export function treeNotes(tree: ProjectTree, parts: number): string[] {
  const limits = tree.subagentLimits === 'none' ? 'no per-agent limits' : `each sub-agent limited by ${tree.subagentLimits}`;
  return [
    `Settings (--tree): each session tree (an agent and its sub-agents; ${tree.sessionTrees} here) is one task, a "run" of every figure here (cost per run is a tree's total cost, runs a day are trees a day); the brakes bind each tree's totals (--max-cost is the tree's budget), per-call brakes (context window, repeat, same error, backtracks) each of its runs, ${limits}; a tree's baseline (the suggested cap's) is the tree with no brakes and no per-agent limits.`,
    'Each simulated period resamples these trees (a bootstrap draw: how little a sample says of its population is in the p95 and p99 too), then draws every day of it from them, trees with replacement, each replayed as one loop under the brakes as recorded (open loop: a brake changes where an agent stops, not what the agents would have done next; a parent goes on as recorded after a sub-agent is stopped, so a session in which a brake stopped a sub-agent that completes in its recording counts as stopped, not completed, as in replay --tree and sweep --tree): a tail the sample never showed is not in the projection.',
    `Where prompts pass a price tier or the window is read off each of the trees' ${counted(parts, 'run')} (each its own context) replayed on its own under the per-call brakes: a tree brake that stopped it sooner is not applied, so these counts are at most the trees'.`,
  ];
}

/** The distribution-free bound's sentence over n trees. */
export function treeCapBoundText(n: number, share: string): string {
  return `A budget at the largest of these ${n} trees' costs may stop up to ${share} of new session trees (95% confidence, distribution-free: 1 − 0.05^(1/n)).`;
}
