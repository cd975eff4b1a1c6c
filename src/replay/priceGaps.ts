/**
 * The price check of the population commands (sweep, calibrate, project, check, fit): each recorded run,
 * as it is read, priced by the table as recorded (its own model, no brakes) beside what it recorded
 * (runFacts.ts recordedCostCheckOf, off its compiled trace when it has one), summed per model. A run
 * re-priced as another model (--model) is not checked, as replay's notes do not check it.
 */
import { PriceGapCheck } from '../pricing/recordedCost.js';
import type { ModelPricing, PriceTable } from '../pricing/types.js';
import { PRICE_GAP_TOLERANCE, priceGapWarnings, type ReportWarning } from '../report/warnings.js';
import type { Trace } from '../trace/types.js';
import { tracePricing } from './tracePricing.js';
import { recordedCostCheckOf } from './runFacts.js';

/** One run's check added to `check` (nothing when it recorded no cost); `pricing`: the run's own, when the caller resolved it already. */
export function notePriceGap(check: PriceGapCheck, trace: Trace, prices: PriceTable, pricing: ModelPricing = tracePricing(trace, { prices })): void {
  const recorded = recordedCostCheckOf(trace, pricing);
  if (recorded !== undefined) check.addCheck(pricing.model, recorded);
}

/** The check of `traces` (none with `model`: every run re-priced as another model). */
export function priceGapsOf(traces: readonly Trace[], prices: PriceTable, model?: string): PriceGapCheck {
  const check = new PriceGapCheck();
  if (model === undefined) for (const trace of traces) notePriceGap(check, trace, prices);
  return check;
}

/** The price-gap warning of `traces` (report/warnings.ts), naming `inputs` in its fix. */
export function priceGapWarningsOf(traces: readonly Trace[], options: { prices: PriceTable; model?: string; inputs: readonly string[] }): ReportWarning[] {
  return priceGapWarnings(priceGapsOf(traces, options.prices, options.model).gaps(PRICE_GAP_TOLERANCE), options.inputs);
}
