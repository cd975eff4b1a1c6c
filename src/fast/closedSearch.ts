/**
 * Where a closed-form stretch of plain calls (closedForm.ts) must stop: the first call before which a
 * brake may fire, found by binary search over the stretch's sums (every brake checked before a call
 * compares a non-decreasing figure with its limit), its first looks guided by where the timeout or the
 * budget crosses at the stretch's mean rate (probe.ts).
 */
import { budgetSpent, budgetWouldCross, promptTooLarge, timedOut, tokenCapReached } from '../kernel/brakes.js';
import { predictiveBoundPico } from '../kernel/cost.js';
import { Limit, type BrakeLimits } from '../kernel/limits.js';
import { boundWrites } from '../kernel/meter.js';
import { EXACT } from './exactSums.js';
import { CallSearch } from './probe.js';
import { Run, type RunState } from './runState.js';
import { RunSetting } from './settings.js';
import type { RunPlan } from './steps.js';
import type { Stretch } from './stretch.js';

/** The first k in [lo, hi) with values[k] > limit (values non-decreasing), or hi. */
export function firstAbove(values: Float64Array | Int32Array, lo: number, hi: number, limit: number): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (values[mid]! > limit) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

const probes = new CallSearch();
/** Below this many calls left after the first look, plain bisection. */
const GUESS_FROM = 8;

/**
 * After the first look (at j) fired: where each figure that reached its limit crosses it at its mean
 * rate over x..j−1 — time, spend (full history's spend is convex, a chord guesses far too early: from
 * its first call's rate up). Whether a guess was made (a function of its own: firstFiringCall stays
 * small enough for the stretch's sums to inline into it).
 */
function guessCrossing(s: Stretch, x: number, j: number, st: RunState, timeByCall: boolean, windowed: boolean, limits: BrakeLimits): boolean {
  const spentPico = st[Run.SpentPico]!;
  const elapsedMs = st[Run.ElapsedMs]!;
  const timeoutMs = limits[Limit.TimeoutMs]!;
  const budgetPico = limits[Limit.BudgetPico]!;
  const search = probes;
  search.start(x);
  if (!timeByCall && timedOut(elapsedMs + s.latencyMs(j), timeoutMs)) search.crossing(j, s.latencyMs(j), timeoutMs - elapsedMs);
  const spentBeforePico = spentPico + s.costPico(j);
  if (budgetSpent(spentBeforePico, budgetPico)) {
    if (windowed) search.crossing(j, spentBeforePico - spentPico, budgetPico - spentPico);
    else search.convexCrossing(j, spentBeforePico - spentPico, s.costPico(x + 1), budgetPico - spentPico);
  }
  return search.guessed;
}

/**
 * The first call in x..y−1 of the stretch before which a brake may fire (each a monotone predicate of
 * the call), or y: a binary search (a function of its own, so the stretch's sums inline into it). The
 * run's spend, time and tokens at x are read from `st`.
 */
export function firstFiringCall(plan: RunPlan, s: Stretch, x: number, y: number, st: RunState, timeByCall: boolean, windowed: boolean): number {
  const { limits, prices } = plan;
  const spentPico = st[Run.SpentPico]!;
  const elapsedMs = st[Run.ElapsedMs]!;
  const tokensUsed = st[Run.TokensUsed]!;
  const timeoutMs = limits[Limit.TimeoutMs]!;
  const budgetPico = limits[Limit.BudgetPico]!;
  const predictBudgetPico = limits[Limit.PredictBudgetPico]!;
  const maxTokens = limits[Limit.MaxTokens]!;
  const windowTokens = limits[Limit.ContextWindow]!;
  const maxOutputTokens = limits[Limit.MaxOutputTokens]!;
  const predict = predictBudgetPico !== Infinity;
  let lo = x;
  let hi = y;
  // Spend after the stretch exact: so is every call's (costs are not negative), no need to look per call.
  const exact = spentPico + s.costPico(y) < EXACT;
  // Every predicate is monotone in j: the first look is at the stretch's last call (usually none fires);
  // when the timeout or budget fires there, the next looks start where its figure crosses the limit at
  // the stretch's mean rate (probe.ts), then bisect. Any look order finds the same first call.
  let j = y - 1;
  let guessing = false;
  while (lo < hi) {
    const spentBeforePico = spentPico + s.costPico(j);
    // Full history only (a window declines under predict): the estimate is the view (no overhead).
    const boundPico = predict ? predictiveBoundPico(prices, s.view(j), maxOutputTokens, boundWrites(plan.t.cacheWrites, plan.settings[RunSetting.CacheMode]!)) : 0;
    // A brake that may fire, or a sum leaving exact whole numbers: the per-step loop takes call j.
    const fires =
      (!timeByCall && timedOut(elapsedMs + s.latencyMs(j), timeoutMs)) ||
      budgetSpent(spentBeforePico, budgetPico) ||
      budgetWouldCross(spentBeforePico, boundPico, predictBudgetPico) ||
      (!exact && spentPico + s.costPico(j + 1) >= EXACT) ||
      tokenCapReached(tokensUsed + s.tokens(j), maxTokens) ||
      (!windowed && promptTooLarge(s.view(j), windowTokens));
    if (fires) hi = j;
    else lo = j + 1;
    if (j === y - 1 && fires && hi - lo > GUESS_FROM) guessing = guessCrossing(s, x, j, st, timeByCall, windowed, limits);
    if (guessing) {
      j = probes.next(j, fires, lo, hi);
      guessing = probes.guessing;
    } else j = (lo + hi) >>> 1;
  }
  return lo;
}
