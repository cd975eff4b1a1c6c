/**
 * A sweep's `repriced_without_cache_writes` (report/repricedCacheWrites.ts, as replay, whatif, `--tree` and
 * project say it): the configurations that re-price the recorded runs as a model (`--model`, `--grid model=`)
 * with their cache as recorded (no `--cache`; `--cache`, `--grid cache=` take on or off, which say nothing),
 * where the model bills cache writes and runs read a cache they record no write of. Read off the runs counted
 * by kind (pricedRunKinds.ts: what the prices block counts already, joined across threads), so no run
 * is read or priced again, and every thread count and every shard says the same (over the whole grid). A run
 * is counted once per model whatever number of configurations re-price it so; where only some configurations
 * do (a model axis), the line says which: `(in 2 of 6 configurations: model=claude-sonnet-4-5)`.
 */
import type { ModelPricing } from '../../pricing/types.js';
import type { PricedRunKind } from './pricedRunKinds.js';
import { RepricedCacheWrites, repricedWithCacheAsRecorded } from '../../report/repricedCacheWrites.js';
import type { ReportWarning } from '../../report/warnings.js';
import { pricingFor } from './runNotes.js';
import type { SweepSetup } from './sweepWork.js';

/** The configurations' models (as given) that re-price the recorded runs with their cache as recorded, each with how many configurations do. */
function repricingModels(setup: Pick<SweepSetup, 'configurations'>): Map<string, number> {
  const models = new Map<string, number>();
  for (const { config } of setup.configurations) {
    if (config.model === undefined || !repricedWithCacheAsRecorded({ model: config.model, cache: config.strategy.cache })) continue;
    models.set(config.model, (models.get(config.model) ?? 0) + 1);
  }
  return models;
}

/** `repriced_without_cache_writes` of a sweep's recorded runs (`kinds`) under its configurations (the whole grid's). */
export function sweepRepricedWritesWarnings(setup: Pick<SweepSetup, 'axes' | 'configurations' | 'prices'>, kinds: readonly PricedRunKind[]): ReportWarning[] {
  const reading = kinds.filter((kind) => kind.readOnlyRuns > 0);
  const models = repricingModels(setup);
  if (reading.length === 0 || models.size === 0) return [];
  // Per table model: each kind's pricing once (two names of one model re-price a run once), and the names (and configurations) that price as it.
  const byTableModel = new Map<string, { pricings: Map<PricedRunKind, ModelPricing>; given: Set<string>; configurations: number }>();
  for (const [model, configurations] of models) {
    for (const kind of reading) {
      const pricing = pricingFor(kind.run, { prices: setup.prices, model });
      const seen = byTableModel.get(pricing.model) ?? { pricings: new Map(), given: new Set(), configurations: 0 };
      if (!seen.pricings.has(kind)) seen.pricings.set(kind, pricing);
      if (!seen.given.has(model)) seen.configurations += configurations;
      seen.given.add(model);
      byTableModel.set(pricing.model, seen);
    }
  }
  const tally = new RepricedCacheWrites();
  for (const { pricings } of byTableModel.values()) for (const [kind, pricing] of pricings) tally.addRuns(pricing, { runs: kind.readOnlyRuns, readTokens: kind.readOnlyTokens });
  const all = setup.configurations.length;
  const modelAxis = setup.axes.some((axis) => axis.key === 'model');
  return tally.warnings((model) => {
    const { given, configurations } = byTableModel.get(model)!;
    if (configurations === all) return '';
    const which = `in ${configurations} of ${all} configurations`;
    return modelAxis ? ` (${which}: model=${[...given].join(',')})` : ` (${which})`;
  });
}
