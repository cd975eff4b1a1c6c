/**
 * The model that answers a summary call (PURPOSE_HEADER `summary`). A real loop sends its summary calls to
 * the summary model (`summary:…,model=X`: the request's `model` is X), and replay answers them so: refused
 * at X's window (kernel/providerWindow.ts), billed at X's prices (loop/summary.ts). serve does the same for
 * a request naming a model the price table knows, resolved as replay resolves X (summaryPricingOf: the
 * table's prices as of the run's recording day, with the provider's cache rule). A request naming the
 * session's model, the model its ordinary requests name (a client that names one model for every call: its
 * summary model is its model), or a model the table does not know is answered by the session's model, as
 * every other request is (serve answers whatever model a request names).
 */
import { UserError } from '../errors.js';
import { resolveSummaryModel } from '../replay/replay.js';
import type { ModelPricing, PriceTable } from '../pricing/types.js';

/** The prices of the model a request names, undefined when the table does not know it. */
export type PricingOf = (model: string) => ModelPricing | undefined;

/** Model names looked up, known or not, kept at most (names come from clients: the memo is cleared when full). */
const MAX_REMEMBERED = 256;

/** Resolves the models summary requests name, remembering the answer (an unknown name's look-up is the slow one: suggestions). */
export class SummaryModels {
  private readonly resolved = new Map<string, ModelPricing | null>();

  constructor(private readonly prices: PriceTable) {}

  /** For a run recorded on `recordedAt` (a trace's `header.recordedAt`; none for a scenario's run). */
  pricingOf(recordedAt: string | undefined): PricingOf {
    return (model) => this.resolve(model, recordedAt);
  }

  private resolve(model: string, recordedAt: string | undefined): ModelPricing | undefined {
    const key = `${recordedAt ?? ''}\u0000${model}`;
    let pricing = this.resolved.get(key);
    if (pricing === undefined) {
      pricing = known(this.prices, model, recordedAt);
      if (this.resolved.size >= MAX_REMEMBERED) this.resolved.clear();
      this.resolved.set(key, pricing);
    }
    return pricing ?? undefined;
  }
}

function known(prices: PriceTable, model: string, recordedAt: string | undefined): ModelPricing | null {
  try {
    return resolveSummaryModel(prices, model, recordedAt);
  } catch (error) {
    if (error instanceof UserError) return null;
    throw error;
  }
}

/** The prices a summary call is answered at: the named model's when the table knows it, else the session's. */
export function summaryPricing(session: ModelPricing, named: ModelPricing | undefined): ModelPricing {
  return named === undefined || named.model === session.model ? session : named;
}
