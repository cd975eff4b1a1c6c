/**
 * The worst case the brakes allow per run (`loopcost project`): the least of the bounds that apply, null
 * (unbounded) when none does.
 *
 * - Check-mode budget: the budget plus the largest single call (the largest prompt a provider accepts —
 *   the model's context window less the max_tokens sent, kernel/limits.ts promptAllowedTokens, or a
 *   `--context-window N` brake's N when smaller: it stops before a larger prompt — at its tier, plus
 *   max_tokens of output). Predict mode: the budget.
 * - Step cap N: N calls at that largest call — but a backtrack or a compaction call is no step
 *   (kernel/brakes.ts countsAsStep), so only for runs that make neither. Runs that backtrack under
 *   `--max-backtracks B`: N + B calls — backtrackStop ends the run after the backtrack past B, and the
 *   step cap is checked before every call, a backtrack too, so that backtrack comes before step N (N steps
 *   and B + 1 backtracks never both happen). Runs that backtrack with no backtrack cap, or that compact (no
 *   brake counts a compaction): the step cap gives no bound. Which runs do: uncountedCallsOf (recorded
 *   calls flagged so; scenario behaviours that can backtrack).
 * - Token cap: the cap at the dearest rate plus the call that crossed it.
 * Pure: no node:*, no clock.
 */
import { DEFAULT_MAX_OUTPUT_TOKENS, maxOutputTokensSent, type BrakeConfig } from '../brakes/config.js';
import { maxOf } from '../metrics/extremes.js';
import { picoToUsd } from '../money.js';
import { predictiveBoundPico, promptPriceCeiling } from '../kernel/cost.js';
import { CacheWrites } from '../kernel/cacheWrites.js';
import { promptAllowedTokens } from '../kernel/limits.js';
import { flattenPrices, PriceField, tierRow } from '../kernel/prices.js';
import type { ModelPricing, PriceTable } from '../pricing/types.js';
import { COMMAND_LINE_CONTEXT, type ContextStrategy } from '../context/strategy.js';
import { summaryPricingOf } from '../replay/summaryPricing.js';
import type { PopulationEntry } from '../scenario/schema.js';
import type { Trace } from '../trace/types.js';
import type { ScenarioPopulation } from './run.js';

export interface WorstCase {
  /** The most one run can cost under the brakes, in USD; null: the brakes set no bound. */
  perRunUsd: number | null;
  /** Which brake gives the bound, in words. */
  rule: string;
}

/**
 * Under a summary strategy (`summary:`, `hybrid:`): a summary call may come before each call, of S tokens
 * out, priced as the summary model (`model=X`) or else as the run's. It is not a step, and the budget's
 * predict mode does not bound it (it runs while the brakes would let the next call through).
 */
export interface SummaryCalls {
  summaryTokens: number;
  pricing?: ModelPricing;
}

/** A summary strategy's calls for the worst case: S tokens out, at the summary model's prices when it names one (`project`, `check`). */
export function summaryCallsOf(strategy: ContextStrategy, prices: PriceTable): { summary?: SummaryCalls } {
  const summary = strategy.summary;
  if (summary === undefined) return {};
  const pricing = summaryPricingOf(strategy, prices, undefined, COMMAND_LINE_CONTEXT);
  return { summary: { summaryTokens: summary.summaryTokens, ...(pricing === undefined ? {} : { pricing }) } };
}

/** Calls the step cap does not count that the population's runs make (or, for synthetic agents, can make). */
export interface UncountedCalls {
  backtracks: boolean;
  compactions: boolean;
}

/** Runs that make only steps: the step cap bounds their calls. */
export const ONLY_STEPS: UncountedCalls = { backtracks: false, compactions: false };

/** Whether a scenario's population entry can make a backtrack call (a new behaviour must be decided here). */
function entryMayBacktrack(entry: PopulationEntry): boolean {
  switch (entry.behaviour) {
    case 'backtracker':
      return entry.weight > 0 && entry.backtrackShare > 0;
    case 'healthy':
    case 'perfectionist':
    case 'repeater':
    case 'retrier':
    case 'forgetful':
    case 'asker':
    case 'sloppy':
      return false;
  }
}

/** What a population's runs make besides steps: recorded backtrack or compaction calls, synthetic behaviours that can backtrack (none compacts). */
export function uncountedCallsOf(population: { traces?: readonly Trace[]; scenarios?: readonly ScenarioPopulation[] }): UncountedCalls {
  const calls = (population.traces ?? []).flatMap((trace) => trace.calls);
  const synthetic = (population.scenarios ?? []).filter((s) => s.runs > 0).flatMap((s) => s.scenario.population ?? []);
  return {
    backtracks: calls.some((call) => call.backtrack === true) || synthetic.some(entryMayBacktrack),
    compactions: calls.some((call) => call.compaction === true),
  };
}

