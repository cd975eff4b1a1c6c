/**
 * Web searches a run's calls record (CallRecord.webSearchRequests) that the price table in use prices at
 * $0 — a LiteLLM file (`--prices`), which has no web search price, or a model re-priced with `--model`
 * that the bundled table gives none — cost nothing in the figures; so the report says so, and what they
 * would come to at the bundled table's fee for the model each run recorded (webSearchPrice.ts), whatever
 * imported the run. One note, from the pricing side, for every command that keeps run notes.
 */
import { counted } from '../plural.js';
import { formatUsd } from '../report/money.js';
import { someNames } from '../someNames.js';
import type { ModelPricing } from './types.js';
import { WEB_SEARCH_PRICE_KEY, webSearchPicoOf, webSearchUsdPerThousand } from './webSearchPrice.js';

/** One run's searches priced at $0, and the model it recorded (for the bundled fee). */
export interface UnpricedRunSearches {
  searches: number;
  recordedModel: string;
  provider?: string;
  /** The model the table priced the run as. */
  pricedAs: string;
}

/** A run's searches when `pricing` prices them at $0; undefined when it has none, or they are priced. */
export function unpricedSearchesOf(searches: number, pricing: ModelPricing, recorded: { model: string; provider?: string }): UnpricedRunSearches | undefined {
  if (searches === 0 || (pricing.webSearchPico ?? 0) > 0) return undefined;
  return { searches, recordedModel: recorded.model, ...(recorded.provider === undefined ? {} : { provider: recorded.provider }), pricedAs: pricing.model };
}

/** The runs' searches priced at $0, summed, and said once. */
export class UnpricedSearches {
  private searches = 0;
  private runs = 0;
  private readonly pricedAs = new Set<string>();
  /** What the searches would come to at the bundled fee (those whose recorded model it prices), and how many it does not. */
  private wouldPico = 0;
  private unknownFee = 0;

  add(run: UnpricedRunSearches | undefined): void {
    if (run === undefined) return;
    this.searches += run.searches;
    this.runs += 1;
    this.pricedAs.add(run.pricedAs);
    const fee = webSearchUsdPerThousand(run.recordedModel, run.provider);
    if (fee === undefined || fee.usdPerThousand === 0) this.unknownFee += run.searches;
    // Per search as the table prices one (webSearchPicoOf), so the sum is what a priced run would pay.
    else this.wouldPico += run.searches * webSearchPicoOf({ [WEB_SEARCH_PRICE_KEY]: fee.usdPerThousand })!;
  }

  /** The note (none when every search was priced). */
  warnings(): { code: string; message: string }[] {
    if (this.searches === 0) return [];
    const priced = this.searches - this.unknownFee;
    const would = priced === 0 ? 'the bundled @pydantic/genai-prices table has no web search fee for the models the runs recorded either' : `at the bundled @pydantic/genai-prices fee for the model each run recorded they would come to ${formatUsd(this.wouldPico)}${this.unknownFee > 0 ? ` (${counted(this.unknownFee, 'search', 'searches')} of models it prices none for left out)` : ''}`;
    return [
      {
        code: 'unpriced_web_searches',
        message: `${counted(this.searches, 'web search', 'web searches')} recorded in ${counted(this.runs, 'run')} cost nothing here: the price table in use has no web search price for ${someNames([...this.pricedAs].sort())}; ${would}; to count them, price the runs with the bundled table (leave out --prices) as the model they recorded`,
      },
    ];
  }
}
