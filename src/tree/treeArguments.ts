/**
 * The arguments of the tree entry points that options/given.ts does not hold in full: sessionTrees' runs
 * (any iterable), a SessionTree's agents (treeReplayer, replaySessionTree) and replaySessionTree's engine
 * options. A wrong-typed one (`sessionTrees(null)`, an agent that is `null`, `pricingOf` not a function) is
 * refused as a UserError naming the argument (`<sessionTrees arguments>` field `traces`), as given.ts
 * refuses the others, rather than failing deep inside with a TypeError: given.ts's guards, arguments.ts's
 * kinds of value and rules.ts's option rules, put together for these arguments. Pure: no node:*.
 */
import { arrayIssue, checkArguments, functionIssue, objectArgumentIssue, stringIssue } from '../options/arguments.js';
import { requireTraces, requireTree } from '../options/given.js';
import { brakeIssues, latencyIssues, shown, strategyIssues, subagentLimitIssues, validateOptions, type Issue, type ListsEvery } from '../options/rules.js';
import type { Trace } from '../trace/types.js';
import type { TreeEngineOptions } from './engine.js';
import type { SessionTree } from './group.js';
import { refuseImpossibleTrees } from './treeIssues.js';
import { OptionIssues } from '../options/issues.js';

/** `traces` (sessionTrees'), every one a run: an array as it is, another iterable read once, here, into one. */
export function traceList(entry: string, traces: unknown): Trace[] {
  requireTraces(entry, traces);
  if (Array.isArray(traces)) return traces as Trace[];
  const list = [...(traces as Iterable<unknown>)];
  requireTraces(entry, list);
  return list as Trace[];
}

const KINDS: readonly string[] = ['main', 'subagent'];
const AGENT_HINT = "a TreeAgent as sessionTrees makes it: { agentId, kind: 'main' | 'subagent', runs: Trace[] }";

/** One agent's fields (`tree.agents[i]`), by arguments.ts's kinds; whether its runs can be checked. */
function agentIssues(issue: Issue, agent: unknown, field: string): boolean {
  if (!objectArgumentIssue(issue, agent, { field, hint: AGENT_HINT })) return false;
  stringIssue(issue, agent.agentId, { field: `${field}.agentId`, hint: AGENT_HINT });
  if (!KINDS.includes(agent.kind as string)) issue(`${field}.kind`, 'invalid_value', `${shown(agent.kind)} is not 'main' or 'subagent'`, AGENT_HINT);
  for (const key of ['parentAgentId', 'parentToolCallId'] as const) stringIssue(issue, agent[key], { field: `${field}.${key}`, hint: 'leave it out when there is none', optional: true });
  arrayIssue(issue, agent.runs, { field: `${field}.runs`, hint: AGENT_HINT, each: 'object' });
  return Array.isArray(agent.runs);
}

/**
 * `tree` (treeReplayer, replaySessionTree): a SessionTree (given.ts), each of its agents one (every problem
 * of them told together), every run a Trace, and a tree a loop can have made (treeIssues.ts).
 */
export function requireWholeTree(entry: string, tree: unknown): void {
  requireTree(entry, tree);
  const { agents, notes } = tree as { agents: unknown[]; notes: unknown };
  const whole: boolean[] = [];
  checkArguments(entry, (issue) => {
    arrayIssue(issue, notes, { field: 'tree.notes', hint: 'give [] for none', each: 'string' });
    agents.forEach((agent, i) => whole.push(agentIssues(issue, agent, `tree.agents[${i}]`)));
  });
  agents.forEach((agent, i) => whole[i] && requireTraces(entry, (agent as { runs: unknown[] }).runs, `tree.agents[${i}].runs`));
  refuseImpossibleTrees([tree as SessionTree]);
}

/** replaySessionTree's options (TreeEngineOptions): the compiled brakes, limits, strategy and latency by rules.ts's rules; the price and cache look-ups functions. */
const ENGINE_KEYS = ['brakes', 'subagent', 'strategy', 'latency', 'pricingOf', 'cacheOf', 'summaryPricingOf', 'runBrakesOf'] as const;
const ENGINE_KEYS_COMPLETE: ListsEvery<TreeEngineOptions, typeof ENGINE_KEYS> = true;
void ENGINE_KEYS_COMPLETE;

/** replaySessionTree's `options`, every problem named as its field (`<replaySessionTree options>` field `pricingOf`). */
export function validateEngineOptions(entry: string, options: unknown): void {
  validateOptions(entry, options, ENGINE_KEYS, (issue, o) => {
    if (o.brakes === undefined) issue('brakes', 'missing_field', 'is missing', 'a BrakeConfig: brakeConfig({ maxSteps: 12 }), or brakeConfig() for none');
    else brakeIssues(issue, o.brakes);
    subagentLimitIssues(issue, o.subagent, 'subagent');
    strategyIssues(issue, o.strategy, 'strategy', true);
    latencyIssues(issue, o.latency);
    functionIssue(issue, o.pricingOf, { field: 'pricingOf', hint: "(run) => the run's ModelPricing" });
    functionIssue(issue, o.cacheOf, { field: 'cacheOf', hint: "(run) => the run's cache mode: 'on', 'off' or 'recorded'" });
    functionIssue(issue, o.summaryPricingOf, { field: 'summaryPricingOf', hint: "(run) => the summary calls' ModelPricing, or undefined for the run's own", optional: true });
    functionIssue(issue, o.runBrakesOf, { field: 'runBrakesOf', hint: "(run) => the run's own BrakeConfig (its per-call brakes bind its calls)", optional: true });
  });
}

/** treeReplayer's third argument (`{ runBrakesOf }`, replayTree.ts OwnRunBrakes): its one field a function when given. */
export function validateOwnRunBrakes(own: unknown): void {
  const issues = new OptionIssues('<treeReplayer own>');
  if (own === null || typeof own !== 'object') issues.add('', 'invalid_input', `expected an object, got ${shown(own)}`, '{ runBrakesOf: (run) => BrakeConfig }, or leave it out');
  else functionIssue(issues.add, (own as { runBrakesOf?: unknown }).runBrakesOf, { field: 'runBrakesOf', hint: "(run) => the run's own BrakeConfig (its per-call brakes bind its calls)", optional: true });
  issues.throwIfAny();
}
