/**
 * derivePrices as the library gives it: `loopcost prices derive` on loaded runs. Per-token prices per model
 * recovered from the costs the runs recorded (pricing/derive.ts, the engine the command runs), the LiteLLM
 * price file the command writes with `--out` (load it with `loadPriceTable({ overridesFile })`, or write it
 * with JSON.stringify), and each model's context window as that file states it. Arguments checked first,
 * refusals naming `<derivePrices arguments>`, never a flag.
 */
import { UserError } from '../errors.js';
import { requireTraces } from '../options/given.js';
import { derivedPriceFile, derivePricesFrom, runObservations, type DerivedModel } from '../pricing/derive.js';
import { derivedWindow, knownContextWindow, larger, largestCallOf, type DerivedWindow, type LargestCall } from '../cli/actions/pricesDerive.js';
import type { Trace } from '../trace/types.js';

const ENTRY = 'derivePrices';

export interface DerivedPrices {
  /** Every model the runs recorded a cost of (sorted by model), `usable` where its prices were derived. */
  models: DerivedModel[];
  /** Runs that recorded no cost (nothing to derive from). */
  skippedRuns: number;
  /** The price file (LiteLLM JSON) of the usable models, as `prices derive --out` writes it. */
  priceFile: Record<string, Record<string, unknown>>;
  /** Each usable model's window: the bundled table's, what its runs' calls held, and what the file states. */
  contextWindows: DerivedWindow[];
}

/** The prices `loopcost prices derive TRACES --format json` derives from `traces`: the same models, figures and price file. */
export function derivePrices(traces: readonly Trace[]): DerivedPrices {
  requireTraces(ENTRY, traces);
  const largest = new Map<string, LargestCall>();
  const runs = traces.map((trace) => {
    const observations = runObservations(trace);
    largest.set(observations.model, larger(largestCallOf(trace), largest.get(observations.model)));
    return observations;
  });
  const { models, skippedRuns } = placed(() => derivePricesFrom(runs));
  const usable = models.filter((model) => model.usable);
  if (usable.length === 0) throw notDerivable(models, skippedRuns);
  const contextWindows = usable.map((model) => derivedWindow(model.model, knownContextWindow(model), largest.get(model.model) ?? { promptTokens: 0, callTokens: 0 }));
  const priceFile = derivedPriceFile(usable, (model) => contextWindows.find((w) => w.model === model.model)?.writtenTokens ?? undefined);
  return { models, skippedRuns, priceFile, contextWindows };
}

const FILE = `<${ENTRY} arguments>`;

/** `work`, a refusal that names no place (no run recorded a cost) placed on this entry point's `traces`. */
function placed<T>(work: () => T): T {
  try {
    return work();
  } catch (error) {
    if (!(error instanceof UserError)) throw error;
    throw new UserError(error.issues.map((issue) => (issue.file === undefined ? { ...issue, file: FILE, field: 'traces' } : issue)));
  }
}

/** No model's prices derived: each model's problem. */
function notDerivable(models: readonly DerivedModel[], skippedRuns: number): UserError {
  const file = FILE;
  const none = skippedRuns === 0 ? '' : `; the other ${skippedRuns} run(s) recorded no cost`;
  return new UserError(models.map((model) => ({ file, field: `traces (${model.model})`, code: 'not_derivable', message: `no prices derived from the recorded costs of ${model.model}: ${model.problem}`, hint: `derive from more runs of this model, all of one price period${none}` })));
}
