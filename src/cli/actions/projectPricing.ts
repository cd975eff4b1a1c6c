/**
 * What `project` says of the prices its runs took, JSON `prices` as replay gives it: the table's source, each
 * resolution the runs were priced at with its runs (report/pricedModels.ts), the days they were priced as of
 * and the note after the prices line (report/priceDays.ts). Where runs were priced as of a past day at other
 * prices than the table's latest, population/projectPrices.ts warns.
 */
import type { ModelPricing, PriceSource } from '../../pricing/types.js';
import type { ProjectPricesRecord } from '../../report/projectReport.js';
import { PriceDaysTally } from '../../report/priceDays.js';
import { PricedModels, pricesRecordOf } from '../../report/pricedModels.js';

/** The prices block of the runs priced at `pricings` (each run's, as it was made). */
export function projectPrices(source: PriceSource, pricings: readonly ModelPricing[]): ProjectPricesRecord {
  const models = new PricedModels();
  const days = new PriceDaysTally();
  for (const pricing of pricings) models.add(pricing), days.add(pricing);
  return pricesRecordOf(source, { models, days });
}
