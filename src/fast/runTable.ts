/**
 * A run table: one compiled trace's run under fixed non-brake settings (strategy, cache mode, prices,
 * latency model) with its figures before every call recorded. Brakes only cut a run short, so the run
 * under any brakes at least as tight as the table's is a prefix of it: where it stops is a binary
 * search over running figures, and its figures are the table's there (tableStop.ts). Replays of one
 * trace under many brake settings (what-ifs) and sweeps share a table.
 *
 * Built call by call by the per-step loop (any trace), or, for a trace of plain calls whose stretches
 * the closed form could take, by plainTable.ts (fewer figures to write: no cache figures with the cache
 * off, the prompt estimate is the prompt).
 */
import { NO_BRAKES } from '../brakes/config.js';
import { ContextTracker } from '../kernel/context.js';
import { brakeLimits, type BrakeLimits } from '../kernel/limits.js';
import type { FlatPrices } from '../kernel/prices.js';
import { StopCode } from '../kernel/stopCodes.js';
import type { CompiledTrace } from './layout.js';
import { resetRun, Run, type RunState } from './runState.js';
import { RunSetting, type RunSettings } from './settings.js';
import { runCalls, type RunPlan } from './steps.js';
import { windowLostBefore } from './windowLost.js';

export interface RunTable {
  settings: RunSettings;
  prices: FlatPrices;
  /** The limits the table was run under (none for a replay table; the loosest cell's for a sweep pass). */
  limits: BrakeLimits;
  /** The last call index with a before-call entry: the calls made, or the call the run stopped inside. */
  end: number;
  /** Before call k (k = 0..end, and end + 1 after a stop inside call end): running figures. */
  spent: Float64Array;
  elapsed: Float64Array;
  tokens: Float64Array;
  /** Call k's prompt as sent (metered); the view when k is the trace's length. */
  prompt: Float64Array;
  /** The predictive bound's prompt estimate before call k (when estimateIsPrompt, `prompt` is it). */
  estimate: Float64Array;
  estimateIsPrompt: boolean;
  /** Cache figures (when hasCacheFigures; else all 0). */
  cached: Float64Array;
  written: Float64Array;
  ruleLost: Float64Array;
  hasCacheFigures: boolean;
  /** Running maxima of the compared figures (the figure itself when it never decreases; promptMax: of the estimates). */
  spentMax: Float64Array;
  elapsedMax: Float64Array;
  tokensMax: Float64Array;
  promptMax: Float64Array;
  /** max over j ≤ k of spent[j] + bound[j] for the maxOutputTokens `crossFor` (computed on demand). */
  crossMax: Float64Array;
  crossFor: number;
  /** Cache hits lost to a window before each call (windowLost.ts); null when none can be. */
  lostBefore: Float64Array | null;
  /** Storage for maxima that differ from their figure. */
  store: { spentMax: Float64Array; elapsedMax: Float64Array; tokensMax: Float64Array; promptMax: Float64Array };
}

export function emptyTable(n: number, settings: RunSettings, prices: FlatPrices, limits: BrakeLimits): RunTable {
  const f = () => new Float64Array(n + 2);
  const store = { spentMax: f(), elapsedMax: f(), tokensMax: f(), promptMax: f() };
  return {
    settings, prices, limits, end: 0,
    spent: f(), elapsed: f(), tokens: f(), prompt: f(), estimate: f(), estimateIsPrompt: false,
    cached: f(), written: f(), ruleLost: f(), hasCacheFigures: true,
    spentMax: store.spentMax, elapsedMax: store.elapsedMax, tokensMax: store.tokensMax, promptMax: store.promptMax,
    crossMax: f(), crossFor: NaN, lostBefore: null, store,
  };
}

