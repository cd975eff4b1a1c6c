/**
 * What a sweep (and calibrate) says of the prices its runs took: JSON `prices` as replay gives it
 * (report/pricedModels.ts pricesRecord: the table, `source`, `models`, `days`, `note`), over the whole grid, so
 * every shard of a sweep says the same. A sweep's threads read its runs apart (sweepUnits.ts), so what the
 * block needs of the recorded runs is counted by kind (pricedRunKinds.ts), small enough to collect and send.
 */
import type { ModelPricing } from '../../pricing/types.js';
import { PriceDaysTally } from '../../report/priceDays.js';
import { PricedModels, pricesRecordOf, type PricesRecord } from '../../report/pricedModels.js';
import type { PricedRunKind } from './pricedRunKinds.js';
import { COMMAND_LINE_MODEL } from '../../options/given.js';
import { resolveScenarioPricing } from '../../scenario/run.js';
import { pricingFor } from './runNotes.js';
import type { SweepSetup } from './sweepWork.js';

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
