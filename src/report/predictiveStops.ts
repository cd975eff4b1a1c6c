/**
 * The line under replay's, whatif's, sweep's and project's tables when the predictive budget stopped runs
 * (`--budget-mode predict`): how many, and why they stop well short of the budget. The bound refuses a
 * call whose worst case would take spend past the budget: the whole prompt at the dearest prompt-token
 * price (kernel/cost.ts predictiveBoundPico: on a model that bills cache writes, the cache-write price, as
 * if nothing were read from the cache) plus max_tokens of output. With caching on (Sonnet, say) a call
 * costs far less than that, so runs stop at about half their budget; `--budget-mode check` is the same
 * budget checked after each call, to compare.
 */
import { counted } from '../plural.js';
import type { StopReason } from '../brakes/stopReasons.js';

/**
 * The words of a predictive refusal in a run's stop detail (kernel/describe.ts, StopCode.Budget when spend
 * has not reached the budget): a budget stop by the bound, not by spend reaching the budget.
 */
const PREDICTIVE_DETAIL = /\) would take it past the limit /;

/** Whether a run's stop (its reason and detail, as replay reports it) is the predictive bound's refusal. */
export function isPredictiveStop(run: { stopReason: string; stopDetail?: string }): boolean {
  return run.stopReason === 'budget' && run.stopDetail !== undefined && PREDICTIVE_DETAIL.test(run.stopDetail);
}

/** Budget stops of a setting whose budget mode is `predict`: the bound's (a spend that reaches the budget under it is a response past max_tokens). */
export function predictiveBudgetStops(budgetMode: string | undefined, stopReasons: Partial<Record<StopReason | string, number>>): number {
  return budgetMode === 'predict' ? (stopReasons.budget ?? 0) : 0;
}

/**
 * `12 runs were stopped by the predictive budget bound (…)`; `where` says where when more than one
 * setting ran (`under max-cost=0.6`, `in 3 configurations`). Empty when none were.
 */
export function predictiveStopsLine(runs: number, where = ''): string {
  if (runs === 0) return '';
  return (
    `${counted(runs, 'run')}${where === '' ? '' : ` ${where}`} ${runs === 1 ? 'was' : 'were'} stopped by the predictive budget bound (budget-mode predict): before each call it prices the whole prompt at the dearest prompt-token price ` +
    '(with caching, the cache-write price, as if nothing were read from the cache) plus max_tokens of output, so a run stops well short of spending its budget; ' +
    'to compare, the same budget checked after each call: --budget-mode check.'
  );
}
