/**
 * A run's prices from the table, as loopcost's own callers take them: the table's pricing as it is, with no
 * cache rule filled in. The kernel meters by the provider's rule anyway (kernel/prices.ts flattenPrices takes
 * cacheRuleOf), so no figure depends on the fill; only the library's resolveTracePricing (replay.ts) fills it,
 * for a caller that reads the rule, as resolveScenarioPricing does over scenarioPricing (scenario/scenarioPlaces.ts).
 */
import { UserError } from '../errors.js';
import { requirePricingArguments } from '../options/entryArguments.js';
import { optionPlace, type NamedPlace } from '../options/given.js';
import { placePricingIssues } from '../pricing/issuePlace.js';
import { RESOLVE_ARGUMENTS } from '../pricing/tableArguments.js';
import type { ModelPricing, PriceTable } from '../pricing/types.js';
import type { Trace } from '../trace/types.js';

/** The table, another model to price the run as, and where that model was given (an unknown one is named there). */
export interface TracePricingOptions {
  prices: PriceTable;
  model?: string;
  /** Default: resolveTracePricing's own `model` option; replayTrace and the tree replays name theirs, the CLI's commands `--model` (COMMAND_LINE_MODEL). */
  modelPlace?: NamedPlace;
}

/** The model's pricing for a trace (with `model`, that model's), as the table gives it; an unknown model named at `modelPlace`, or the trace's header. */
export function tracePricing(trace: Trace, options: TracePricingOptions): ModelPricing {
  requirePricingArguments(trace, options);
  if (options.model !== undefined) {
    try {
      return options.prices.resolve(options.model, undefined, trace.header.recordedAt);
    } catch (error) {
      if (!(error instanceof UserError)) throw error;
      // A price file's entry found wrong (an impossible order of prices) stays the price file's problem.
      throw new UserError(placePricingIssues(error.issues, options.modelPlace ?? optionPlace('resolveTracePricing', 'model')));
    }
  }
  try {
    return options.prices.resolve(trace.header.model, trace.header.provider, trace.header.recordedAt);
  } catch (error) {
    if (!(error instanceof UserError)) throw error;
    // Say which trace asked for the model, not only which table lacks it.
    const place = trace.modelPlace ?? { file: trace.source, ...(trace.headerLine === undefined ? {} : { line: trace.headerLine }) };
    throw new UserError(error.issues.flatMap((issue) => placePricingIssues([issue], { ...place, field: 'header.model', hint: [issue.hint, issue.file !== undefined && issue.file !== RESOLVE_ARGUMENTS ? `price table: ${issue.file}` : undefined].filter(Boolean).join('; ') })));
  }
}
