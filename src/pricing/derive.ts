/**
 * Per-token prices recovered from runs that recorded what they cost (`loopcost prices derive`): for each
 * model, the prices (input, cached read, cache write 5 min and 1 h, output, reasoning) that best explain
 * the recorded costs by exact least squares (exactLeastSquares.ts), rounded to whole picodollars per
 * token (every price quoted to $0.000001 per million tokens is one), with the residual of the rounded
 * prices stated. A call that recorded its cost is one observation; a run that recorded only its total is
 * one observation of its summed usage.
 */
import { UserError } from '../errors.js';
import { plainOutputTokens, uncachedTokens } from '../kernel/cost.js';
import { usdToPico, type Pico } from '../money.js';
import type { Trace } from '../trace/types.js';
import type { TokenPriceKey } from './cost.js';
import { LITELLM_PRICE_FIELD } from './litellmKeys.js';
import { NormalEquations, rationalToNumber, roundRational } from './exactLeastSquares.js';
import { recordedUsage } from './recordedCost.js';
import type { CallUsage } from './types.js';
import { counted } from '../plural.js';

/** Unknowns in the order they are solved for: a column that adds no rank after these is not identifiable. */
export const DERIVED_KEYS: readonly TokenPriceKey[] = ['input', 'output', 'cachedInput', 'cacheWrite', 'cacheWrite1h', 'reasoning'];

/** Tokens of a call (or a run) billed at each price, in DERIVED_KEYS order. */
function features(usage: CallUsage): number[] {
  const uncached = uncachedTokens(usage.input, usage.cached, usage.cacheWrite, usage.cacheWrite1h);
  return [uncached, plainOutputTokens(usage.output, usage.reasoning), usage.cached, usage.cacheWrite, usage.cacheWrite1h, usage.reasoning];
}

export interface DerivedModel {
  model: string;
  provider?: string;
  /**
   * Why no prices could be derived (a negative price: the costs are not one price per token kind), or,
   * with prices, why they deserve doubt (as many observations as prices: nothing left to check them on).
   */
  problem?: string;
  /** False when `problem` means no prices (the model is left out of the price file). */
  usable: boolean;
  /** Observations: calls that recorded their cost, and runs that recorded only their total. */
  calls: number;
  runs: number;
  /** Derived prices, whole picodollars per token. Absent: not identifiable from these runs. */
  prices: Partial<Record<TokenPriceKey, Pico>>;
  /** The exact least-squares prices before rounding (picodollars per token). */
  exact: Partial<Record<TokenPriceKey, number>>;
  /** Prices these runs cannot tell: no tokens of that kind, or tokens that always move with another kind. */
  notIdentifiable: { key: TokenPriceKey; reason: 'no tokens of this kind' | 'moves with the other token kinds' }[];
  residual: {
    /** Largest |recorded − derived| cost of one observation, picodollars. */
    maxAbsPico: number;
    /** Σ recorded − Σ derived over all observations, and Σ recorded. */
    totalPico: bigint;
    recordedPico: bigint;
    /** Root mean square of the per-observation differences, picodollars. */
    rmsPico: number;
  };
}

interface ModelRows {
  model: string;
  provider?: string;
  equations: NormalEquations;
  rows: { x: number[]; b: bigint }[];
  calls: number;
  runs: number;
}

/** What one run gives the derivation: its model and its observations (each call's, or the run's total). */
export interface RunObservations {
  model: string;
  provider?: string;
  rows: { x: number[]; b: bigint; perCall: boolean }[];
}

/** A run's observations (none when it recorded no cost), taken while the run is at hand. */
export function runObservations(trace: Trace): RunObservations {
  const run: RunObservations = { model: trace.header.model, rows: observations(trace) };
  if (trace.header.provider !== undefined) run.provider = trace.header.provider;
  return run;
}

function observations(trace: Trace): RunObservations['rows'] {
  const out: RunObservations['rows'] = [];
  for (const call of trace.calls) {
    const usage = recordedUsage(call);
    if (usage && call.recordedCostUsd !== undefined) out.push({ x: features(usage), b: BigInt(usdToPico(call.recordedCostUsd)), perCall: true });
  }
  if (out.length > 0 || trace.end.recordedCostUsd === undefined) return out;
  const usages = trace.calls.map(recordedUsage);
  if (usages.length === 0 || usages.some((usage) => usage === undefined)) return out;
  const total = [0, 0, 0, 0, 0, 0];
  for (const usage of usages) features(usage!).forEach((n, i) => (total[i]! += n));
  return [{ x: total, b: BigInt(usdToPico(trace.end.recordedCostUsd)), perCall: false }];
}

/**
 * Prices per model (sorted by model) from every run that recorded a cost; runs that recorded none are
 * counted in `skippedRuns`. Throws a UserError when no run recorded a cost.
 */
export function derivePrices(traces: Iterable<Trace>): { models: DerivedModel[]; skippedRuns: number } {
  const runs: RunObservations[] = [];
  for (const trace of traces) runs.push(runObservations(trace));
  return derivePricesFrom(runs);
}

