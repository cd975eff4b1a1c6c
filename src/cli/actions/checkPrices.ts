/**
 * check's JSON `prices`: the one block every command that prices runs gives (report/pricedModels.ts
 * pricesRecord: the table, `source`, `models`, `days`, `note`), of the runs its scenarios ran: each scenario's
 * recorded runs priced as its runs are (--model, else a traces-only file's `model:`: check/fileModel.ts, else
 * each run's own) and its synthetic runs as its file's model (or --model), as replay prices the same runs. A
 * run two scenario files name is a run of each, counted under each. The recorded runs are counted by kind (as
 * sweep's block counts them: pricedRunKinds.ts) under each model they are priced as, and each kind
 * priced once: the block does not price every run again after the check priced it.
 */
import type { CheckInput } from '../../check/inputs.js';
import { recordedRunsModel } from '../../check/fileModel.js';
import { COMMAND_LINE_MODEL } from '../../options/given.js';
import type { PriceTable } from '../../pricing/types.js';
import { PriceDaysTally } from '../../report/priceDays.js';
import { PricedModels, pricesRecordOf, type PricesRecord } from '../../report/pricedModels.js';
import type { Scenario } from '../../scenario/load.js';
import { resolveScenarioPricing } from '../../scenario/scenarioPlaces.js';
import type { Trace } from '../../trace/types.js';
import { pricingFor } from './runNotes.js';
import { PricedRunKinds } from './pricedRunKinds.js';

/** The prices block of a check's runs: each scenario's (`checks[i]`) recorded runs (`traces[i]`), then its synthetic ones. */
export function checkPrices(checks: readonly CheckInput[], traces: readonly (readonly Trace[])[], options: { prices: PriceTable; model?: string }): PricesRecord {
  const models = new PricedModels();
  const days = new PriceDaysTally();
  // The recorded runs by the model they are priced as (undefined: each its own), counted by kind.
  const kindsByModel = new Map<string | undefined, PricedRunKinds>();
  checks.forEach((input, i) => {
    const model = recordedRunsModel(input.scenario, options.model);
    const kinds = kindsByModel.get(model) ?? new PricedRunKinds();
    kindsByModel.set(model, kinds.add(traces[i] ?? []));
    if (input.scenario.population === undefined) return;
    const pricing = resolveScenarioPricing(input.scenario as Scenario, options.prices, { model: options.model, modelPlace: COMMAND_LINE_MODEL });
    models.add(pricing, input.settings.runs), days.add(pricing, input.settings.runs);
  });
  for (const [model, kinds] of kindsByModel) {
    for (const { run, runs } of kinds.kinds()) {
      const pricing = pricingFor(run, { prices: options.prices, ...(model === undefined ? {} : { model }) });
      models.add(pricing, runs), days.add(pricing, runs);
    }
  }
  return pricesRecordOf(options.prices.source, { models, days });
}
