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

/**
 * Whether a run's stop is the predictive bound's refusal: the fact its stop records (replay's run JSON
 * `stopByPredictiveBound`, set by the kernel: kernel/brakes.ts stoppedByBound), not its detail's words.
 */
export function isPredictiveStop(run: { stopReason: string; stopByPredictiveBound?: boolean }): boolean {
  return run.stopReason === 'budget' && run.stopByPredictiveBound === true;
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
