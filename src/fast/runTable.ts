/**
 * A run table: one compiled trace's run under fixed non-brake settings (strategy, cache mode, prices,
 * latency model) with its figures before every call recorded. Brakes only cut a run short, so the run
 * under any brakes at least as tight as the table's is a prefix of it: where it stops is a binary
 * search over running figures, and its figures are the table's there (tableStop.ts). Replays of one
 * trace under many brake settings (what-ifs) and sweeps share a table.
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

export interface RunTable {
  settings: RunSettings;
  prices: FlatPrices;
  /** The limits the table was run under (none for a replay table; the loosest cell's for a sweep pass). */
  limits: BrakeLimits;
  /** How the run ended: its state (calls made, stop, stop tool). */
  final: RunState;
  /** The last call index with a before-call entry: the calls made, or the call stopped inside. */
  end: number;
  /** Before call k (k = 0..end, and end + 1 after a stop inside call end): running figures. */
  spent: Float64Array;
  elapsed: Float64Array;
  tokens: Float64Array;
  cached: Float64Array;
  written: Float64Array;
  ruleLost: Float64Array;
  /** Call k's prompt as sent (metered), the view when k = calls; and the predictive bound's estimate. */
  prompt: Float64Array;
  estimate: Float64Array;
  /** Elapsed time after call k's own latency (before its tool calls). */
  elapsedCall: Float64Array;
  /** Running maxima of the compared figures (first index where one reaches a limit = a search). */
  spentMax: Float64Array;
  elapsedMax: Float64Array;
  tokensMax: Float64Array;
  promptMax: Float64Array;
  /** max over j ≤ k of spent[j] + bound[j] for the maxOutputTokens `crossFor` (computed on demand). */
  crossMax: Float64Array;
  crossFor: number;
}

function emptyTable(n: number, settings: RunSettings, prices: FlatPrices, limits: BrakeLimits): RunTable {
  const f = () => new Float64Array(n + 2);
  return {
    settings, prices, limits, final: new Float64Array(Run.Size), end: 0,
    spent: f(), elapsed: f(), tokens: f(), cached: f(), written: f(), ruleLost: f(), prompt: f(), estimate: f(), elapsedCall: f(),
    spentMax: f(), elapsedMax: f(), tokensMax: f(), promptMax: f(), crossMax: f(), crossFor: NaN,
  };
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

function runningMax(from: Float64Array, into: Float64Array, end: number): void {
  let max = -Infinity;
  for (let k = 0; k <= end; k++) {
    const v = from[k]!;
    if (v > max) max = v;
    into[k] = max;
  }
}

const tracker = new ContextTracker();
const NO_LIMITS = brakeLimits(NO_BRAKES);

/**
 * Runs `t` call by call under `settings` and `limits` (default: none), recording the figures before
 * every call. O(calls); a replay under brakes at least as tight is then O(log calls).
 */
export function buildRunTable(t: CompiledTrace, settings: RunSettings, prices: FlatPrices, limits: BrakeLimits = NO_LIMITS, toolStop = t.calls, reuse?: RunTable): RunTable {
  const table = reuse !== undefined && reuse.spent.length >= t.calls + 2 ? reuse : emptyTable(t.calls, settings, prices, limits);
  table.settings = settings;
  table.prices = prices;
  table.limits = limits;
  table.crossFor = NaN;
  const st = table.final;
  resetRun(st);
  tracker.resetTo(t.fixedTokens, settings[RunSetting.Keep]!, settings[RunSetting.Cap]!);
  tracker.reserve(t.calls + 1);
  const plan: RunPlan = { t, settings, limits, prices, ctx: tracker, toolStop, exactTime: false, table };
  const code = runCalls(plan, st, Infinity);
  const calls = st[Run.Calls]!;
  // A stop inside a call: its before-call entry is the call's own; after it comes the state it was paid in.
  const inside = code !== StopCode.None && calls > 0 && !(st[Run.Exhausted] === 1) && !isBeforeCall(code);
  table.end = inside ? calls - 1 : calls;
  runningMax(table.spent, table.spentMax, table.end);
  runningMax(table.elapsed, table.elapsedMax, table.end);
  runningMax(table.tokens, table.tokensMax, table.end);
  runningMax(table.prompt, table.promptMax, table.end);
  return table;
}

/** Stops decided before a call (the kernel's beforeCallStop order). */
export function isBeforeCall(code: StopCode): boolean {
  return code === StopCode.MaxSteps || code === StopCode.Timeout || code === StopCode.Budget || code === StopCode.TokenLimit || code === StopCode.ContextOverflow;
}
