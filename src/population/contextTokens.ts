/**
 * Each context strategy's cumulative prompt tokens per step over a population of recorded runs, side by
 * side: what the sweep chart shows when `context` is a grid axis (as `curve --compare-context` does for
 * one constant-step loop). Every run is replayed with no brakes under each strategy (so the curves show
 * the strategy alone), by the compiled kernel's run table (its figures before every call) or, for a
 * strategy that rewrites older steps, the readable loop's rows; a run that ended stays flat after its
 * last step. Pure: no node:*, no clock.
 */
import { NO_BRAKES } from '../brakes/config.js';
import type { CacheMode, ContextStrategy, StrategyPlace } from '../context/strategy.js';
import type { LatencyModel } from '../loop/latency.js';
import type { ModelPricing, PriceTable } from '../pricing/types.js';
import { brakeLimits, type BrakeLimits } from '../kernel/limits.js';
import { flattenPrices, type FlatPrices } from '../kernel/prices.js';
import { compiledOf } from '../replay/compiledRuns.js';
import { buildRunTable } from '../fast/plainTable.js';
import { toolStopCall } from '../fast/replayFast.js';
import type { RunTable } from '../fast/runTable.js';
import type { CompiledTrace } from '../fast/layout.js';
import { outcomeOf, Run, type RunState } from '../fast/runState.js';
import { runSettings, type RunSettings } from '../fast/settings.js';
import { sweepsStepwise } from '../fast/strategySteps.js';
import { stopInTable } from '../fast/tableStop.js';
import { defaultCacheMode, replayTrace } from '../replay/replay.js';
import { tracePricing } from '../replay/tracePricing.js';
import { argumentPlace, optionPlace, type NamedPlace } from '../options/given.js';
import { inRunContext } from '../replay/runContext.js';
import type { Trace } from '../trace/types.js';
import { maxOf } from '../metrics/extremes.js';
import { statesItsStrategy } from './sweepRecorded.js';

export interface ContextTokenCurves {
  /** The strategies in `--context` syntax, in grid order. */
  strategies: string[];
  runs: number;
  /** Sampled steps (at most MAX_CURVE_STEPS, the last always): per strategy, the mean per run of its prompt tokens up to and including that step (summary calls included). */
  steps: { step: number; meanCumulativeInputTokens: number[] }[];
}

export const MAX_CURVE_STEPS = 20;

/** What a run's curves need of it once, whatever the strategy: its prices, compiled trace and brake limits (none: the context window only). */
interface CurveRun {
  trace: Trace;
  pricing: ModelPricing;
  t: CompiledTrace;
  flat: FlatPrices;
  limits: BrakeLimits;
  toolStop: number;
}

/** A run table and run state reused from run to run; brake limits and run settings made once each. */
class CurveScratch {
  table: RunTable | undefined;
  readonly st: RunState = new Float64Array(Run.Size);
  private readonly limits = new Map<number, BrakeLimits>();
  /** Per strategy (by index), per cache mode. */
  private readonly settings: Map<CacheMode, { settings: RunSettings; stepwise: boolean }>[] = [];

  /** No brakes, for a model's context window. */
  limitsFor(contextWindow: number): BrakeLimits {
    let limits = this.limits.get(contextWindow);
    if (limits === undefined) this.limits.set(contextWindow, (limits = brakeLimits(NO_BRAKES, contextWindow)));
    return limits;
  }

  /** Strategy `index`'s run settings under a cache mode, and whether it is replayed call by call. */
  settingsFor(index: number, strategy: ContextStrategy, cache: CacheMode, latency: LatencyModel | undefined): { settings: RunSettings; stepwise: boolean } {
    const byCache = (this.settings[index] ??= new Map());
    let known = byCache.get(cache);
    if (known === undefined) {
      const settings = runSettings(strategy, cache, latency);
      byCache.set(cache, (known = { settings, stepwise: sweepsStepwise(settings, [NO_BRAKES]) }));
    }
    return known;
  }
}

/**
 * What the curves take beside the runs and strategies: the model to price every run as (default: each
 * run's own), the latency, and where the model and the strategies were given, to name them in a complaint
 * (default: the entry point's own, `<contextTokenSums options>` field `model`, `<contextTokenSums
 * arguments>` field `strategies[i].strategy`; the CLI passes `--model` and `--context`).
 */