/** A table for the calls of `t`, reusing `reuse`'s storage when it is large enough. */
export function tableFor(t: CompiledTrace, settings: RunSettings, prices: FlatPrices, limits: BrakeLimits, reuse?: RunTable): RunTable {
  const n = t.calls;
  const table = reuse !== undefined && reuse.spent.length >= n + 2 ? reuse : emptyTable(n, settings, prices, limits);
  table.settings = settings;
  table.prices = prices;
  table.limits = limits;
  table.crossFor = NaN;
  table.lostBefore = windowLostBefore(t, settings);
  return table;
}

/** Writes the running figures before call i. */
export function record(table: RunTable, i: number, spent: number, elapsed: number, tokens: number, cached: number, written: number, ruleLost: number): void {
  table.spent[i] = spent;
  table.elapsed[i] = elapsed;
  table.tokens[i] = tokens;
  table.cached[i] = cached;
  table.written[i] = written;
  table.ruleLost[i] = ruleLost;
}

/** The running maximum of `from` over 0..end: `from` itself when it never decreases, else written into `store`. */
export function runningMax(from: Float64Array, store: Float64Array, end: number): Float64Array {
  let k = 1;
  while (k <= end && from[k]! >= from[k - 1]!) k++;
  if (k > end) return from;
  let max = -Infinity;
  for (let j = 0; j <= end; j++) {
    const v = from[j]!;
    if (v > max) max = v;
    store[j] = max;
  }
  return store;
}

/**
 * Sets the maxima for a table filled up to `end`. `known`: the builder knows spend, time and tokens
 * never decreased, and wrote the prompts' running maximum into store.promptMax (or they never decreased:
 * `promptGrows`).
 */
export function finishTable(table: RunTable, end: number, known?: { promptGrows: boolean }): RunTable {
  table.end = end;
  if (known !== undefined) {
    table.spentMax = table.spent;
    table.elapsedMax = table.elapsed;
    table.tokensMax = table.tokens;
    table.promptMax = known.promptGrows ? table.prompt : table.store.promptMax;
    return table;
  }
  table.spentMax = runningMax(table.spent, table.store.spentMax, end);
  table.elapsedMax = runningMax(table.elapsed, table.store.elapsedMax, end);
  table.tokensMax = runningMax(table.tokens, table.store.tokensMax, end);
  // The context window compares the prompt estimate (the prompt itself when estimateIsPrompt).
  table.promptMax = runningMax(table.estimateIsPrompt ? table.prompt : table.estimate, table.store.promptMax, end);
  return table;
}

const tracker = new ContextTracker();
export const NO_LIMITS = brakeLimits(NO_BRAKES);
const final: RunState = new Float64Array(Run.Size);

/**
 * Runs `t` call by call under `settings` and `limits` (default: none), recording the figures before
 * every call. O(calls); a replay under brakes at least as tight is then O(log calls).
 */
export function recordRunTable(t: CompiledTrace, settings: RunSettings, prices: FlatPrices, limits: BrakeLimits = NO_LIMITS, toolStop = t.calls, reuse?: RunTable): RunTable {
  const table = tableFor(t, settings, prices, limits, reuse);
  table.estimateIsPrompt = false;
  table.hasCacheFigures = true;
  const st = final;
  resetRun(st);
  tracker.resetTo(t.fixedTokens, settings[RunSetting.Keep]!, settings[RunSetting.Cap]!);
  tracker.reserve(t.calls + 1);
  const plan: RunPlan = { t, settings, limits, prices, ctx: tracker, toolStop, exactTime: false, table };
  const code = runCalls(plan, st, Infinity);
  const calls = st[Run.Calls]!;
  // A stop inside a call: its before-call entry is the call's own; after it comes the state it was paid in.
  const inside = calls > 0 && st[Run.Exhausted] !== 1 && !isBeforeCall(code);
  return finishTable(table, inside ? calls - 1 : calls);
}

/** Stops decided before a call (the kernel's beforeCallStop order). */
export function isBeforeCall(code: StopCode): boolean {
  return code === StopCode.MaxSteps || code === StopCode.Timeout || code === StopCode.Budget || code === StopCode.TokenLimit || code === StopCode.ContextOverflow;
}
