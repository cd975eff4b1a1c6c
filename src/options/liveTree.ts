/**
 * runAgentTree's options, checked by the rules every entry point's are (rules.ts) before any agent is
 * asked for a step. A module of its own: the live tree is pure core (test/core/purity.test.ts), so what it
 * imports must not reach the replay and scenario entry points (entryPoints.ts).
 */
import type { LiveTreeOptions } from '../tree/live.js';
import { brakeIssues, cacheModeIssue, latencyIssues, pricingIssue, strategyIssues, treeSubagentLimitIssues, validateOptions, type ListsEvery } from './rules.js';

const KEYS = ['brakes', 'subagentLimits', 'subagent', 'strategy', 'cache', 'pricing', 'summaryPricing', 'latency', 'sessionId'] as const;
const LISTED: ListsEvery<LiveTreeOptions, typeof KEYS> = true;
void LISTED;

/** runAgentTree: the tree's brakes, each sub-agent's limits, a strategy, a cache mode and the model's prices. */
export function validateLiveTreeOptions(options: unknown): void {
  validateOptions('runAgentTree', options, KEYS, (issue, o) => {
    brakeIssues(issue, o.brakes);
    treeSubagentLimitIssues(issue, o);
    strategyIssues(issue, o.strategy, 'strategy', true);
    cacheModeIssue(issue, 'cache', o.cache, true);
    pricingIssue(issue, 'pricing', o.pricing);
    pricingIssue(issue, 'summaryPricing', o.summaryPricing, false);
    latencyIssues(issue, o.latency);
    if (o.sessionId !== undefined && (typeof o.sessionId !== 'string' || o.sessionId === '')) issue('sessionId', 'invalid_value', 'is not a name', "leave it out for the root agent's id");
  });
}
