/**
 * `project` is a forward projection, and the runs it draws from are priced as every command prices them by
 * default: the bundled table's dated prices as of the day each run was recorded (so replay reproduces what a
 * run was billed). Where a model's prices on that day are not the table's latest (o3 before its price cut),
 * the projected months are priced at prices no future run pays. Here: which runs were priced as of a past
 * day at prices other than the table's latest for their model (PastDayPrices), and the table that prices
 * every run at its latest (latestPricesOf: what `--prices-as-of <release day>` prices at), and the warning
 * of them with what the runs cost at the latest prices (pastPricesWarningsOf: the command's and the library's). Pure.
 */
import type { RunPair } from '../metrics/population.js';
import { meanPico } from '../money.js';
import type { ModelPricing, PriceTable } from '../pricing/types.js';
import { pastPricesWarnings } from '../report/pastPricesWarning.js';
import type { ReportWarning } from '../report/warnings.js';
import type { Trace } from '../trace/types.js';
import { configurationRuns, type PopulationConfig } from './run.js';
import { TreePopulation } from './treeSweep.js';

/**
 * The table pricing every run as of its release day, whatever day the run was recorded: resolve with no
 * recording day (the table's rule: the release day), the prices `--prices-as-of <release day>` reads.
 */
export function latestPricesOf(prices: PriceTable): PriceTable {
  return { source: prices.source, resolve: (model, provider) => prices.resolve(model, provider), modelNames: () => prices.modelNames() };
}

/** Runs of one model priced as of one past day, at prices other than the table's latest for it. */
export interface PastDayGap {
  /** The model as the table knows it. */
  model: string;
  /** The day the runs were recorded, their prices read as of. */
  day: string;
  runs: number;
  /** The prices they were priced at, and the table's latest for the model (as of `latest.source.asOf`). */
  then: ModelPricing;
  latest: ModelPricing;
}

/** What a model's price is made of: a change in any of these changes what a run costs. */
function pricesKey(pricing: ModelPricing): string {
  return JSON.stringify([pricing.base, pricing.tiers, pricing.webSearchPico ?? null, pricing.requestPico ?? null]);
}

/** The runs priced as of the day they were recorded, counted by the pricing each took (one object per model and day: the table's memo). */
export class PastDayPrices {
  private readonly runsByPricing = new Map<ModelPricing, number>();

  /** One run priced at `pricing` (as resolved for it). */
  add(pricing: ModelPricing): void {
    if (pricing.source.dating === 'recorded') this.runsByPricing.set(pricing, (this.runsByPricing.get(pricing) ?? 0) + 1);
  }

  /** Whether `pricing` (a run's) is one of a past day's that differs from the table's latest. */
  differs(pricing: ModelPricing, prices: PriceTable): boolean {
    if (pricing.source.dating !== 'recorded') return false;
    const latest = latestOf(pricing, prices);
    return latest !== undefined && pricesKey(latest) !== pricesKey(pricing);
  }

  /** Each model and day whose prices are not the table's latest for the model, by model then day. */
  gaps(prices: PriceTable): PastDayGap[] {
    const byKey = new Map<string, PastDayGap>();
    for (const [then, runs] of this.runsByPricing) {
      const latest = latestOf(then, prices);
      if (latest === undefined || pricesKey(latest) === pricesKey(then)) continue;
      const key = `${then.model}\u0000${then.source.asOf}`;
      const seen = byKey.get(key);
      if (seen === undefined) byKey.set(key, { model: then.model, day: then.source.asOf!, runs, then, latest });
      else seen.runs += runs;
    }
    return [...byKey.values()].sort((a, b) => (a.model !== b.model ? (a.model < b.model ? -1 : 1) : a.day < b.day ? -1 : a.day > b.day ? 1 : 0));
  }
}

/** The table's latest prices of the model `pricing` prices (its name and provider in the table); undefined when the table cannot say (it priced it, so it should). */
function latestOf(pricing: ModelPricing, prices: PriceTable): ModelPricing | undefined {
  try {
    return latestPricesOf(prices).resolve(pricing.model, pricing.provider);
  } catch {
    return undefined;
  }
}

/** The runs projected: `pairs` each run under the brakes (recorded runs first, then a scenario file's; --tree: each tree), `pricings` each run's as it was made. */
export interface PricedRuns {
  prices: PriceTable;
  config: PopulationConfig;
  pairs: readonly RunPair[];
  pricings: readonly ModelPricing[];
  /** The recorded runs, in the order they were priced (the first of `pricings`). */
  recordedTraces: readonly Trace[];
  /** --tree: the session trees (`pairs` one per tree; `pricings` one per run of them). */
  trees?: TreePopulation;
}

/**
 * `prices_as_recorded` (pastPricesWarning.ts) when runs were priced as of the day they were recorded at prices
 * other than the table's latest and some run costs otherwise at the latest (each run's exact cost compared);
 * when every run costs the same (only tiers or prices the runs do not pay changed), the short
 * `prices_as_recorded_same_cost`. With `--prices-as-of` (every run that day) or a table without dated prices, none.
 */
export function pastPricesWarningsOf(run: PricedRuns): ReportWarning[] {
  const { source } = run.prices;
  if (source.asOf !== undefined || source.releasedOn === undefined) return [];
  const past = new PastDayPrices();
  for (const pricing of run.pricings) past.add(pricing);
  const gaps = past.gaps(run.prices);
  if (gaps.length === 0) return [];
  const mean = (costs: readonly number[]) => meanPico(costs.reduce((sum, cost) => sum + BigInt(cost), 0n), costs.length);
  const costs = run.pairs.map((pair) => pair.run.costPico);
  const latestCosts = costsAtLatest(run, past);
  const changedRuns = costs.filter((cost, i) => cost !== latestCosts[i]).length;
  return pastPricesWarnings(gaps, { meanPico: mean(costs), latestMeanPico: mean(latestCosts), changedRuns }, source.releasedOn);
}

/**
 * Each run's cost at the table's latest prices under the same brakes (`pairs`' order): the recorded runs priced
 * at a past day's other prices replayed again at them (the rest cost what they did); with --tree, every tree.
 */
function costsAtLatest(run: PricedRuns, past: PastDayPrices): number[] {
  const latest = latestPricesOf(run.prices);
  if (run.trees !== undefined) return new TreePopulation(run.trees.trees, latest).pairs(run.config).map((pair) => pair.run.costPico);
  const traces = run.recordedTraces;
  const stale = traces.flatMap((_, i) => (past.differs(run.pricings[i]!, run.prices) ? [i] : []));
  const again = configurationRuns({ traces: stale.map((i) => traces[i]!) }, run.config, latest);
  const costs = run.pairs.map((pair) => pair.run.costPico);
  stale.forEach((i, k) => (costs[i] = again[k]!.run.costPico));
  return costs;
}
