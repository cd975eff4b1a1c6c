/**
 * A sweep's runs priced as their own model (sweep, calibrate, project: every path that reads their runs —
 * the runs read whole, a share's, a file streamed, a byte range of one): only when something prices a run
 * as its own model — a configuration without --model or `--grid model=`, or the context-token curves, which
 * replay each run as its own model unless --model gives one — must the run's model resolve in the table.
 * One that does not is a problem of the run's file, found by the per-file guard that finds its other
 * problems (TraceInputs.guard), so it is named with them, or left out under --skip-bad, as in replay
 * (runNotes.ts pricingFor, which names the field as the run's own format names it).
 */
import { UserError } from '../../errors.js';
import { PriceGapCheck, type PriceGapSums } from '../../pricing/recordedCost.js';
import type { ModelPricing, PriceTable } from '../../pricing/types.js';
import { notePriceGap } from '../../replay/priceGaps.js';
import type { Trace } from '../../trace/types.js';
import { pricingFor } from './runNotes.js';
import type { SweepSetup } from './sweepWork.js';

type PricedSetup = Pick<SweepSetup, 'axes' | 'configurations' | 'fixed' | 'prices'>;

/** Whether some configuration of the whole grid (a shard's too: every shard leaves out the same files) prices runs as their own model. */
export function configurationPricesOwn(setup: Pick<SweepSetup, 'configurations'>): boolean {
  return setup.configurations.some((c) => c.config.model === undefined);
}

/** Whether a run's own model is asked for: by a configuration, or by the context-token curves (contextSumsOf: a `context` axis, no --model). */
function ownModelAsked(setup: PricedSetup): boolean {
  return configurationPricesOwn(setup) || (setup.fixed.model === undefined && setup.axes.some((axis) => axis.key === 'context'));
}

/**
 * A run's own pricing, resolved once per run (the caller runs it in its file's guard; a UserError names
 * the run's file): undefined when nothing asks for it. Decided once per sweep, not per run.
 */
export function ownPricingOf(setup: PricedSetup): (trace: Trace) => ModelPricing | undefined {
  if (!ownModelAsked(setup)) return () => undefined;
  const options = { prices: setup.prices };
  return (trace) => pricingFor(trace, options);
}

/**
 * The price check of a sweep's runs (replay/priceGaps.ts): every run that recorded a cost, priced by the
 * table as its own model, whatever the configurations price it as; which of them the report may warn of is
 * decided once every thread's sums are in (splitPriceGaps). A run whose own model the table lacks is not
 * checked (nothing prices it so, or its file is bad already: ownPricingOf); such a model is resolved once.
 */
export function priceCheckOf(setup: Pick<SweepSetup, 'prices'>): (check: PriceGapCheck, run: { trace: Trace; pricing?: ModelPricing | undefined }) => void {
  const unknown = new Set<string>();
  return (check, { trace, pricing }) => {
    const key = `${trace.header.provider ?? ''}\u0000${trace.header.model}`;
    if (pricing === undefined && unknown.has(key)) return;
    try {
      notePriceGap(check, trace, setup.prices, pricing);
    } catch (error) {
      if (!(error instanceof UserError)) throw error;
      unknown.add(key);
    }
  };
}

/** The price check of runs already read (population commands): see priceCheckOf. */
export function sweepPriceGaps(setup: Pick<SweepSetup, 'prices'>, traces: readonly Trace[]): PriceGapCheck {
  const check = new PriceGapCheck();
  const note = priceCheckOf(setup);
  for (const trace of traces) note(check, { trace });
  return check;
}

/**
 * The price check's sums split by whether a configuration prices their runs as their own model: one
 * without a model (each run its own), or one whose model (`--model`, `--grid model=`) the table knows by the
 * run's model's name. Only those are checked, as replay notes no gap for runs re-priced as another model.
 */
export function splitPriceGaps(setup: Pick<SweepSetup, 'configurations' | 'prices'>, all: PriceGapCheck): { checked: PriceGapCheck; unchecked: PriceGapSums } {
  const checked = new PriceGapCheck();
  if (configurationPricesOwn(setup)) {
    checked.addSums(all.sums());
    return { checked, unchecked: [] };
  }
  const priced = new Set(setup.configurations.map((c) => tableName(setup.prices, c.config.model!)));
  const sums = all.sums();
  checked.addSums(sums.filter((s) => priced.has(s.model)));
  return { checked, unchecked: sums.filter((s) => !priced.has(s.model)) };
}

/** The name the table knows a model by (the name itself where the table lacks it). */
function tableName(prices: PriceTable, model: string): string {
  try {
    return prices.resolve(model).model;
  } catch (error) {
    if (!(error instanceof UserError)) throw error;
    return model;
  }
}