/**
 * The largest prompt a provider answers beside `maxOutputTokens` asked for: the window less them (it refuses
 * a prompt + max_tokens past the window: kernel/limits.ts promptAllowedTokens, kernel/providerWindow.ts), or a
 * `--context-window` brake's `promptCapTokens` when smaller; undefined when no prompt is answered (a window at
 * or below max_tokens) or neither the window nor a cap is known.
 */
function largestPromptTokens(pricing: ModelPricing, maxOutputTokens: number, promptCapTokens = Infinity): number | undefined {
  const allowed = pricing.contextWindow === undefined ? Infinity : promptAllowedTokens(pricing.contextWindow, maxOutputTokens);
  // A context-window brake of N stops before a prompt past N tokens (kernel/limits.ts): no call sends more.
  const cap = Math.min(allowed, promptCapTokens);
  return cap < 0 || !Number.isFinite(cap) ? undefined : cap;
}

/**
 * The most one call can cost: the predictive bound (kernel/cost.ts) of the largest prompt a provider
 * answers (the context window less max_tokens, or a `--context-window` brake's N when smaller) with max_tokens
 * out — every prompt token at the dearest price one can be billed at in that tier (input, cache read, cache
 * write), the output at the output or reasoning price, plus the fee per request (Perplexity's) when the table
 * prices one; 0 when the window leaves no room for a prompt (every call is refused, unbilled); undefined
 * without a known window or a numeric context-window brake.
 */
export function largestCallPico(pricing: ModelPricing, maxOutputTokens = DEFAULT_MAX_OUTPUT_TOKENS, promptCapTokens?: number): number | undefined {
  if (pricing.contextWindow === undefined && !Number.isFinite(promptCapTokens ?? Infinity)) return undefined;
  const promptTokens = largestPromptTokens(pricing, maxOutputTokens, promptCapTokens);
  if (promptTokens === undefined) return 0;
  return predictiveBoundPico(flattenPrices(pricing), promptTokens, maxOutputTokens, CacheWrites.MayLastAnHour);
}

/** The dearest rate any token can be billed at, in the tier of the largest prompt a call sends beside `maxOutputTokens` (at most `promptCapTokens`; the base tier without a bound). */
function dearestRatePico(pricing: ModelPricing, maxOutputTokens: number, promptCapTokens?: number): number {
  const { rows, tiers } = flattenPrices(pricing);
  const row = tierRow(rows, tiers, largestPromptTokens(pricing, maxOutputTokens, promptCapTokens) ?? 0);
  return Math.max(promptPriceCeiling(rows, row, CacheWrites.MayLastAnHour), rows[row + PriceField.Output]!, rows[row + PriceField.Reasoning]!);
}

/** The largest call over these models' prices with `maxOutputTokens` out (a prompt of `promptCapTokens` at most); undefined when a window is unknown. */
function largestOf(pricings: readonly ModelPricing[], maxOutputTokens?: number, promptCapTokens?: number): number | undefined {
  const calls = pricings.map((p) => largestCallPico(p, maxOutputTokens, promptCapTokens));
  return calls.some((c) => c === undefined) ? undefined : Math.max(0, maxOf(calls as number[]));
}

type Bound = [pico: number, rule: string];

const AT_WINDOW = 'at the largest prompt a provider answers (the context window less max_tokens)';

/** Which prompt the largest call is at, in words: a `--context-window` brake's N when it is the bound for these models, else the window less max_tokens. */
function atPromptWords(pricings: readonly ModelPricing[], maxOutputTokens: number, promptCapTokens: number | undefined): string {
  if (promptCapTokens === undefined) return AT_WINDOW;
  const capped = pricings.filter((p) => largestPromptTokens(p, maxOutputTokens, promptCapTokens) === promptCapTokens).length;
  const atCap = `at a prompt of ${promptCapTokens} tokens at most (the --context-window brake)`;
  if (capped === pricings.length) return atCap;
  return capped === 0 ? AT_WINDOW : `${atCap}, or ${AT_WINDOW.slice(3)} when fewer`;
}

/**
 * The step cap's bound, `perCallPico` a call (and its summary call) at most: N calls for runs of steps
 * alone; N + B for runs that backtrack under a backtrack cap B; else no bound, and why (a string).
 */
