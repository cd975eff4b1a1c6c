/**
 * What bills a Codex rollout's calls beyond the token prices loopcost charges, said as import notes so no
 * command's figures leave it unsaid (as src/import/claudeCode/billingNotes.ts does for Claude Code):
 * - web searches (`web_search_call` items: the hosted tool, run on the server inside a response): OpenAI
 *   bills each call on top of the tokens it brings (which the usage holds); the bundled table's
 *   `web_searches_kcount` (src/pricing/webSearchPrice.ts) names the fee, which is in loopcost's costs (the
 *   call's webSearchRequests, kernel/cost.ts requestFeesPico) when the price table prices it.
 * - the service tier a call ran at: `service_tier` of `turn_context` and of `thread_settings_applied`
 *   events (`thread_settings.service_tier`, a full snapshot: absent is the standard tier), the latest
 *   before the call. Codex's fast mode requests "priority" (its config spells it "fast"), billed about
 *   2× the standard prices for GPT-5 models; "flex" about half. The bundled table has no tier prices, so
 *   such calls are priced at the model's standard prices, and the note says how many and which way.
 */
import { counted } from '../../plural.js';
import { webSearchUsdPerThousand } from '../../pricing/webSearchPrice.js';
import { isJsonObject, type JsonObject } from '../common/jsonValue.js';

const TABLE = 'the bundled @pydantic/genai-prices';

/** Tier values that bill the standard prices. */
const STANDARD_TIERS = new Set(['', 'default', 'auto', 'standard']);

/** USD with at most 4 decimals, as reports show money ($0.05, $0.0001). */
function usd(amount: number): string {
  return `$${Number(amount.toFixed(4))}`;
}

/** What a rollout's calls were billed beyond their tokens, gathered as it is read. */
export class CodexBilling {
  /** The service tier in effect (undefined: standard). */
  private tier: string | undefined;
  private readonly searchesByModel = new Map<string, number>();
  private readonly callsByTier = new Map<string, number>();

  /** A `turn_context` (its `service_tier` when it names one) or `thread_settings_applied` event sets the tier. */
  readSettings(type: unknown, payload: JsonObject): void {
    if (type === 'turn_context') {
      if ('service_tier' in payload) this.tier = tierOf(payload.service_tier);
    } else if (type === 'event_msg' && payload.type === 'thread_settings_applied') {
      const settings = isJsonObject(payload.thread_settings) ? payload.thread_settings : payload;
      this.tier = tierOf(settings.service_tier);
    }
  }

  /** `searches` web_search_call items of a metered response of `model`. */
  webSearch(model: string, searches = 1): void {
    this.searchesByModel.set(model, (this.searchesByModel.get(model) ?? 0) + searches);
  }

  /** A call metered at the tier in effect. */
  call(): void {
    if (this.tier !== undefined) this.callsByTier.set(this.tier, (this.callsByTier.get(this.tier) ?? 0) + 1);
  }

  notes(): string[] {
    const notes = [...this.callsByTier].map(([tier, calls]) => tierNote(tier, calls));
    const searches = this.webSearchNote();
    return searches === undefined ? notes : [...notes, searches];
  }

  private webSearchNote(): string | undefined {
    if (this.searchesByModel.size === 0) return undefined;
    const parts = [...this.searchesByModel].map(([model, searches]) => {
      const what = `${counted(searches, 'web search', 'web searches')} of ${model}`;
      const price = webSearchUsdPerThousand(model, 'openai');
      if (price === undefined) return `${what} (${TABLE} has no web search price for it: its fee is not known here, and not in the cost)`;
      return `${what} (${usd(price.usdPerThousand)} per 1,000 in ${TABLE}, ${price.provider}/${price.model} web_searches_kcount: ${usd((searches * price.usdPerThousand) / 1000)})`;
    });
    return `${parts.join('; ')} (web_search_call items) ran on the server inside their calls, not tool calls of the loop: OpenAI bills each on top of its tokens; that fee is in the cost at the price table's web search price (a price table without one, such as a LiteLLM file, adds nothing for them)`;
  }
}

/** A service_tier value; undefined for the standard tier. */
function tierOf(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const tier = value.trim().toLowerCase();
  return STANDARD_TIERS.has(tier) ? undefined : tier;
}

function tierNote(tier: string, calls: number): string {
  const ran = `${counted(calls, 'call')} ran at service_tier ${JSON.stringify(tier)}`;
  const standard = `${TABLE} has no service-tier prices, so they are priced at the model's standard prices`;
  if (tier === 'priority' || tier === 'fast') return `${ran} (Codex fast mode: priority processing, billed about 2× the standard prices for GPT-5 models): ${standard}, and their recorded cost may be understated about 2×`;
  if (tier === 'flex') return `${ran} (flex processing, billed about half the standard prices): ${standard}, and their recorded cost may be overstated about 2×`;
  return `${ran}: ${standard}, which that tier may not bill`;
}