export interface ContextCurveOptions {
  model?: string;
  latency?: LatencyModel;
  modelPlace?: NamedPlace;
  strategyPlace?: StrategyPlace;
}

/** A strategy of the curves, with its index and where it was given. */
interface PlacedStrategy {
  index: number;
  strategy: ContextStrategy;
  place: StrategyPlace;
}

/** Adds one run's cumulative prompt tokens after each call (summary calls counted, not listed) under `strategy` to `sums`. */
function addRunCurve(run: CurveRun, strategy: PlacedStrategy, options: { model?: string; latency?: LatencyModel; prices: PriceTable }, scratch: CurveScratch, sums: StepSums): void {
  const { settings, stepwise } = scratch.settingsFor(strategy.index, strategy.strategy, strategy.strategy.cache ?? defaultCacheMode(run.trace), options.latency);
  // Strategies that rewrite older steps, and a recording that states its strategy (as its loop ran it, or rebuilt:
  // replay/recordedStrategy.ts): the readable loop's rows. Else the compiled run's table (runTable.ts: its figures before every call).
  if (stepwise || statesItsStrategy(run.trace)) {
    const { model, latency, prices } = options;
    const result = replayTrace(run.trace, { strategy: strategy.strategy, strategyPlace: strategy.place, prices, pricing: run.pricing, brakes: NO_BRAKES, keepSteps: true, ...(model === undefined ? {} : { model }), ...(latency === undefined ? {} : { latency }) });
    sums.add(result.rows.filter((row) => row.summary !== true).map((row) => row.cumulativeInputTokens));
    return;
  }
  const { t, limits, toolStop } = run;
  const table = (scratch.table = buildRunTable(t, settings, run.flat, limits, toolStop, scratch.table));
  stopInTable(table, t, limits, toolStop, scratch.st);
  // (As the replay would: a run whose cost leaves exact picodollars is refused.)
  outcomeOf(t, scratch.st, limits, run.flat);
  // Input tokens before call k: the table's tokens less the output before k.
  sums.addDifferences(table.tokens, t.outputBefore, scratch.st[Run.Calls]!);
}

/** The steps shown: every step up to MAX_CURVE_STEPS, else MAX_CURVE_STEPS evenly spaced ones ending at the last. */
function sampledSteps(last: number): number[] {
  if (last <= MAX_CURVE_STEPS) return Array.from({ length: last }, (_, i) => i + 1);
  return [...new Set(Array.from({ length: MAX_CURVE_STEPS }, (_, i) => Math.ceil(((i + 1) * last) / MAX_CURVE_STEPS)))];
}

export function contextTokenCurves(traces: readonly Trace[], strategies: readonly { spec: string; strategy: ContextStrategy }[], prices: PriceTable, options: ContextCurveOptions = {}): ContextTokenCurves {
  return contextCurvesOf(tokenSums(traces, strategies, prices, { ...options, entry: 'contextTokenCurves' }));
}

/**
 * The curves' sums over some runs: per strategy, Σ over the runs of their cumulative prompt tokens at
 * each step up to the longest run (a run that ended counts its last figure). Whole numbers, so shares of
 * the runs summed apart merge (mergeContextTokenSums) into exactly the sums of them all.
 */
export interface ContextTokenSums {
  strategies: string[];
  runs: number;
  /** Per strategy, index k: step k+1. */
  sums: number[][];
}

/** The length of the longest list, 0 for none. */
const longest = (lists: readonly (readonly number[])[]): number => maxOf(lists.map((list) => list.length), 0);

/**
 * One strategy's sums, run by run (no run's list kept): `reached[k]`, Σ of step k+1 over the runs that
 * reach it; `ended[L]`, Σ of the last figure of the runs of L steps, which each step from L+1 on counts.
 */