/** The same from runs' observations (see `runObservations`). */
export function derivePricesFrom(runs: Iterable<RunObservations>): { models: DerivedModel[]; skippedRuns: number } {
  const byModel = new Map<string, ModelRows>();
  let skippedRuns = 0;
  for (const { model, provider, rows } of runs) {
    if (rows.length === 0) {
      skippedRuns += 1;
      continue;
    }
    let entry = byModel.get(model);
    if (!entry) {
      entry = { model, equations: new NormalEquations(DERIVED_KEYS.length), rows: [], calls: 0, runs: 0 };
      if (provider !== undefined) entry.provider = provider;
      byModel.set(model, entry);
    }
    for (const row of rows) {
      entry.equations.add(row.x, row.b);
      entry.rows.push({ x: row.x, b: row.b });
      if (row.perCall) entry.calls += 1;
    }
    if (!rows[0]!.perCall) entry.runs += 1;
  }
  if (byModel.size === 0) {
    throw new UserError({
      code: 'no_recorded_cost',
      message: `none of the ${counted(skippedRuns, 'run')} recorded what a call or the run cost (with the token counts it was billed for): there is nothing to derive prices from`,
      hint: 'derive from runs whose source records cost: mini-swe-agent trajectories (extra.cost), OpenRouter responses (usage.cost), native traces with recordedCostUsd',
    });
  }
  const models = [...byModel.values()].sort((a, b) => (a.model < b.model ? -1 : a.model > b.model ? 1 : 0)).map(solveModel);
  return { models, skippedRuns };
}

function solveModel(entry: ModelRows): DerivedModel {
  const { solution } = entry.equations.solve();
  const derived: DerivedModel = { model: entry.model, usable: true, calls: entry.calls, runs: entry.runs, prices: {}, exact: {}, notIdentifiable: [], residual: { maxAbsPico: 0, totalPico: 0n, recordedPico: 0n, rmsPico: 0 } };
  if (entry.provider !== undefined) derived.provider = entry.provider;
  const price: bigint[] = DERIVED_KEYS.map(() => 0n);
  DERIVED_KEYS.forEach((key, j) => {
    const x = solution[j];
    if (x === undefined) {
      const absent = entry.equations.gram[j]![j] === 0n;
      derived.notIdentifiable.push({ key, reason: absent ? 'no tokens of this kind' : 'moves with the other token kinds' });
      return;
    }
    const rounded = roundRational(x);
    if (rounded < 0n && derived.usable) {
      derived.usable = false;
      derived.problem = `the recorded costs fit only with a negative ${key} price (${(rationalToNumber(x) / 1e6).toPrecision(3)} USD per million tokens): not one price per token kind (tiers, mixed price periods) or too few observations`;
    }
    derived.exact[key] = rationalToNumber(x);
    derived.prices[key] = Number(rounded);
    price[j] = rounded;
  });
  let sumSquares = 0;
  for (const row of entry.rows) {
    let fitted = 0n;
    for (let j = 0; j < DERIVED_KEYS.length; j++) if (row.x[j] !== 0) fitted += BigInt(row.x[j]!) * price[j]!;
    const diff = row.b - fitted;
    const absDiff = Math.abs(Number(diff));
    if (absDiff > derived.residual.maxAbsPico) derived.residual.maxAbsPico = absDiff;
    derived.residual.totalPico += diff;
    derived.residual.recordedPico += row.b;
    sumSquares += absDiff * absDiff;
  }
  derived.residual.rmsPico = entry.rows.length === 0 ? 0 : Math.sqrt(sumSquares / entry.rows.length);
  const solved = DERIVED_KEYS.length - derived.notIdentifiable.length;
  if (!derived.usable) return derived;
  const missing = (['input', 'output'] as const).filter((key) => derived.prices[key] === undefined);
  const tangled = derived.notIdentifiable.filter((n) => n.reason === 'moves with the other token kinds').map((n) => n.key);
  if (tangled.length > 0) {
    derived.usable = false;
    derived.problem = `the ${tangled.join(' and ')} price${tangled.length === 1 ? '' : 's'} cannot be told apart from the others in these runs (those tokens always come in the same proportion): the other prices would be blends`;
  } else if (missing.length > 0) {
    derived.usable = false;
    derived.problem = `no ${missing.join(' or ')} price can be told from these runs`;
  } else if (entry.rows.length <= solved) {
    derived.usable = false;
    derived.problem = `${counted(entry.rows.length, 'observation')} for ${solved} prices: they fit by construction, nothing is left to check them on`;
  }
  return derived;
}

/** A price the file can leave out because loopcost's fallback gives the same (reasoning = output, 1 h write = 5 min write). */
export function redundantPrice(model: DerivedModel, key: TokenPriceKey): boolean {
  const p = model.prices;
  if (key === 'reasoning') return p.reasoning === p.output;
  if (key === 'cacheWrite1h') return p.cacheWrite1h === (p.cacheWrite ?? p.input);
  return false;
}

/** The derived prices as a LiteLLM `model_prices_and_context_window.json` document (what `--prices` and `--prices-override` read). */
export function derivedPriceFile(models: readonly DerivedModel[], contextWindow: (model: DerivedModel) => number | undefined = () => undefined): Record<string, Record<string, unknown>> {
  const file: Record<string, Record<string, unknown>> = {};
  for (const model of models) {
    if (!model.usable) continue;
    const entry: Record<string, unknown> = {};
    for (const key of ['input', 'cachedInput', 'cacheWrite', 'cacheWrite1h', 'output', 'reasoning'] as const) {
      const pico = model.prices[key];
      if (pico === undefined || redundantPrice(model, key)) continue;
      entry[LITELLM_PRICE_FIELD[key]] = pico / 1e12;
    }
    const window = contextWindow(model);
    if (window !== undefined) entry.max_input_tokens = window;
    if (model.provider !== undefined) entry.litellm_provider = model.provider;
    entry.mode = 'chat';
    file[model.model] = entry;
  }
  return file;
}