function stepCapBound(brakes: BrakeConfig, perCallPico: number, options: { uncounted: UncountedCalls; afterSummary: string; atPrompt: string }): Bound | string | undefined {
  const steps = brakes.maxSteps;
  if (steps === undefined) return undefined;
  const { uncounted, afterSummary, atPrompt } = options;
  const atLargest = `${atPrompt} and max_tokens of output${afterSummary}`;
  // No call at all under a cap of 0: the cap is checked before every call, a backtrack or a compaction too.
  if (steps === 0) return [0, 'a step cap of 0 (no call is made)'];
  if (!uncounted.backtracks && !uncounted.compactions) return [steps * perCallPico, `${steps} steps ${atLargest} (these runs make no backtrack or compaction call, which a step cap does not count)`];
  if (uncounted.compactions) return 'these runs compact, and a step cap does not count backtracks or compactions (only a budget or a token cap bounds compaction calls)';
  const backtracks = brakes.maxBacktracks;
  if (backtracks === undefined) return 'these runs backtrack, and a step cap does not count backtracks or compactions: add --max-backtracks';
  // Every call passes the step cap first, so the backtrack past B (which ends the run) comes before step N: N + B calls.
  return [(steps + backtracks) * perCallPico, `${steps + backtracks} calls ${atLargest}: ${steps} steps and ${backtracks} backtracks (the backtrack past --max-backtracks ${backtracks} ends the run, and comes before step ${steps})`];
}

/**
 * The most one run can cost under `brakes` on any of these models' prices, for runs that make the
 * `uncounted` calls (with `summary`: its summary calls too).
 */
export function worstCaseRun(brakes: BrakeConfig, pricings: readonly ModelPricing[], options: { uncounted: UncountedCalls; summary?: SummaryCalls }): WorstCase {
  const { summary, uncounted } = options;
  const summaryPricings = summary === undefined ? [] : summary.pricing === undefined ? pricings : [summary.pricing];
  const promptCapTokens = typeof brakes.contextWindow === 'number' ? brakes.contextWindow : undefined;
  const largest = largestOf(pricings, brakes.maxOutputTokens, promptCapTokens);
  // The largest summary call (0 without summaries): the prompt it replaces (up to the window less S: a provider refuses more) in, S out.
  const largestSummary = summary === undefined ? 0 : largestOf(summaryPricings, summary.summaryTokens);
  const known = largest !== undefined && largestSummary !== undefined;
  const bounds: Bound[] = [];
  if (brakes.maxCostPico !== undefined) {
    if (brakes.budgetMode === 'predict') {
      // A summary call is bounded as any call is (its prompt in, S out): kernel/brakes.ts summaryMayRun.
      bounds.push([brakes.maxCostPico, `the budget (predict mode refuses a call${summary === undefined ? '' : ' or a summary call'} whose bound would cross it; a response longer than max_tokens could still overshoot)`]);
    } else if (known) bounds.push([brakes.maxCostPico + Math.max(largest, largestSummary), 'the budget plus the largest single call (check mode stops once spent ≥ budget, after the call that crossed it)']);
  }
  const steps = stepCapBound(brakes, known ? largest + largestSummary : 0, {
    uncounted,
    afterSummary: summary === undefined ? '' : ', each after a summary call',
    atPrompt: atPromptWords(pricings, maxOutputTokensSent(brakes), promptCapTokens),
  });
  if (Array.isArray(steps) && known) bounds.push(steps);
  if (brakes.maxTokens !== undefined && known) {
    const sent = maxOutputTokensSent(brakes);
    const rates = [...pricings.map((p) => dearestRatePico(p, sent, promptCapTokens)), ...summaryPricings.map((p) => dearestRatePico(p, summary?.summaryTokens ?? 0))];
    const rate = maxOf(rates, 0);
    bounds.push([brakes.maxTokens * rate + Math.max(largest, largestSummary), `the token cap at the dearest rate, plus the call that crossed it`]);
  }
  const noStepBound = typeof steps === 'string' ? `; ${steps}` : '';
  if (bounds.length === 0) return { perRunUsd: null, rule: noStepBound === '' ? 'unbounded: no budget, and no step or token cap with a known context window' : `unbounded: no budget and no token cap with a known context window${noStepBound}` };
  const [pico, rule] = bounds.reduce((a, b) => (b[0] < a[0] ? b : a));
  return { perRunUsd: picoToUsd(Math.round(pico)), rule: `${rule}${noStepBound}` };
}