class StepSums {
  private readonly reached: number[] = [];
  private readonly ended: number[] = [0];
  add(byStep: readonly number[]): void {
    const steps = byStep.length;
    this.reach(steps);
    for (let k = 0; k < steps; k++) this.reached[k] = this.reached[k]! + byStep[k]!;
    if (steps > 0) this.ended[steps] = this.ended[steps]! + byStep[steps - 1]!;
  }
  /** As add, step k+1 being `of[k + 1] − less[k + 1]` for the first `steps`: no list made. */
  addDifferences(of: ArrayLike<number>, less: ArrayLike<number>, steps: number): void {
    this.reach(steps);
    for (let k = 0; k < steps; k++) this.reached[k] = this.reached[k]! + (of[k + 1]! - less[k + 1]!);
    if (steps > 0) this.ended[steps] = this.ended[steps]! + (of[steps]! - less[steps]!);
  }
  private reach(steps: number): void {
    while (this.reached.length < steps) {
      this.reached.push(0);
      this.ended.push(0);
    }
  }
  get longest(): number {
    return this.reached.length;
  }
  /** The sums at steps 1..last (whole numbers: the same whatever order the runs came in). */
  sums(last: number): number[] {
    let flat = 0;
    return Array.from({ length: last }, (_, k) => {
      flat += this.ended[k] ?? 0;
      return (this.reached[k] ?? 0) + flat;
    });
  }
}

export function contextTokenSums(traces: readonly Trace[], strategies: readonly { spec: string; strategy: ContextStrategy }[], prices: PriceTable, options: ContextCurveOptions = {}): ContextTokenSums {
  return tokenSums(traces, strategies, prices, { ...options, entry: 'contextTokenSums' });
}

function tokenSums(traces: readonly Trace[], strategies: readonly { spec: string; strategy: ContextStrategy }[], prices: PriceTable, options: ContextCurveOptions & { entry: string }): ContextTokenSums {
  const scratch = new CurveScratch();
  const perStrategy = strategies.map(() => new StepSums());
  const indexed = strategies.map(({ strategy }, index) => ({ index, strategy, place: options.strategyPlace ?? argumentPlace(options.entry, `strategies[${index}].strategy`) }));
  const { model, latency } = options;
  const replayOptions = { ...(model === undefined ? {} : { model }), ...(latency === undefined ? {} : { latency }), prices };
  const modelPlace = options.modelPlace ?? optionPlace(options.entry, 'model');
  // Run by run, each strategy in turn: a run's prices, compiled trace and limits found once for them all.
  for (const trace of traces) {
    const pricing = tracePricing(trace, { prices, modelPlace, ...(model === undefined ? {} : { model }) });
    inRunContext(trace, () => {
      const t = compiledOf(trace);
      const flat = flattenPrices(pricing);
      const limits = scratch.limitsFor(flat.contextWindow);
      const run: CurveRun = { trace, pricing, t, flat, limits, toolStop: toolStopCall(t, limits) };
      for (const strategy of indexed) addRunCurve(run, strategy, replayOptions, scratch, perStrategy[strategy.index]!);
    });
  }
  const last = maxOf(perStrategy.map((sums) => sums.longest), 0);
  return { strategies: strategies.map((s) => s.spec), runs: traces.length, sums: perStrategy.map((sums) => sums.sums(last)) };
}

/** Sums over disjoint shares of the runs, added up (a share's sums stay flat past its longest run). */
export function mergeContextTokenSums(parts: readonly ContextTokenSums[]): ContextTokenSums {
  const first = parts[0]!;
  const last = longest(parts.flatMap((part) => part.sums));
  const at = (byStep: readonly number[], k: number) => (byStep.length === 0 ? 0 : byStep[Math.min(k, byStep.length - 1)]!);
  return {
    strategies: first.strategies,
    runs: parts.reduce((n, part) => n + part.runs, 0),
    sums: first.strategies.map((_, i) => Array.from({ length: last }, (_, k) => parts.reduce((sum, part) => sum + at(part.sums[i]!, k), 0))),
  };
}

export function contextCurvesOf(sums: ContextTokenSums): ContextTokenCurves {
  const last = longest(sums.sums);
  const steps = sampledSteps(last).map((step) => ({
    step,
    meanCumulativeInputTokens: sums.sums.map((byStep) => (sums.runs === 0 ? 0 : Math.round(byStep[step - 1]! / sums.runs))),
  }));
  return { strategies: sums.strategies, runs: sums.runs, steps };
}
