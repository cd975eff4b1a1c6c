/**
 * What a sweep (and calibrate) says of the prices its runs took: JSON `prices` as replay gives it
 * (report/pricedModels.ts pricesRecord: the table, `source`, `models`, `days`, `note`), over the whole grid, so
 * every shard of a sweep says the same. A sweep's threads read its runs apart (sweepUnits.ts), so what the
 * block needs of the recorded runs is counted by kind (PricedRunKinds), small enough to collect and send.
 */
import { utcDay } from '../../pricing/genaiPrices.js';
import type { ModelPricing } from '../../pricing/types.js';
import { PriceDaysTally } from '../../report/priceDays.js';
import { PricedModels, pricesRecordOf, type PricesRecord } from '../../report/pricedModels.js';
import { COMMAND_LINE_MODEL } from '../../options/given.js';
import { resolveScenarioPricing } from '../../scenario/run.js';
import type { Trace } from '../../trace/types.js';
import { pricingFor } from './runNotes.js';
import type { SweepSetup } from './sweepWork.js';

/** Runs the table prices alike as their own model (model, provider, recording day in UTC: what pricingFor resolves a run's own model by): one of them, header only, and how many. */
export interface PricedRunKind {
  run: Trace;
  runs: number;
}

/** A run's header alone: what its kind needs of it. */
const headerOnly = (run: Trace): Trace => ({ source: run.source, header: run.header, calls: [], end: { type: 'end', outcome: 'unknown' } });

/**
 * Runs counted by kind (PricedRunKind), kinds in the order first read: what the prices block needs of them, and
 * the cache warning (one run of each kind: scenarioWarnings.ts cacheOnRuns). Counts add up across files and threads.
 */
export class PricedRunKinds {
  private readonly byKey = new Map<string, PricedRunKind>();

  /** Runs read, each counted under its kind. */
  add(runs: Iterable<Trace>): this {
    for (const run of runs) this.count(run, 1, headerOnly);
    return this;
  }

  /** Kinds another part of the runs counted (a file's, a unit's, a thread's). */
  join(kinds: Iterable<PricedRunKind>): this {
    for (const { run, runs } of kinds) this.count(run, runs, (kept) => kept);
    return this;
  }

  private count(run: Trace, runs: number, keep: (run: Trace) => Trace): void {
    const { model, provider, recordedAt } = run.header;
    const key = `${model}\u0000${provider ?? ''}\u0000${utcDay(recordedAt) ?? ''}`;
    const kind = this.byKey.get(key);
    if (kind !== undefined) kind.runs += runs;
    else this.byKey.set(key, { run: keep(run), runs });
  }

  get size(): number {
    return this.byKey.size;
  }

  kinds(): PricedRunKind[] {
    return [...this.byKey.values()].map((kind) => ({ ...kind }));
  }
}

/**
 * The prices block of a sweep's runs: each kind of recorded run (`kinds`) and each scenario file's runs priced
 * as every model the grid's configurations price them as (each its own, --model, `--grid model=`: as
 * cacheOnRuns resolves them), each resolution with the runs it priced (a run two configurations price alike
 * counted once, so without a model axis the runs are replay's); the days each run once.
 */
export function sweepPrices(setup: Pick<SweepSetup, 'configurations' | 'prices' | 'scenarios'>, kinds: readonly PricedRunKind[]): PricesRecord {
  const models = new PricedModels();
  const days = new PriceDaysTally();
  const asModels = setup.configurations.length === 0 ? [undefined] : [...new Set(setup.configurations.map((c) => c.config.model))];
  const add = (runs: number, pricingAs: (model: string | undefined) => ModelPricing): void => {
    const pricings = [...new Set(asModels.map(pricingAs))];
    for (const pricing of pricings) models.add(pricing, runs);
    // Which day a run's dated prices are of is the run's (its recording day, else the release day), whatever the model.
    days.add(pricings[0]!, runs);
  };
  for (const { run, runs } of kinds) add(runs, (model) => pricingFor(run, { prices: setup.prices, ...(model === undefined ? {} : { model }) }));
  for (const { scenario, settings } of setup.scenarios) add(settings.runs, (model) => resolveScenarioPricing(scenario, setup.prices, { model, modelPlace: COMMAND_LINE_MODEL }));
  return pricesRecordOf(setup.prices.source, { models, days });
}
