/**
 * The run totals of `info.model_stats` held against the calls the messages record. A trajectory whose
 * totals say more calls were made, or more was spent, than its messages account for has lost messages
 * (cut short, edited, or pieced together by hand): replayed as it stands, it would count those calls as
 * never made and their cost as $0. It is refused as damaged.
 *
 * What mini-swe-agent 2.x writes (DefaultAgent.query counts a call before asking the model):
 * - `api_calls` = the assistant messages, + one per step it interrupted (a user message with
 *   `extra.interrupt_type`: a reply it could not parse — FormatError — or the user stopping a query), + the
 *   call whose exception ended the run (`exit` message; see runEnd.ts). Interruptions and the exception
 *   are an upper bound: not every one of them stands for a call.
 * - `instance_cost` = the `extra.cost` of the assistant messages (+ of the FormatError messages, which
 *   record theirs from 2.4.6 on).
 * Every real run at hand holds to them: the 183 trajectories of mini-swe-agent's output/ at ec0e8e84 (the
 * 38 of ../shared among them; two Submitted runs with a FormatError, api_calls one more than assistant messages).
 */
import { counted } from '../../plural.js';
import type { IssueCollector } from '../common/issues.js';
import { usd } from '../common/usd.js';
import type { CallDraft } from './assistantMessage.js';
import type { MiniSweAgentChat } from './chatMessages.js';

/** Spend past the recorded calls' own that is still rounding (relative, and at least a nano-dollar). */
const COST_TOLERANCE = 1e-6;
const MIN_COST_TOLERANCE_USD = 1e-9;

const HINT =
  "messages look removed or the file cut short: take the trajectory again from mini-swe-agent's output; among several inputs, --skip-bad leaves this file out";

/** `info.model_stats` as read, and how the run ended. */
export interface RecordedTotals {
  apiCalls: number | undefined;
  instanceCost: number | undefined;
  /** The exception that ended the run in its last call (runEnd.ts), if it ended so. */
  lastCallFailure: string | undefined;
}

/** Adds an issue for each run total the messages fall short of. */
export function checkRecordedTotals(issues: IssueCollector, chat: MiniSweAgentChat, totals: RecordedTotals): void {
  const { calls, interrupted } = chat;
  const failedLast = totals.lastCallFailure !== undefined;
  const accounted = calls.length + interrupted.count + (failedLast ? 1 : 0);
  if (totals.apiCalls !== undefined && totals.apiCalls > accounted) {
    const held = [counted(calls.length, 'assistant message'), ...(interrupted.count > 0 ? [counted(interrupted.count, 'interrupted step')] : []), ...(failedLast ? ['the failed last call'] : [])];
    const missing = counted(totals.apiCalls - accounted, 'model call');
    issues.add('info.model_stats.api_calls', 'missing_calls', `is ${totals.apiCalls}, but the messages account for at most ${accounted} (${held.join(', ')}): ${missing} left no message, and a replay would count their cost as $0`, HINT);
  }
  const recorded = recordedCostUsd(calls, interrupted.costUsd);
  if (totals.instanceCost === undefined || recorded === undefined) return;
  const tolerance = Math.max(totals.instanceCost * COST_TOLERANCE, MIN_COST_TOLERANCE_USD);
  if (totals.instanceCost - recorded > tolerance) {
    issues.add('info.model_stats.instance_cost', 'missing_cost', `is ${usd(totals.instanceCost)}, but the messages' extra.cost add up to ${usd(recorded)}: a replay would leave out ${usd(totals.instanceCost - recorded)} of spend`, HINT);
  }
}

/** The spend the messages record, or undefined when an assistant message records none (nothing to hold the total to). */
function recordedCostUsd(calls: readonly CallDraft[], interruptedCostUsd: number): number | undefined {
  let sum = interruptedCostUsd;
  for (const { record } of calls) {
    if (record.recordedCostUsd === undefined) return undefined;
    sum += record.recordedCostUsd;
  }
  return sum;
}
