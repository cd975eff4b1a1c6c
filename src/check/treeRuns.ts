/**
 * `check --tree`: a scenario's recorded runs grouped into session trees (an agent and its sub-agents,
 * `header.agent`; a run without it is a tree of one agent), each tree ONE run of the scenario: its figures
 * the tree's totals and its stop the tree's, under the scenario's brakes binding the tree's totals (its
 * budget the tree's) and the per-agent limits each sub-agent — replayed by the code `sweep --tree` replays
 * it with (population/treeSweep.ts TreePopulation), its baseline the tree with no brakes and no per-agent
 * limits. Pure: no node:*, no clock.
 */
import type { PopulationConfig, PopulationRun } from '../population/run.js';
import { TreePopulation } from '../population/treeSweep.js';
import type { PriceTable } from '../pricing/types.js';
import type { UnrecordedInTree } from '../report/warnings.js';
import type { SubagentLimits } from '../tree/engine.js';
import { allTrees, sessionTrees, type SessionTree } from '../tree/group.js';
import type { Trace } from '../trace/types.js';

/** How `check --tree` judges recorded runs: as session trees, with these per-agent limits. */
export interface CheckTree {
  subagent?: SubagentLimits;
}

/** A tree as a check names it: `session <id>`, or a loose run's own name (a tree of one agent). */
export function treeSource(tree: SessionTree): string {
  const first = tree.agents[0]!.runs[0]!;
  return first.header.agent === undefined ? first.source : `session ${tree.sessionId}`;
}

/** The trees of `traces` under `config` (its brakes the trees'; `tree.subagent` each sub-agent's), each paired with its baseline. */
export function treeRuns(traces: readonly Trace[], config: PopulationConfig, options: { prices: PriceTable; tree: CheckTree }): { runs: PopulationRun[]; unrecorded: UnrecordedInTree[] } {
  const trees = allTrees(sessionTrees(traces));
  const population = new TreePopulation(trees, options.prices);
  const subagent = options.tree.subagent;
  const pairs = population.pairs({ ...config, ...(subagent === undefined ? {} : { subagent }) });
  return { runs: pairs.map((pair, i) => ({ source: treeSource(trees[i]!), run: pair.run, baseline: pair.baseline })), unrecorded: population.unrecorded() };
}
