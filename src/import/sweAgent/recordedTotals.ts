/**
 * The run totals of `info.model_stats` held against the steps of `trajectory`. SWE-agent records usage
 * as run totals only, and the importer spreads them over the steps (tokenRebuild.ts: each call's tokens
 * rebuilt from the text, then apportioned to `tokens_sent` / `tokens_received`), so any step can carry
 * them. A trajectory with no step cannot: replayed as it stands, it would count the calls its totals
 * record as never made and their cost as $0. It is refused as damaged, as mini-swe-agent's are
 * (src/import/miniSweAgent/recordedTotals.ts).
 *
 * What still imports: `api_calls` above or below the step count (requeries after a format error leave
 * no step, and their tokens are in the totals the steps carry), and no step with zero or absent totals (a
 * run that ended before its first model call). `total_cost` is not held to anything (in SWE-agent 0.x it can
 * run on over the runs of a batch). The real trajectories at hand (../shared/traces/swe-agent:
 * SWE-agent 0.x and 1.x, GPT-4, GPT-4o and Claude 3.5 Sonnet) all have steps, and api_calls equal to them.
 */
import type { IssueCollector } from '../common/issues.js';
import { usd } from '../common/usd.js';

const HINT =
  "the steps look removed or the file cut short: take the run's .traj file again from SWE-agent's output; among several inputs, --skip-bad leaves this file out";

/** `info.model_stats` as read. */
export interface SweAgentTotals {
  apiCalls: number | undefined;
  instanceCost: number | undefined;
  tokensSent: number | undefined;
  tokensReceived: number | undefined;
}

/** Adds one issue when the trajectory has no step to carry run totals above zero. */
export function checkRecordedTotals(issues: IssueCollector, steps: number, totals: SweAgentTotals): void {
  if (steps > 0) return;
  const recorded: Array<[field: string, shown: string]> = [];
  if ((totals.apiCalls ?? 0) > 0) recorded.push(['api_calls', `${totals.apiCalls}`]);
  if ((totals.instanceCost ?? 0) > 0) recorded.push(['instance_cost', usd(totals.instanceCost!)]);
  if ((totals.tokensSent ?? 0) > 0) recorded.push(['tokens_sent', `${totals.tokensSent}`]);
  if ((totals.tokensReceived ?? 0) > 0) recorded.push(['tokens_received', `${totals.tokensReceived}`]);
  if (recorded.length === 0) return;
  const [field, shown] = recorded[0]!;
  const others = recorded.slice(1);
  const also = others.length > 0 ? ` (and ${others.map(([name, value]) => `${name} ${value}`).join(', ')})` : '';
  issues.add(
    `info.model_stats.${field}`,
    'missing_steps',
    `is ${shown}${also}, but trajectory has no steps to account for them: a replay would count the run's model calls as never made and its cost as $0`,
    HINT,
  );
}
