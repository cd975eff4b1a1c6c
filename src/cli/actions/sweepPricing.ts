/**
 * A sweep's runs priced as their own model (sweep, calibrate, project: every path that reads their runs —
 * the runs read whole, a share's, a file streamed, a byte range of one): only when something prices a run
 * as its own model — a configuration without --model or `--grid model=`, or the context-token curves, which
 * replay each run as its own model unless --model gives one — must the run's model resolve in the table.
 * One that does not is a problem of the run's file, found by the per-file guard that finds its other
 * problems (TraceInputs.guard), so it is named with them, or left out under --skip-bad, as in replay
 * (runNotes.ts pricingFor, which names the field as the run's own format names it).
 */
import { PriceGapCheck } from '../../pricing/recordedCost.js';
import type { ModelPricing } from '../../pricing/types.js';
import { priceGapsOf } from '../../replay/priceGaps.js';
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
 * The price check of runs already read (population commands, replay/priceGaps.ts): of runs priced as
 * their own model only, as replay notes no gap for runs re-priced as another (--model, `--grid model=`).
 */
export function sweepPriceGaps(setup: Pick<SweepSetup, 'configurations' | 'prices'>, traces: readonly Trace[]): PriceGapCheck {
  return configurationPricesOwn(setup) ? priceGapsOf(traces, setup.prices) : new PriceGapCheck();
}
